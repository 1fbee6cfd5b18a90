import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  accountLang,
  chooseLang,
  LANGUAGES,
  list,
  loadCatalog,
  num,
  pct,
  placeholders,
  t,
  useCatalog,
  type Catalog,
  type Lang,
} from '../src/logic/i18n.ts';
import { en } from '../src/logic/lang/en.ts';

const langs = Object.keys(LANGUAGES) as Lang[];

test('every catalog has exactly the English keys, and no placeholder English lacks', async () => {
  for (const lang of langs) {
    const c = await loadCatalog(lang);
    assert.deepEqual(Object.keys(c).sort(), Object.keys(en).sort(), `${lang}: its keys`);
    for (const [key, entry] of Object.entries(en)) {
      const theirs = c[key as keyof typeof en];
      assert.ok(theirs !== '' && theirs !== undefined, `${lang}: ${key} is empty`);
      const allowed = placeholders(entry);
      for (const name of placeholders(theirs))
        assert.ok(allowed.has(name), `${lang}: ${key} uses {${name}}, which English lacks`);
      if (typeof entry !== 'string')
        assert.ok(typeof theirs !== 'string', `${lang}: ${key} is counted in English`);
    }
  }
});

test("the language: saved choice, else the browser's first we speak, else English", () => {
  assert.equal(chooseLang('nl', ['de-DE']), 'nl');
  assert.equal(chooseLang(null, ['de-AT', 'en']), 'de');
  assert.equal(chooseLang(null, ['pt-BR', 'AR-eg']), 'ar');
  assert.equal(chooseLang('xx', ['ja']), 'en', 'an unknown saved code is ignored');
  assert.equal(chooseLang(null, []), 'en');
  assert.equal(LANGUAGES.ar.dir, 'rtl');
});

test("the account's language counts where the browser saved no choice of its own", () => {
  assert.equal(accountLang(null, 'de', 'en'), 'de');
  assert.equal(accountLang('xx', 'ar', 'en'), 'ar', 'an unknown saved code is no choice');
  assert.equal(accountLang('nl', 'de', 'nl'), null, "the browser's own choice wins");
  assert.equal(accountLang(null, 'de', 'de'), null, 'spoken already');
  assert.equal(accountLang(null, '', 'en'), null, 'the account chose none');
  assert.equal(accountLang(null, 'pt', 'en'), null, 'a language the client does not speak');
  assert.equal(accountLang(null, undefined, 'en'), null);
});

test('placeholders are filled, numbers formatted for the language, plurals by its rules', () => {
  const forms = { zero: 'z', one: 'o', two: 't', few: 'f {count}', many: 'm {count}', other: 'x' };
  const fake = { ...en, 'settings.title': forms, 'settings.done': 'Hello {name}, {n}' };
  useCatalog('ar', fake as unknown as Catalog);
  const key = 'settings.title';
  assert.deepEqual(
    [0, 1, 2, 3, 11, 100].map((count) => t(key, { count })),
    ['z', 'o', 't', 'f 3', 'm 11', 'x'],
    "Arabic's six forms (CLDR's Arabic writes Western digits by default)",
  );
  useCatalog('de', fake as unknown as Catalog);
  assert.equal(t('settings.done', { name: 'Ana', n: 1234.5 }), 'Hello Ana, 1.234,5');
  assert.equal(t('settings.done'), 'Hello {name}, {n}', 'an unfilled placeholder shows');
  assert.equal(num(1234567), '1.234.567');
  assert.equal(pct(0.573), '57,3\u00a0%');
  useCatalog('en', en);
  assert.equal(pct(0.573), '57.3%');
  assert.equal(t('settings.title'), 'Settings');
});

test('numbers read as Intl writes them, with or without the formatter made', () => {
  const samples = [0, 1, 7, 42, 999, 1000, 1234.5, -3, 0.25, 1500, 9999, 10000, 12345, 100000];
  samples.push(999999, 1000000, 123456789, 9007199254740991, 9007199254740992, -1500);
  for (const lang of langs) {
    useCatalog(lang, en);
    const intl = new Intl.NumberFormat(lang);
    for (const n of samples) assert.equal(num(n), intl.format(n), `${lang} ${n}`);
    for (let n = 0; n < 100000; n += 37) assert.equal(num(n), intl.format(n), `${lang} ${n}`);
  }
  useCatalog('en', en);
});

test('lists read as Intl writes them, one item and none without the formatter', () => {
  const samples = [[], ['a1'], ['a1', 'b2'], ['a1', 'b2', 'c3']];
  for (const lang of langs) {
    useCatalog(lang, en);
    const intl = new Intl.ListFormat(lang, { type: 'conjunction' });
    for (const items of samples) assert.equal(list(items), intl.format(items), `${lang} ${items}`);
  }
  useCatalog('en', en);
});
