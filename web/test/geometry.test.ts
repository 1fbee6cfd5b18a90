import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildGeometry,
  columnOf,
  locationOf,
  parseCell,
  parsePosition,
  pathLocs,
  pathNumbers,
  pileCounts,
  placePieces,
  specialBadge,
} from '../src/logic/geometry.ts';
import type { SeatPieces } from '../src/logic/types.ts';
import { rules } from './fixtures.ts';

const finkel = buildGeometry(rules('finkel'));
const aseb = buildGeometry(rules('aseb'));
const boxed = buildGeometry(rules('boxed'));
const murray = buildGeometry(rules('murray'));

function seatPieces(seat: 1 | 2, n: number, at: Record<number, number>, pool = 0): SeatPieces {
  const counts = new Array<number>(n + 2).fill(0);
  for (const [i, c] of Object.entries(at)) counts[Number(i)] = c;
  return { seat, pool, counts };
}

test('cells parse into file and rank', () => {
  assert.deepEqual(parseCell('d1'), { file: 4, rank: 1 });
  assert.deepEqual(parseCell('l2'), { file: 12, rank: 2 });
  assert.throws(() => parseCell('D1'));
});

test('files are mirrored so that file a is on the right', () => {
  assert.equal(columnOf(1, 8), 7);
  assert.equal(columnOf(8, 8), 0);
  assert.equal(columnOf(1, 8, false), 0);
});

test('the standard board has 20 squares in three rows, rank 1 (seat 1) on top', () => {
  assert.equal(finkel.cols, 8);
  assert.equal(finkel.grid.length, 24);
  assert.equal(finkel.grid.filter((g) => g.square).length, 20);
  const d1 = finkel.grid.find((g) => g.cell === 'd1')!;
  assert.equal(d1.row, 0);
  assert.equal(d1.col, 4);
  const e1 = finkel.grid.find((g) => g.cell === 'e1')!;
  assert.equal(e1.square, null, 'e1 is the gap of the top row');
  assert.equal(finkel.grid.find((g) => g.cell === 'a3')!.row, 2);
  const rosettes = [...finkel.squares.values()]
    .filter((s) => s.rosette)
    .map((s) => s.cell)
    .sort();
  assert.deepEqual(rosettes, ['a1', 'a3', 'd2', 'g1', 'g3']);
  // The grid is in reading order (row, then column), the order the DOM draws it.
  for (let i = 1; i < finkel.grid.length; i++) {
    const a = finkel.grid[i - 1],
      b = finkel.grid[i];
    assert.ok(a.row < b.row || (a.row === b.row && a.col < b.col));
  }
});

test("Aseb's board has 12 files and a long middle row", () => {
  assert.equal(aseb.cols, 12);
  assert.equal(aseb.n, 16);
  assert.equal(aseb.grid.length, 36);
  assert.equal(aseb.grid.filter((g) => g.square).length, 20);
  const middle = aseb.grid.filter((g) => g.row === 1 && g.square);
  assert.equal(middle.length, 12);
  assert.equal(locationOf(aseb, 1, 16), 'l2');
  assert.equal(locationOf(aseb, 2, 16), 'l2');
  assert.equal(locationOf(aseb, 1, 17), 'off:1');
});

test('path indices map to home, squares and borne off', () => {
  assert.equal(locationOf(finkel, 1, 0), 'home:1');
  assert.equal(locationOf(finkel, 1, 1), 'd1');
  assert.equal(locationOf(finkel, 2, 1), 'd3');
  assert.equal(locationOf(finkel, 1, 5), 'a2');
  assert.equal(locationOf(finkel, 2, 5), 'a2');
  assert.equal(locationOf(finkel, 1, 14), 'g1');
  assert.equal(locationOf(finkel, 1, 15), 'off:1');
});

