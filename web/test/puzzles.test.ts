import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_MISTAKES,
  mistakeCounts,
  parseMoveText,
  PUZZLE_TEXT,
  rankMoves,
  streakAfter,
  throwSquares,
  THEME_IDS,
} from '../src/logic/puzzles.ts';
import { mistakesHash, parseHash, puzzlesHash } from '../src/logic/route.ts';
import { puzzleRuleSets } from '../src/logic/status.ts';
import { englishWords } from '../src/logic/i18n.ts';

// These screens' words come with their script (wordsReady), after the first screen's.
await englishWords();

test('puzzle routes and their addresses', () => {
  assert.deepEqual(parseHash('#/puzzles'), {
    name: 'puzzles',
    mode: 'rated',
    rules: null,
    theme: null,
  });
  assert.deepEqual(parseHash('#/puzzles/streak?rules=bell&theme=bear-off'), {
    name: 'puzzles',
    mode: 'streak',
    rules: 'bell',
    theme: 'bear-off',
  });
  assert.deepEqual(parseHash('#/puzzles/daily?rules=../x'), {
    name: 'puzzles',
    mode: 'daily',
    rules: null,
    theme: null,
  });
  assert.equal(parseHash('#/puzzles/other').name, 'not_found');
  assert.equal(parseHash('#/puzzles/streak/x').name, 'not_found');
  assert.equal(puzzlesHash('rated', 'finkel', ''), '#/puzzles');
  assert.equal(
    puzzlesHash('streak', 'bell', 'capture'),
    '#/puzzles/streak?rules=bell&theme=capture',
  );
  assert.equal(puzzlesHash('daily', 'finkel', ''), '#/puzzles/daily');
  assert.deepEqual(parseHash(mistakesHash('0123456789abcdef', 2)), {
    name: 'mistakes',
    id: '0123456789abcdef',
    seat: 2,
  });
  assert.equal(parseHash('#/mistakes/nothex').name, 'not_found');
});

test('move texts, throws and the answer list', () => {
  assert.deepEqual(parseMoveText('0->4'), { from: 0, to: 4 });
  assert.deepEqual(parseMoveText('12->15'), { from: 12, to: 15 });
  assert.equal(parseMoveText('award_yes'), null);
  assert.equal(parseMoveText('4->'), null);
  assert.equal(throwSquares({ throws: [{ move: 4 }, { move: 1 }] }, 0), 4);
  assert.equal(throwSquares({ throws: [] }, 3), 3);
  const ranked = rankMoves(
    [
      { move: 'a', value: 0.6 },
      { move: 'b', value: 0.2 },
      { move: 'c', value: 0.7 },
    ],
    'c',
  );
  assert.deepEqual(
    ranked.map((m) => m.move),
    ['c', 'a', 'b'],
  );
  assert.equal(PUZZLE_TEXT.chance(0.5234), '52.3% to win');
  assert.equal(PUZZLE_TEXT.toMove('Light', 1), 'Light to move · the throw: 1 square');
  assert.equal(PUZZLE_TEXT.change(-7), 'Rating \u22127');
});

test('a streak ends at the first miss', () => {
  let s = { count: 0, over: false };
  s = streakAfter(s, true);
  s = streakAfter(s, true);
  assert.deepEqual(s, { count: 2, over: false });
  s = streakAfter(s, false);
  assert.deepEqual(s, { count: 2, over: true });
  assert.deepEqual(streakAfter(s, true), { count: 2, over: true });
});

test('the themes of docs/puzzles.md, and mistakes are counted per seat', () => {
  assert.deepEqual(
    [...THEME_IDS],
    ['capture', 'escape', 'rosette', 'blockade', 'entering', 'race', 'bear-off', 'safety'],
  );
  assert.deepEqual(
    mistakeCounts([
      { seat: 1, grade: 'mistake' },
      { seat: 1, grade: 'good' },
      { seat: 2, grade: 'blunder' },
      { seat: 1, grade: 'blunder' },
    ]),
    { 1: 2, 2: 1 },
  );
  // The server gives a seat its costliest ten: the link promises no more.
  const many = Array.from({ length: 14 }, () => ({ seat: 2 as const, grade: 'blunder' }));
  assert.deepEqual(mistakeCounts(many), { 1: 0, 2: MAX_MISTAKES });
  assert.equal(MAX_MISTAKES, 10);
});

test('puzzles come from whole tables only, not from endgame tables', () => {
  const presets = [
    { id: 'finkel', solved: true, endgame: 0 },
    { id: 'murray', solved: true, endgame: 4 },
    { id: 'masters', solved: false, endgame: 0 },
    { id: 'bell', solved: true },
  ];
  assert.deepEqual(
    puzzleRuleSets(presets).map((p) => p.id),
    ['finkel', 'bell'],
  );
});
