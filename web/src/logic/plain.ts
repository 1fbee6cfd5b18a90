// A plain sentence per rule set for the lobby, for someone who has never played: what makes it
// different, without ids or jargon (lang/<code>/home.ts: `plain.<preset>`). Unknown presets fall
// back to the server's summary.

import { known } from './known.ts';

export function plainSentence(id: string, summary: string): string {
  return known(`plain.${id}`) ?? summary;
}
