// Setting up a position on the analysis board: pieces placed square by square, the borne-off
// counts and the side to throw, turned into a position string (docs/notation.md) that the server
// then judges (GET /api/explore refuses an impossible one in words). Pure: unit-tested. It knows
// the notation and the paths, not the rules.

import { parsePosition, type Geometry } from './geometry.ts';
import type { SeatNo } from './types.ts';

export interface Setup {
  /** Who throws next. */
  actor: SeatNo;
  /** The pieces on the board, by cell: whose, and how many (more than one where pieces stack). */
  cells: Map<string, { seat: SeatNo; count: number }>;
  /** Pieces borne off, per seat. */
  off: Record<SeatNo, number>;
}

/** Pieces of `seat` placed on the board or borne off. */
export function placed(s: Setup, seat: SeatNo): number {
  let n = s.off[seat];
  for (const c of s.cells.values()) if (c.seat === seat) n += c.count;
  return n;
}

/** The setup of a position string (its actor throws next); null if it cannot be read. */
export function setupOf(geo: Geometry, position: string): Setup | null {
  let parsed;
  try {
    parsed = parsePosition(position, geo.n);
  } catch {
    return null;
  }
  const s: Setup = { actor: parsed.actor, cells: new Map(), off: { 1: 0, 2: 0 } };
  for (const p of parsed.pieces) {
    s.off[p.seat] = p.counts[geo.n + 1];
    for (let i = 1; i <= geo.n; i++) {
      if (!p.counts[i]) continue;
      const cell = geo.paths[p.seat][i - 1];
      const had = s.cells.get(cell);
      s.cells.set(cell, { seat: p.seat, count: (had?.count ?? 0) + p.counts[i] });
    }
  }
  return s;
}

/**
 * A tap on `cell`: empty → a light piece → a dark piece → empty, skipping a side whose path does
 * not pass the cell or who has no piece left at home.
 */
export function cycleCell(geo: Geometry, s: Setup, cell: string): Setup {
  const cells = new Map(s.cells);
  const now = cells.get(cell);
  cells.delete(cell);
  const next: Setup = { ...s, cells };
  const order: SeatNo[] = now === undefined ? [1, 2] : now.seat === 1 ? [2] : [];
  for (const seat of order)
    if (geo.paths[seat].includes(cell) && placed(next, seat) < geo.pieces) {
      cells.set(cell, { seat, count: 1 });
      break;
    }
  return next;
}

/** Changes a seat's borne-off count by `delta`, within the pieces it has at home. */
export function changeOff(geo: Geometry, s: Setup, seat: SeatNo, delta: number): Setup {
  const room = geo.pieces - placed(s, seat);
  const off = Math.max(0, s.off[seat] + Math.min(delta, room));
  return { ...s, off: { ...s.off, [seat]: off } };
}

/**
 * The position string: the actor to throw, each piece as its path index in base 36 (a square a
 * path passes twice, as Murray's does, takes its first index), the pieces not placed at home
 * (`-`, not entered, in staging rule sets).
 */
export function positionOf(geo: Geometry, s: Setup): string {
  const side = (seat: SeatNo) => {
    const idx: number[] = [];
    for (const [cell, c] of s.cells)
      if (c.seat === seat)
        for (let k = 0; k < c.count; k++) idx.push(geo.paths[seat].indexOf(cell) + 1);
    for (let k = 0; k < s.off[seat]; k++) idx.push(geo.n + 1);
    idx.sort((a, b) => a - b);
    const home = (geo.staging ? '-' : '0').repeat(Math.max(0, geo.pieces - idx.length));
    return home + idx.map((i) => i.toString(36)).join('');
  };
  return `${s.actor === 1 ? 'L' : 'D'}r/${side(1)}/${side(2)}`;
}
