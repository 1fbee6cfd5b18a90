import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import { describeRecordEvent, replayFrames, startPieces } from '../src/logic/replay.ts';
import type { GameRecord } from '../src/logic/types.ts';
import { rules } from './fixtures.ts';

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