test('the boxed game stages counters on S, drawn in the gap where the path starts', () => {
  assert.equal(boxed.staging, true);
  assert.equal(finkel.staging, false);
  assert.equal(locationOf(boxed, 1, -1), 'home:1');
  assert.equal(locationOf(boxed, 1, 0), 'start:1');
  const s1 = boxed.grid.find((g) => g.cell === 'e1')!;
  assert.equal(s1.start, 1);
  assert.equal(boxed.grid.find((g) => g.cell === 'e3')!.start, 2);
  const forfeit = specialBadge(boxed.squares.get('b1')!);
  assert.equal(forfeit?.text, '⇄4');
  assert.equal(specialBadge(boxed.squares.get('c2')!)?.text, '×2');
  assert.equal(specialBadge(boxed.squares.get('a1')!)?.text, '+S');
  assert.equal(specialBadge(finkel.squares.get('b1')!), null);
});

test('pieces are placed from counts, stacks keep their count', () => {
  const placed = placePieces(finkel, [
    seatPieces(1, 14, { 0: 5, 3: 1, 15: 1 }),
    seatPieces(2, 14, { 0: 6, 5: 1 }),
  ]);
  assert.deepEqual(placed.get('home:1'), [{ seat: 1, index: 0, count: 5 }]);
  assert.deepEqual(placed.get('b1'), [{ seat: 1, index: 3, count: 1 }]);
  assert.deepEqual(placed.get('off:1'), [{ seat: 1, index: 15, count: 1 }]);
  assert.deepEqual(placed.get('a2'), [{ seat: 2, index: 5, count: 1 }]);
  const stacked = placePieces(boxed, [
    seatPieces(1, 14, { 0: 2, 4: 3 }, 2),
    seatPieces(2, 14, {}, 7),
  ]);
  assert.deepEqual(stacked.get('home:1'), [{ seat: 1, index: -1, count: 2 }]);
  assert.deepEqual(stacked.get('start:1'), [{ seat: 1, index: 0, count: 2 }]);
  assert.deepEqual(stacked.get('a1'), [{ seat: 1, index: 4, count: 3 }]);
  assert.deepEqual(pileCounts(boxed, seatPieces(1, 14, { 0: 2, 15: 1 }, 4)), { home: 4, off: 1 });
  assert.deepEqual(pileCounts(finkel, seatPieces(1, 14, { 0: 4, 15: 3 })), { home: 4, off: 3 });
});

test("Murray's path visits squares twice; a piece there counts once", () => {
  const nums = pathNumbers(murray, 1);
  assert.deepEqual(nums.get('a2'), [5, 23]);
  assert.deepEqual(nums.get('h1'), [15]);
  const placed = placePieces(murray, [
    seatPieces(1, 27, { 0: 6, 23: 1 }),
    seatPieces(2, 27, { 0: 7 }),
  ]);
  assert.deepEqual(placed.get('a2'), [{ seat: 1, index: 23, count: 1 }]);
});

test('a move passes through each square of its path', () => {
  assert.deepEqual(pathLocs(finkel, 1, 0, 3), ['home:1', 'd1', 'c1', 'b1']);
  assert.deepEqual(pathLocs(finkel, 2, 3, 6), ['b3', 'a3', 'a2', 'b2']);
  assert.deepEqual(pathLocs(finkel, 1, 13, 15), ['h1', 'g1', 'off:1']);
  assert.deepEqual(pathLocs(boxed, 1, -1, 0), ['home:1', 'start:1']);
  assert.deepEqual(pathLocs(boxed, 1, 9, 5), ['e2', 'a2'], 'a backward move goes straight');
});

test('position strings are read into counts', () => {
  const p = parsePosition('D3/000005f/0000001', 14);
  assert.equal(p.actor, 2);
  assert.equal(p.state, '3');
  assert.equal(p.pieces[0].counts[0], 5);
  assert.equal(p.pieces[0].counts[5], 1);
  assert.equal(p.pieces[0].counts[15], 1);
  assert.equal(p.pieces[1].counts[1], 1);
  const b = parsePosition('LaD/------e/---0558', 14);
  assert.equal(b.pieces[0].pool, 6);
  assert.equal(b.pieces[0].counts[14], 1);
  assert.equal(b.pieces[1].pool, 3);
  assert.equal(b.pieces[1].counts[5], 2);
  assert.throws(() => parsePosition('Lr/0000000', 14));
  assert.throws(() => parsePosition('Lr/000000z/0000000', 14));
});
