// The shape of a translation: every key of the English catalog, each a text or plural forms.
// Typed, so a catalog that lacks a key or misspells one fails the build.
import type { en, Entry } from './en.ts';

export type { Entry, Plural } from './en.ts';
export type Key = keyof typeof en;
export type Catalog = { readonly [K in Key]: Entry };
