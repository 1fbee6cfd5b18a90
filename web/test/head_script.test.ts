import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headScript } from '../src/logic/head_script.ts';
import { parseHash } from '../src/logic/route.ts';
import { puzzlePath } from '../src/net/api.ts';

const FILES = ['./assets/puzzle_screens-x.js', './assets/board-y.js'];

/** Runs the head script at `hash`: the modules it preloads and the path it fetches, if any. */
function runAt(hash: string) {
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
  new Function('location', 'document', 'fetch', 'window', headScript(FILES))(
    { hash },
    document,
    fetch,
    win,
  );
  if (fetched.length) assert.equal(win.urHeadFetch?.path, fetched[0]);
  return { preloads, fetched, left: win.urHeadFetch };
}

test('the head script preloads the puzzle pages and fetches what the page would ask first', () => {
  const hashes = ['#/puzzles', '#/puzzles/', '#/puzzles/streak', '#/puzzles/daily'];
  for (const hash of hashes) {
    const route = parseHash(hash);
    assert.equal(route.name, 'puzzles');
    if (route.name !== 'puzzles') continue;
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual(preloads, FILES, hash);
    // The very path puzzles_early.ts asks for where the address names no rule set.
    assert.deepEqual(fetched, [puzzlePath(route.mode, '', '', true)], hash);
  }
});

test('filters, mistakes and other pages: no fetch from the head; preloads only for puzzles', () => {
  for (const hash of ['#/puzzles?rules=bell', '#/puzzles/streak?theme=race', '#/mistakes/abc']) {
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual(preloads, FILES, hash);
    assert.deepEqual(fetched, [], hash);
  }
  for (const hash of ['', '#/lobby', '#/table/abc', '#/puzzlesx', '#/replay/abc']) {
    const { preloads, fetched } = runAt(hash);
    assert.deepEqual([preloads, fetched], [[], []], hash);
  }
});
