// The words a player reads, in their language. English (lang/en.ts) is the source catalog: its
// first screen's words are bundled with the entry script (lang/en_first.ts), the other screens'
// come with those screens (englishWords); every other language is a catalog of its own, fetched
// only when chosen (loadCatalog). A catalog maps a key to a text with named placeholders ("{name}")
// or, where a number is counted, to the plural forms of the language (Intl.PluralRules picks
// one by the `count` placeholder: Arabic has six, English two). Numbers, percentages and dates
// are formatted by Intl for the chosen language, so "1,234.5" is "1.234,5" in German.

import type { Catalog, Entry, Key } from './lang/catalog.ts';
import { enFirst } from './lang/en_first.ts';

export type { Catalog, Entry, Key, Plural } from './lang/catalog.ts';
export type Vars = Readonly<Record<string, string | number>>;

/** The languages the client speaks, each named in its own language, and their direction. */
export const LANGUAGES = {
  en: { name: 'English', dir: 'ltr' },
  de: { name: 'Deutsch', dir: 'ltr' },
  nl: { name: 'Nederlands', dir: 'ltr' },
  fr: { name: 'Français', dir: 'ltr' },
  es: { name: 'Español', dir: 'ltr' },
  ar: { name: 'العربية', dir: 'rtl' },
} as const;
export type Lang = keyof typeof LANGUAGES;

export function isLang(code: unknown): code is Lang {
  return typeof code === 'string' && Object.hasOwn(LANGUAGES, code);
}

/**
 * The language to speak: the player's saved choice if it is one we have, else the first of the
 * browser's languages we have (by its primary subtag: "de-AT" is German), else English.
 */
export function chooseLang(saved: string | null, browser: readonly string[]): Lang {
  if (isLang(saved)) return saved;
  for (const tag of browser) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLang(primary)) return primary;
  }
  return 'en';
}

/**
 * The account's language to switch to at login (docs/languages.md): only in a browser without a
 * saved choice of its own, and only a language we speak that is not spoken already; else null.
 */
export function accountLang(saved: string | null, account: unknown, current: Lang): Lang | null {
  return isLang(saved) || !isLang(account) || account === current ? null : account;
}

// Each catalog is a chunk of its own (a dynamic import), so a player fetches only their own.
const loaders: Record<Exclude<Lang, 'en'>, () => Promise<{ catalog: Catalog }>> = {
  de: () => import('./lang/de.ts'),
  nl: () => import('./lang/nl.ts'),
  fr: () => import('./lang/fr.ts'),
  es: () => import('./lang/es.ts'),
  ar: () => import('./lang/ar.ts'),
};

// English as far as it is loaded: the first screen's words, then all of them.
let english: Partial<Catalog> = enFirst;
let moreEnglish: Promise<Catalog> | undefined;

/**
 * The whole English catalog: the other screens' words are a chunk of their own, fetched once
 * (again after a failure). The screens that use them wait for wordsReady before they show.
 */
export function englishWords(): Promise<Catalog> {
  if (!moreEnglish) {
    moreEnglish = import('./lang/en_more.ts').then(({ enMore }) => {
      const all: Catalog = { ...enFirst, ...enMore };
      english = all;
      if (lang === 'en') catalog = all;
      return all;
    });
    moreEnglish.catch(() => (moreEnglish = undefined));
  }
  return moreEnglish;
}

/** Every word of the current language is loaded: for English, once englishWords has come. */
export async function wordsReady(): Promise<void> {
  if (lang === 'en') await englishWords();
}

export async function loadCatalog(lang: Lang): Promise<Catalog> {
  return lang === 'en' ? englishWords() : (await loaders[lang]()).catalog;
}

let lang: Lang = 'en';
let catalog: Partial<Catalog> = english;
let plurals = new Intl.PluralRules('en');
// Made when first needed: Chromium's first NumberFormat loads its number data, 30–40 ms that the
// first screen would wait for, and the whole numbers it shows need none (see plainNumber).
let numbers: Intl.NumberFormat | undefined;
let lists: Intl.ListFormat | undefined;

