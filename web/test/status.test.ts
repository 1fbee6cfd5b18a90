import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countdownSeconds,
  ratingLine,
  reasonText,
  signed,
  statusText,
} from '../src/logic/status.ts';
import type { Snapshot } from '../src/logic/types.ts';

function snap(over: Partial<Snapshot['game']>, status: Snapshot['status'] = 'playing'): Snapshot {
  return {
    id: '0123456789abcdef',
    rules: 'finkel',
    rules_name: 'Finkel',
    public: false,
    rated: true,
    status,
    version: 3,
    seats: [
      { seat: 1, side: 'light', kind: 'user', name: 'alice', rating: 1200 },
      { seat: 2, side: 'dark', kind: 'user', name: 'bob', rating: 1200 },
    ],
    game: {
      position: 'Lr/0000000/0000000',
      phase: 'awaiting_roll',
      to_act: 1,
      roll: null,
      legal_moves: [],
      pieces: [],
      turn: 1,
      events: 0,
      ...over,
    },
    summary: null,
  };
}

test('the status line says whose turn and which phase', () => {
  assert.equal(statusText(snap({}), 1).main, 'Your turn — Awaiting roll');
  assert.equal(statusText(snap({}), 1).yourMove, true);
  assert.equal(statusText(snap({}), 2).main, "alice's turn — Awaiting roll");
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', roll: 2 }), 1).main,
    'Your turn — Pick a piece',
  );
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', to_act: 2 }), null).main,
    "bob's turn — Pick a piece",
  );
  assert.equal(statusText(snap({}, 'waiting'), 1).main, 'Waiting for an opponent to sit down');
});

test('a finished game names the winner', () => {
  const s = snap({ phase: 'game_over', to_act: null }, 'finished');
  s.summary = { winner: 2, reason: 'bore-off', turns: 80, seats: [] };
  assert.equal(statusText(s, 2).main, 'Game over — you win!');
  assert.equal(statusText(s, 1).main, 'Game over — bob wins');
});

test('rating lines and reasons', () => {
  const summary = {
    winner: 1 as const,
    reason: 'timeout',
    turns: 3,
    seats: [
      {
        seat: 1 as const,
        name: 'alice',
        rating_before: 1200,
        rating_after: 1216,
        rating_change: 16,
        throws: 0,
        moves: 0,
        passes: 0,
        captures: 0,
        rosettes: 0,
        borne_off: 0,
        bounces: 0,
        forfeits: 0,
      },
      {
        seat: 2 as const,
        name: 'bob',
        throws: 0,
        moves: 0,
        passes: 0,
        captures: 0,
        rosettes: 0,
        borne_off: 0,
        bounces: 0,
        forfeits: 0,
      },
    ],
  };
  assert.equal(ratingLine(summary, 1), '1200 → 1216 (+16)');
  assert.equal(ratingLine(summary, 2), null);
  assert.equal(signed(-8), '−8');
  assert.equal(signed(0), '±0');
  assert.match(reasonText('timeout'), /idle/);
  assert.equal(reasonText('bore-off'), 'all pieces borne off');
});

test('the idle countdown shows only in the last 10 seconds', () => {
  assert.equal(countdownSeconds(null, 0), null);
  assert.equal(countdownSeconds(30_000, 0), null);
  assert.equal(countdownSeconds(10_000, 0), 10);
  assert.equal(countdownSeconds(9_001, 0), 10);
  assert.equal(countdownSeconds(2_000, 0), 2);
  assert.equal(countdownSeconds(1_000, 5_000), 0);
});
