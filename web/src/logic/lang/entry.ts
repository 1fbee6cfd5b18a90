// What a catalog holds for one key, and a language's translation of one of English's parts.

/** The forms of a counted text, by Intl.PluralRules category; `other` is always required. */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}
/** A text with named placeholders ("{name}"), or the forms of a counted one. */
export type Entry = string | Plural;

/** A language's translation of one of English's parts: exactly its keys (typed). */
export type Part<English> = { readonly [K in keyof English]: Entry };
