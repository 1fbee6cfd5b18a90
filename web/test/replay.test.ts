import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import { logLine } from '../src/logic/plan.ts';
import {
  describeRecordEvent,
  gradeFrames as grade,
  recordTableEvents,
  replayFrames,
  startPieces,
} from '../src/logic/replay.ts';
import type { GameRecord } from '../src/logic/types.ts';
import { rules } from './fixtures.ts';
import { englishWords } from '../src/logic/i18n.ts';

// These screens' words come with their script (wordsReady), after the first screen's.
await englishWords();

const finkel = buildGeometry(rules('finkel'));
const boxed = buildGeometry(rules('boxed'));
const names = { 1: 'alice', 2: 'bob' } as const;

test('the start has every piece at home (or, staging, not yet staged)', () => {
  assert.equal(startPieces(finkel)[0].counts[0], 7);
  assert.equal(startPieces(boxed)[1].pool, 7);
  assert.equal(startPieces(boxed)[1].counts[0], 0);
});

test('record events read as words', () => {
  assert.equal(describeRecordEvent({ player: 'light', throw: 3 }, finkel, names), 'alice threw 3');
  assert.equal(
    describeRecordEvent({ player: 'dark', move: { from: 0, to: 2 } }, finkel, names),
    'bob moved home → c3',
  );
  assert.equal(
    describeRecordEvent({ player: 'light', move: { from: 13, to: 15 } }, finkel, names),
    'alice moved h1 → borne off',
  );
  // The end by a player, in words, not the record's key.
  assert.equal(
    describeRecordEvent({ player: 'light', resign: 'resign' }, finkel, names),
    'alice resigned',
  );
  assert.equal(
    describeRecordEvent({ player: 'dark', resign: 'left' }, finkel, names),
    'bob left the table',
  );
  assert.equal(
    describeRecordEvent({ player: 'dark', resign: 'timeout' }, finkel, names),
    'bob ran out of time',
  );
});

test('frames follow the positions the server sends, one per event', () => {
  const record: GameRecord = {
    format: 'ur-game',
    rules: 'finkel',
    events: [
      { player: 'light', throw: 3 },
      { player: 'light', move: { from: 0, to: 3 } },
      { player: 'dark', throw: 0 },
    ],
  };
  const frames = replayFrames(
    finkel,
    record,
    {
      positions: [
        { event: 1, position: 'Dr/0000003/0000000' },
        { event: 0, position: 'L3/0000000/0000000' },
        { event: 2, position: 'Lr/0000003/0000000' },
      ],
    },
    names,
  );
  assert.equal(frames.length, 4);
  assert.equal(frames[0].label, 'Start');
  assert.equal(frames[0].pieces[0].counts[0], 7);
  assert.equal(frames[1].label, 'alice threw 3');
  assert.deepEqual(frames[1].throw, { value: 3, move: 3, seat: 1 });
  assert.equal(frames[2].pieces[0].counts[3], 1);
  assert.equal(frames[3].label, 'bob threw 0');
  assert.deepEqual(frames[3].throw, { value: 0, move: 0, seat: 2 });
});

test('a start position sent by the server (event -1) is used as the first frame', () => {
  const record: GameRecord = {
    format: 'ur-game',
    rules: 'finkel',
    events: [{ player: 'light', throw: 1 }],
  };
  const frames = replayFrames(
    finkel,
    record,
    {
      positions: [
        { event: -1, position: 'Lr/0000000/0000000' },
        { event: 0, position: 'L1/0000000/0000000' },
      ],
    },
    names,
  );
  assert.equal(frames.length, 2);
  assert.equal(frames[0].position, 'Lr/0000000/0000000');
});

test('graded moves carry their verdict; forced moves and throws say nothing', () => {
  const frame = (label: string) => ({ label, pieces: [], throw: null, position: null });
  const frames = [
    frame('Start'),
    frame('alice threw 2'),
    frame('alice moves'),
    frame('bob threw 1'),
    frame('bob moves'),
  ];
  const out = grade(frames, {
    moves: [
      { event: 1, seat: 1, legal: 3, value: 0.582, best_value: 0.582, cost: 0, grade: 'best' },
      {
        event: 3,
        seat: 2,
        legal: 2,
        value: 0.41,
        best_value: 0.483,
        cost: 0.073,
        grade: 'mistake',
      },
    ],
    players: [],
  });
  assert.equal(out[0].label, 'Start');
  assert.equal(out[1].label, 'alice threw 2');
  assert.equal(out[2].label, 'alice moves — best, 58.2% to win');
  assert.equal(out[4].label, 'bob moves — mistake: 41.0% to win (best 48.3%)');
  const forced = grade(frames, {
    moves: [{ event: 1, seat: 1, legal: 1, value: 0.5, best_value: 0.5, cost: 0, grade: 'best' }],
    players: [],
  });
  assert.equal(forced[2].label, 'alice moves');
});

test('a record read back as the live log: throws, passes, moves, a resignation after a throw', () => {
  const record: GameRecord = {
    format: 'ur-game',
    rules: 'finkel',
    events: [
      { player: 'light', throw: 2 },
      { player: 'light', move: { from: 0, to: 2 } },
      { player: 'dark', throw: 0 },
      { player: 'light', throw: 0 },
      { player: 'dark', throw: 4 },
      { player: 'dark', resign: 'resign' },
    ],
  };
  const side = (s: string) => (s === 'dark' ? 2 : 1) as 1 | 2;
  const events = recordTableEvents(record, side, finkel, false);
  const name = (s: 1 | 2) => names[s];
  const lines = events.map((e) => logLine(finkel, e, name));
  assert.deepEqual(lines, [
    'alice threw 2',
    'alice: Home → c1',
    'bob threw 0: no legal move — turn passes',
    'alice threw 0: no legal move — turn passes',
    'bob threw 4',
    'bob resigned',
  ]);
  // The last throw waits for its move when someone must decide now.
  const open = recordTableEvents(
    { ...record, events: record.events.slice(0, 4) },
    side,
    finkel,
    true,
  );
  assert.equal(open.at(-1)?.passed, false);
  assert.equal(
    logLine(finkel, { kind: 'game_over', winner: 2, reason: 'resign' }, name),
    'bob wins — by resignation',
  );
});
