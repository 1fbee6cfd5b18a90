import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headScript } from '../src/logic/head_script.ts';
import { chooseLang, LANGUAGES } from '../src/logic/i18n.ts';
import { parseHash } from '../src/logic/route.ts';
import { puzzlePath } from '../src/net/api.ts';

const PUZZLES = ['./assets/puzzle_screens-x.js', './assets/board-y.js'];
const CATALOGS: Record<string, string> = Object.fromEntries(
  Object.keys(LANGUAGES).map((l) => [l, `./assets/${l === 'en' ? 'en_more' : l}-z.js`]),
);

interface Reader {
  /** The language saved in this browser (ui/language.ts), or storage that refuses (throws). */
  saved?: string | null | 'refused';
  languages?: string[];
}

/** Runs the head script at `hash`: the modules it preloads and the path it fetches, if any. */
function runAt(hash: string, reader: Reader = {}) {
  const preloads: string[] = [];
  const fetched: string[] = [];
  const win: { urHeadFetch?: { path: string; res: Promise<Response> } } = {};
  const document = {
    createElement: () => ({ rel: '', href: '' }),
    head: {
      appendChild: (l: { rel: string; href: string }) => {
        assert.equal(l.rel, 'modulepreload');
        preloads.push(l.href);
      },
    },
  };
  const fetch = (path: string, init: { credentials: string }) => {
    assert.equal(init.credentials, 'same-origin');
    fetched.push(path);
    return Promise.reject(new TypeError('offline')); // never taken: must not be unhandled
  };
  const localStorage = {
    getItem: (key: string) => {
      assert.equal(key, 'ur.lang');
      if (reader.saved === 'refused') throw new Error('SecurityError');
      return reader.saved ?? null;
    },
  };
  const navigator = { languages: reader.languages ?? ['en-US'], language: 'en-US' };
  const files = { puzzles: PUZZLES, catalogs: CATALOGS };
  new Function(
    'location',
    'document',
    'fetch',
    'window',
    'localStorage',
    'navigator',
    headScript(files),
  )({ hash }, document, fetch, win, localStorage, navigator);
  if (fetched.length) assert.equal(win.urHeadFetch?.path, fetched[0]);
  const words = preloads.filter((f) => Object.values(CATALOGS).includes(f));
  return { preloads: preloads.filter((f) => !words.includes(f)), words, fetched };
}

test('the head script preloads the puzzle pages and fetches what the page would ask first', () => {
  const hashes = ['#/puzzles', '#/puzzles/', '#/puzzles/streak', '#/puzzles/daily'];
  for (const hash of hashes) {
    const route = parseHash(hash);
    assert.equal(route.name, 'puzzles');
    if (route.name !== 'puzzles') continue;
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual(preloads, PUZZLES, hash);
    // The very path puzzles_early.ts asks for where the address names no rule set.
    assert.deepEqual(fetched, [puzzlePath(route.mode, '', '', true)], hash);
  }
});

test('filters, mistakes and other pages: no fetch from the head; preloads only for puzzles', () => {
  for (const hash of ['#/puzzles?rules=bell', '#/puzzles/streak?theme=race', '#/mistakes/abc']) {
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual(preloads, PUZZLES, hash);
    assert.deepEqual(fetched, [], hash);
  }
  for (const hash of ['', '#/lobby', '#/table/abc', '#/puzzlesx', '#/replay/abc']) {
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual([preloads, fetched], [[], []], hash);
  }
});

test("the words it preloads are the catalog the page waits for, in the page's own language", () => {
  const hashes = ['', '#', '#/', '#/lobby', '#//lobby/', '#/lobby?x=1', '#?x=1', '#/puzzles'];
  hashes.push('#/table/0123456789abcdef', '#/history', '#/login', '#/lobbyx', '#/lobby/x');
  const readers: Reader[] = [
    {},
    { saved: 'de' },
    { saved: 'ar', languages: ['fr-FR'] },
    { saved: 'en', languages: ['nl'] },
    { saved: 'xx', languages: ['es-ES', 'de'] },
    { saved: 'refused', languages: ['fr-CA'] },
    { saved: 'hasOwnProperty', languages: ['pt-BR', 'ja'] },
    { languages: [] },
  ];
  for (const hash of hashes)
    for (const reader of readers) {
      const saved = reader.saved === 'refused' ? null : (reader.saved ?? null);
      const lang = chooseLang(saved, reader.languages ?? ['en-US']);
      // English's first words are in the first script: only its other screens wait (wordsReady).
      const lobby = parseHash(hash).name === 'lobby';
      const want = lang === 'en' && lobby ? [] : [CATALOGS[lang]];
      assert.deepEqual(runAt(hash, reader).words, want, `${hash} ${JSON.stringify(reader)}`);
    }
});
