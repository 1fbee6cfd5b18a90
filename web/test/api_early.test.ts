import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, ApiError, askEarly, puzzlePath, rulesFor } from '../src/net/api.ts';

/** A fetch that answers every GET with its own count, and the list of paths asked. */
function countingFetch(fail = false) {
  const asked: string[] = [];
  globalThis.fetch = (async (path: string) => {
    asked.push(path);
    if (fail) throw new TypeError('network down');
    return new Response(JSON.stringify({ puzzle: { id: `p${asked.length}` } }), { status: 200 });
  }) as typeof fetch;
  return asked;
}

test('an early GET is taken by the first call of the same path, once', async () => {
  const asked = countingFetch();
  const path = puzzlePath('rated', 'bell', '');
  const early = askEarly<{ puzzle: { id: string } }>(path);
  assert.equal(askEarly(path), early, 'asked once however often the entry asks');
  assert.deepEqual(asked, [path]);
  assert.equal((await early).puzzle.id, 'p1'); // what the entry chains on it
  assert.equal((await api.puzzleNext('bell', '')).puzzle.id, 'p1');
  assert.equal((await api.puzzleNext('bell', '')).puzzle.id, 'p2'); // the next one is new
  assert.equal((await api.puzzleNext('bell', 'capture')).puzzle.id, 'p3');
  assert.deepEqual(asked.slice(1), [path, puzzlePath('rated', 'bell', 'capture')]);
});

test('an early answer left untaken for seconds is stale: the call asks afresh', async () => {
  const asked = countingFetch();
  const path = puzzlePath('daily', 'finkel', '');
  const now = Date.now;
  askEarly(path);
  try {
    Date.now = () => now() + 60_000;
    assert.equal((await api.puzzleDaily('finkel')).puzzle.id, 'p2');
  } finally {
    Date.now = now;
  }
  assert.deepEqual(asked, [path, path]);
});

test('an early failure is the failure of the call that takes it', async () => {
  countingFetch(true);
  askEarly(puzzlePath('streak', 'bell', ''));
  const failed = await api.puzzleNext('bell', '').then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(failed instanceof ApiError && failed.code === 'network');
});

test('the puzzle paths: a streak asks as rated puzzles do, the day by rule set only', () => {
  assert.equal(puzzlePath('streak', 'bell', ''), '/api/puzzles/next?rules=bell');
  assert.equal(puzzlePath('rated', 'bell', 'race'), '/api/puzzles/next?rules=bell&theme=race');
  assert.equal(puzzlePath('daily', 'bell', 'race'), '/api/puzzles/daily?rules=bell');
  // No rule set: the server chooses (and the puzzle names it).
  assert.equal(puzzlePath('rated', '', ''), '/api/puzzles/next');
  assert.equal(puzzlePath('streak', '', 'race'), '/api/puzzles/next?theme=race');
  assert.equal(puzzlePath('daily', '', ''), '/api/puzzles/daily');
  // Asked with the rule set (the page that lets the server choose).
  assert.equal(puzzlePath('rated', '', '', true), '/api/puzzles/next?rules_info=1');
  assert.equal(puzzlePath('daily', '', '', true), '/api/puzzles/daily?rules_info=1');
});

test("the head's request is taken by the first call of its path, once; its rule set is kept", async () => {
  const asked = countingFetch();
  const path = puzzlePath('rated', '', '', true);
  const bell = { preset: 'bell', name: 'Bell' };
  const g = globalThis as { urHeadFetch?: { path: string; res: Promise<Response> } };
  const answer = { puzzle: { id: 'head', rules: 'bell' }, rules_info: bell };
  g.urHeadFetch = { path, res: Promise.resolve(new Response(JSON.stringify(answer))) };
  assert.equal((await api.puzzleNext('', '', true)).puzzle.id, 'head');
  assert.equal(g.urHeadFetch, undefined);
  assert.deepEqual(asked, [], 'no request of its own');
  assert.deepEqual(await rulesFor('bell'), bell, 'the rule set is not asked for');
  assert.deepEqual(asked, []);
  assert.equal((await api.puzzleNext('', '', true)).puzzle.id, 'p1'); // the next one is new
  // Another path leaves it alone.
  g.urHeadFetch = { path: '/api/puzzles/daily?rules_info=1', res: Promise.reject(new Error('x')) };
  g.urHeadFetch.res.catch(() => {});
  assert.equal((await api.puzzleNext('bell', '')).puzzle.id, 'p2');
  assert.equal(g.urHeadFetch?.path, '/api/puzzles/daily?rules_info=1');
  delete g.urHeadFetch;
});
