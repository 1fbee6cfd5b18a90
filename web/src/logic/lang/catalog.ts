// The shape of a translation. English (en.ts) is the source: one part per screen (en/<part>.ts),
// and every other language has the same parts (<lang>/<part>.ts), each typed against English's,
// so a part that lacks a key or misspells one fails the build. <lang>.ts joins a language's
// parts: one script per language, fetched only by its readers.
import type { Entry } from './entry.ts';
import type { en } from './en.ts';

export type { Entry, Part, Plural } from './entry.ts';
export type Key = keyof typeof en;
export type Catalog = { readonly [K in Key]: Entry };
