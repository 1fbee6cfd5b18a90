// Catalog texts whose key is made from data the server sends (a grade, a puzzle theme, a rule
// set's id): the language's text when the catalog has the key, else the caller's fallback, so a
// grade or preset newer than the client still shows (in the server's words).

import { hasWords, t } from './i18n.ts';

export function known(key: string): string | undefined {
  return hasWords(key) ? t(key) : undefined;
}

/** A rule set's name for players: the catalog's for a preset, else the server's. */
export const rulesName = (id: string, serverName: string) => known(`ruleset.${id}`) ?? serverName;
