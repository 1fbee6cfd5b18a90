// The web client's words as the browser tests expect them, in any of its languages: read from the
// catalog sources themselves (web/src/logic/lang/<code>/*.ts, compiled with the web client's own
// TypeScript), so a test checks the text a player of that language reads and never a copy of it.
// `t` fills a text the way web/src/logic/i18n.ts does (named placeholders, plural forms by
// Intl.PluralRules, numbers by Intl.NumberFormat); `tRe` makes a pattern of a text whose
// placeholders the test does not know in advance; `plain` drops the bidirectional marks that
// right-to-left pages (and catalogs) put around Latin names and numbers, so the two compare.

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../web');
const langDir = join(webDir, 'src/logic/lang');
const catalogs = new Map();

/** Every key of `lang`'s catalog and its entry (a text, or plural forms by category). */
export function catalog(lang) {
  if (catalogs.has(lang)) return catalogs.get(lang);
  const ts = createRequire(join(webDir, 'package.json'))('typescript');
  const all = {};
  const dir = join(langDir, lang);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    // A part imports types only: compiled to CommonJS it needs nothing at run time.
    const js = ts.transpileModule(readFileSync(join(dir, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const module = { exports: {} };
    new Function('exports', 'module', 'require', js)(module.exports, module, () => ({}));
    for (const part of Object.values(module.exports)) Object.assign(all, part);
  }
  if (Object.keys(all).length === 0) throw new Error(`no catalog for language ${lang}`);
  catalogs.set(lang, all);
  return all;
}

function entry(lang, key) {
  const e = catalog(lang)[key];
  if (e === undefined) throw new Error(`no text ${key} in the ${lang} catalog`);
  return e;
}

function formatNumber(lang, n) {
  // As i18n.ts: small whole numbers as plain digits, the rest by the language's Intl format.
  if (lang !== 'ar' && Number.isInteger(n) && n >= 0 && n < 1000) return String(n);
  return new Intl.NumberFormat(lang).format(n);
}

function pluralForm(lang, forms, n) {
  const form = n === 0 && forms.zero !== undefined ? 'zero' : new Intl.PluralRules(lang).select(n);
  return forms[form] ?? forms.other;
}

/**
 * The text of `key` in `lang` with `vars` filled in, as the page writes it but for the bidirectional
 * isolates a catalog puts around names (compare it with `plain` text).
 */
export function tIn(lang, key, vars = {}) {
  const e = entry(lang, key);
  const text = typeof e === 'string' ? e : pluralForm(lang, e, Number(vars.count ?? 0));
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = vars[name];
    if (v === undefined) return whole;
    return typeof v === 'number' ? formatNumber(lang, v) : v;
  });
  return plain(filled);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern for the text of `key` in `lang`: the placeholders in `vars` as given (a RegExp stands
 * for itself), every other one matching anything; the plural form of a numeric `count`, else every
 * form. `whole` anchors it to the whole text.
 */
export function tReIn(lang, key, vars = {}, { whole = false } = {}) {
  const e = entry(lang, key);
  const forms =
    typeof e === 'string'
      ? [e]
      : typeof vars.count === 'number'
        ? [pluralForm(lang, e, vars.count)]
        : [...new Set(Object.values(e))];
  const one = (text) =>
    text
      .split(/(\{\w+\})/)
      .map((piece) => {
        const m = /^\{(\w+)\}$/.exec(piece);
        if (!m) return escape(plain(piece));
        const v = vars[m[1]];
        if (v === undefined) return '.*?';
        if (v instanceof RegExp) return `(?:${v.source})`;
        return escape(typeof v === 'number' ? formatNumber(lang, v) : v);
      })
      .join('');
  const body = forms.map(one).join('|');
  return new RegExp(whole ? `^(?:${body})$` : `(?:${body})`, 'u');
}

/** Text without the bidirectional isolates and marks (U+2066–2069, U+200E/F, U+061C). */
export function plain(text) {
  return (text ?? '').replace(/[\u2066-\u2069\u200e\u200f\u061c]/g, '');
}
