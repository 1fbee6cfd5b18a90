// The language the page speaks: chosen once at start (the player's saved choice, else the
// browser's languages, else English), switched from the settings without a reload. The choice
// sets <html lang dir>: in Arabic the page runs right to left (CSS logical properties), while
// the board keeps the geometry of the rules. Screens that listen (onLanguage) draw themselves
// again in the new language; the state they show lives on the server or in the app, so a switch
// mid-game loses nothing.

import {
  accountLang,
  chooseLang,
  currentLang,
  LANGUAGES,
  loadCatalog,
  t,
  useCatalog,
  type Lang,
} from '../logic/i18n.ts';
import { h } from './dom.ts';
import './rtl.css';

const KEY = 'ur.lang';
const listeners = new Set<() => void>();

function apply(lang: Lang): void {
  const root = document.documentElement;
  root.lang = lang;
  root.dir = LANGUAGES[lang].dir;
}

function savedChoice(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage refused (a private window's policy): the browser's languages decide
  }
}

/** Loads the language to start in. English needs no fetch before the first screen (its other
 *  words come with the other screens); a catalog that fails to load leaves the page in English
 *  rather than blank. */
export async function startLanguage(): Promise<void> {
  const lang = chooseLang(savedChoice(), navigator.languages ?? [navigator.language]);
  try {
    if (lang !== 'en') useCatalog(lang, await loadCatalog(lang));
    apply(lang);
  } catch {
    apply('en');
  }
}

/**
 * Speaks `lang` from now on, remembers it in this browser (unless `remember` is false), and has
 * every listening screen redraw itself.
 */
export async function switchLanguage(lang: Lang, remember = true): Promise<void> {
  useCatalog(lang, await loadCatalog(lang));
  apply(lang);
  if (remember)
    try {
      localStorage.setItem(KEY, lang);
    } catch {
      // not remembered past this page; it still switches
    }
  for (const fn of [...listeners]) fn();
}

/**
 * The account's language (chosen on another device), spoken when this browser has no choice of
 * its own saved; not saved here, so that the account stays the one place it is kept.
 */
export function adoptAccountLanguage(code: string | undefined): void {
  const lang = accountLang(savedChoice(), code, currentLang());
  if (lang) switchLanguage(lang, false).catch(() => {}); // not fetched: the page stays as it is
}

/** Calls `fn` after each switch of language; returns the function that stops it. */
export function onLanguage(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The language picker: each language named in its own words (so a lost player finds theirs). */
export function languagePicker(): HTMLElement {
  const select = h('select', { name: 'language', 'aria-label': t('settings.language') });
  for (const [code, { name }] of Object.entries(LANGUAGES)) {
    // The option names its own language: say so, for screen readers and for the font's shaping.
    select.append(h('option', { value: code, lang: code, text: name }));
  }
  select.value = currentLang();
  select.addEventListener('change', () => void switchLanguage(select.value as Lang));
  return h('label', { class: 'field' }, t('settings.language'), select);
}
