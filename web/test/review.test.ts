import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import {
  decisionWords,
  decompositionWords,
  keyItems,
  playerLines,
  plotPoints,
  reviewLine,
  signedPct,
} from '../src/logic/review.ts';
import type { AnalysisAnswer } from '../src/logic/types.ts';
import { rules } from './fixtures.ts';
import { englishWords } from '../src/logic/i18n.ts';

// These screens' words come with their script (wordsReady), after the first screen's.
await englishWords();

const finkel = buildGeometry(rules('finkel'));
const names = { 1: 'alice', 2: 'bob' } as const;

const move = {
  event: 7,
  seat: 2 as const,
  legal: 3,
  from: 3,
  to: 4,
  best: { from: 0, to: 3 },
  value: 0.483,
  best_value: 0.503,
  cost: 0.02,
  grade: 'inaccuracy',
};
const review: AnalysisAnswer = {
  estimate: false,
  moves: [move],
  throws: [{ event: 2, seat: 1, outcome: 4, luck: 0.2, light: 0.7, light_expected: 0.5 }],
  players: [
    {
      seat: 1,
      decisions: 15,
      best: 9,
      total_cost: 0.163,
      worst_cost: 0.04,
      accuracy: 58.2,
      luck: 0.256,
    },
    {
      seat: 2,
      decisions: 0,
      best: 0,
      total_cost: 0.454,
      worst_cost: 0.1,
      accuracy: 100,
      luck: 0.063,
    },
  ],
  decomposition: {
    start: 0.516,
    result: 1,
    light_luck: 0.256,
    dark_luck: 0.063,
    light_lost: 0.163,
    dark_lost: 0.454,
    residual: 0,
  },
  key_moves: {
    decisions: [move],
    throws: [{ event: 2, seat: 1, outcome: 4, luck: 0.2, light: 0.7, light_expected: 0.5 }],
  },
  graph: [
    { step: 0, event: -1, light: 0.5 },
    { step: 1, event: 0, light: 1 },
    { step: 2, event: 1, light: 0, mark: 'blunder' },
  ],
};

test('signed percentages carry a true minus and always a sign', () => {
  assert.equal(signedPct(0.31), '+31.0%');
  assert.equal(signedPct(-0.09), '\u22129.0%');
  assert.equal(signedPct(0), '+0.0%');
});

test('the decomposition reads from the winner’s side, as the server’s summary line', () => {
  assert.equal(
    decompositionWords(review, names),
    'alice won. The dice gave alice 19.3 points more than bob (luck +25.6% against +6.3%); ' +
      'mistakes cost alice 16.3 points and bob 45.4 points.',
  );
  const est = { ...review, estimate: true, decomposition: { ...review.decomposition!, result: 0 } };
  assert.match(
    decompositionWords(est, names),
    /^bob won\. The dice gave bob ~19\.3 points less than alice .*\(estimate\)$/,
  );
});

test('each player’s accuracy, luck and chance lost; estimates marked with ~', () => {
  assert.deepEqual(playerLines(review, names), [
    'alice: accuracy 58.2 · luck +25.6% · chance lost 1.1% a decision (16.3 points in all)',
    'bob: accuracy – (no decisions with a choice) · luck +6.3% · chance lost 45.4%',
  ]);
  // The server's null for a player without a decision reads the same.
  const none = {
    ...review,
    players: review.players.map((p, i) => (i ? { ...p, accuracy: null } : p)),
  };
  assert.match(playerLines(none, names)[1], /^bob: accuracy – \(no decisions/);
  assert.match(reviewLine(none, names), /bob: accuracy –, luck/);
  assert.match(
    playerLines({ ...review, estimate: true }, names)[0],
    /accuracy ~58\.2 · luck ~\+25\.6%/,
  );
  const hinted = { ...review, players: review.players.map((p, i) => ({ ...p, hints: i + 1 })) };
  assert.match(
    playerLines(hinted, names)[0],
    /chance lost 1\.1% a decision \(16\.3 points in all\) · 1 hint used$/,
  );
  assert.match(playerLines(hinted, names)[1], /· 2 hints used$/);
});

test('the graph spans the box, light’s 100% at the top', () => {
  const pts = plotPoints(review.graph!, 100, 50, 0);
  assert.deepEqual(
    pts.map((p) => [p.x, p.y]),
    [
      [0, 25],
      [50, 0],
      [100, 50],
    ],
  );
});

test('key moves come in game order; a decision names both moves and chances', () => {
  assert.deepEqual(
    keyItems(review).map((k) => [k.kind, k.event]),
    [
      ['throw', 2],
      ['decision', 7],
    ],
  );
  assert.equal(
    decisionWords(finkel, names, move),
    'bob played b3 → a3 (48.3% to win, inaccuracy); best was home → b3 (50.3% to win)',
  );
});
