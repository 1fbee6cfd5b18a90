import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import { changeOff, cycleCell, placed, positionOf, setupOf } from '../src/logic/setup.ts';
import { rules } from './fixtures.ts';

const finkel = buildGeometry(rules('finkel'));

test('a position string read into a setup and written back (docs/notation.md example)', () => {
  const s = setupOf(finkel, 'D3/000005f/0000001');
  assert.ok(s);
  assert.equal(s.actor, 2);
  assert.deepEqual(s.cells.get('a2'), { seat: 1, count: 1 });
  assert.deepEqual(s.cells.get('d3'), { seat: 2, count: 1 });
  assert.equal(s.off[1], 1);
  // Written back with the actor to throw.
  assert.equal(positionOf(finkel, s), 'Dr/000005f/0000001');
  assert.equal(setupOf(finkel, 'nonsense'), null);
});

test('tapping a square cycles empty, light, dark, empty; private squares skip the other side', () => {
  let s = setupOf(finkel, 'Lr/0000000/0000000')!;
  s = cycleCell(finkel, s, 'c2');
  assert.deepEqual(s.cells.get('c2'), { seat: 1, count: 1 });
  s = cycleCell(finkel, s, 'c2');
  assert.deepEqual(s.cells.get('c2'), { seat: 2, count: 1 });
  s = cycleCell(finkel, s, 'c2');
  assert.equal(s.cells.get('c2'), undefined);
  // d1 is on light's path only: light, then empty.
  s = cycleCell(finkel, s, 'd1');
  assert.equal(s.cells.get('d1')?.seat, 1);
  s = cycleCell(finkel, s, 'd1');
  assert.equal(s.cells.get('d1'), undefined);
  s = cycleCell(finkel, s, 'd3');
  assert.equal(s.cells.get('d3')?.seat, 2, 'd3 is dark’s: dark at once');
  assert.equal(positionOf(finkel, { ...s, actor: 2 }), 'Dr/0000000/0000001');
});

test('no more pieces than a side has; borne-off counts within its pieces at home', () => {
  let s = setupOf(finkel, 'Lr/0000000/0000000')!;
  s = changeOff(finkel, s, 1, 6);
  assert.equal(s.off[1], 6);
  s = cycleCell(finkel, s, 'a2');
  assert.equal(placed(s, 1), 7);
  s = cycleCell(finkel, s, 'b2'); // light has none left: dark takes it
  assert.equal(s.cells.get('b2')?.seat, 2);
  s = changeOff(finkel, s, 1, 3);
  assert.equal(s.off[1], 6, 'none at home to bear off');
  s = changeOff(finkel, s, 1, -10);
  assert.equal(s.off[1], 0);
  assert.equal(positionOf(finkel, s), 'Lr/0000005/0000006');
});

test('Murray: a square the path passes twice takes its first index; boxed: home is "-"', () => {
  const murray = buildGeometry(rules('murray'));
  const s = cycleCell(murray, setupOf(murray, 'Lr/0000000/0000000')!, 'a2');
  assert.equal(positionOf(murray, s), 'Lr/0000005/0000000');
  const boxed = buildGeometry(rules('boxed'));
  const b = cycleCell(boxed, setupOf(boxed, 'Lr/-------/-------')!, 'c2');
  assert.match(positionOf(boxed, b), /^Lr\/------\w\/-------$/);
});