/**
 * Speaks `next` from now on: its catalog as loadCatalog gives it, or, for English at the start,
 * the words loaded so far (the first screen's; the rest follow with wordsReady).
 */
export function useCatalog(next: Lang, c: Partial<Catalog> = english): void {
  lang = next;
  catalog = c;
  plurals = new Intl.PluralRules(next);
  numbers = undefined;
  lists = undefined;
}

/**
 * How the languages written with the digits 0–9 group a whole number (CLDR, as Intl writes it):
 * the separator, and the fewest digits before the first one (Spanish leaves 1500 whole, writes
 * 15.000). Arabic has its own digits and is left to Intl.
 */
const GROUPING: Readonly<Record<Exclude<Lang, 'ar'>, { sep: string; min: number }>> = {
  en: { sep: ',', min: 4 },
  de: { sep: '.', min: 4 },
  nl: { sep: '.', min: 4 },
  fr: { sep: '\u202f', min: 4 },
  es: { sep: '.', min: 5 },
};

/**
 * A whole number of 0 or more in a language written with the digits 0–9, grouped by hand: the
 * counts and ratings most screens show need no formatter (Chromium's first costs 30–40 ms).
 * test/i18n.test.ts checks that it writes what Intl writes.
 */
function plainNumber(n: number): string | undefined {
  if (lang === 'ar' || !Number.isSafeInteger(n) || n < 0) return undefined;
  const digits = String(n);
  const { sep, min } = GROUPING[lang];
  return digits.length < min ? digits : digits.replace(/\B(?=(\d{3})+$)/g, sep);
}

function formatNumber(n: number): string {
  return plainNumber(n) ?? (numbers ??= new Intl.NumberFormat(lang)).format(n);
}

export function currentLang(): Lang {
  return lang;
}

/**
 * The text of `key` with its placeholders filled; numbers are formatted for the language. A key
 * whose words are not loaded (a screen shown before wordsReady: a bug that check-first-words
 * guards against for the first screen) shows as the key, never as a blank.
 */
export function t(key: Key, vars: Vars = {}): string {
  const entry = catalog[key] ?? english[key];
  return entry === undefined ? key : fill(pick(entry, vars), vars);
}

/** Whether the catalog has words for `key` (a key made from data the server sends). */
export function hasWords(key: string): key is Key {
  return Object.hasOwn(catalog, key) || Object.hasOwn(english, key);
}

function pick(entry: Entry, vars: Vars): string {
  if (typeof entry === 'string') return entry;
  const n = Number(vars.count ?? 0);
  // Arabic and some others name 0 apart; a language without the category falls back to other.
  const form = n === 0 && entry.zero !== undefined ? 'zero' : plurals.select(n);
  return entry[form] ?? entry.other;
}

function fill(text: string, vars: Vars): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) return whole; // a placeholder left unfilled shows, rather than vanish
    return typeof v === 'number' ? formatNumber(v) : v;
  });
}

/** The placeholders a text uses (every form of a plural), for the catalogs' completeness test. */
export function placeholders(entry: Entry): Set<string> {
  const texts = typeof entry === 'string' ? [entry] : Object.values(entry);
  const names = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/\{(\w+)\}/g)) names.add(m[1]);
  return names;
}

/** A number for the language ("1,234" / "1.234" / "١٬٢٣٤"). */
export function num(n: number, options?: Intl.NumberFormatOptions): string {
  return options ? new Intl.NumberFormat(lang, options).format(n) : formatNumber(n);
}

/** A share as a percentage: pct(0.573) is "57.3%" in English, "57,3 %" in German. */
export function pct(share: number, digits = 1): string {
  return new Intl.NumberFormat(lang, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(share);
}

/** Names joined as the language lists them: "alice and bob", "alice und bob", "alice et bob". */
export function list(items: readonly string[]): string {
  // None or one is itself in every language: a board's squares (one piece each, mostly) need no
  // formatter, whose first costs Chromium 30–60 ms of a screen's first drawing.
  if (items.length <= 1) return items[0] ?? '';
  return (lists ??= new Intl.ListFormat(lang, { type: 'conjunction' })).format(items);
}

/** A moment (Unix seconds) as a medium date with the time, in the language's own order. */
export function dateTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}
