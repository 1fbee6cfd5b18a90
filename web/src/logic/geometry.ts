// Board geometry: where each square of a rule set's board is drawn and where each piece stands.
// Everything comes from GET /api/rules/<preset> (squares with file and rank, each side's path as
// cell names), so every preset's board — the standard 20 squares, Aseb's 12-file middle row,
// Murray's looping path — is drawn by the same code. Pure functions, no DOM: unit-tested.
//
// Orientation: rank 1 (seat 1, light, rose) is the top row and rank 3 (seat 2, dark, sky) the
// bottom one. Files are mirrored (file a on the right) so that each seat's home column sits on
// the right next to the panel holding the Home piles, as the platform's "How to play" describes:
// "seat 1's home (right) and exit (left)".

import type { RulesInfo, SeatNo, SeatPieces, Side, Square } from './types.ts';

export interface GridCell {
  /** Cell name such as "d1" (also for gaps, which have no square). */
  cell: string;
  col: number;
  row: number;
  square: Square | null;
  /** Staging rule sets: the seat whose start space S is drawn in this gap. */
  start: SeatNo | null;
}

export interface Geometry {
  preset: string;
  cols: number;
  rows: number;
  /** Path length N: indices 1..N are on the board, 0 is home (or S), N+1 is borne off. */
  n: number;
  pieces: number;
  /** Number of dice (tetrahedra) thrown. */
  dice: number;
  /** Squares moved for each raw throw k (marked tips up). */
  throws: number[];
  staging: boolean;
  stacking: boolean;
  grid: GridCell[];
  squares: Map<string, Square>;
  paths: Record<SeatNo, string[]>;
}

export const seatSide = (seat: SeatNo): Side => (seat === 1 ? 'light' : 'dark');
export const otherSeat = (seat: SeatNo): SeatNo => (seat === 1 ? 2 : 1);

/** "d1" → {file: 4, rank: 1}; files are letters a.., ranks digits 1..3. */
export function parseCell(name: string): { file: number; rank: number } {
  const m = /^([a-z])([0-9]+)$/.exec(name);
  if (!m) throw new Error(`bad cell name ${name}`);
  return { file: m[1].charCodeAt(0) - 96, rank: Number(m[2]) };
}

export function columnOf(file: number, files: number, mirror = true): number {
  return mirror ? files - file : file - 1;
}

/** The boxed game stages counters on a start space S; the API does not say so yet (see report). */
export function isStaging(rules: RulesInfo): boolean {
  if (rules.entry !== undefined) return rules.entry === 'staging';
  return rules.preset === 'boxed' || rules.scored;
}

export function buildGeometry(rules: RulesInfo, mirror = true): Geometry {
  const cols = rules.board.files;
  const rows = 3;
  const squares = new Map<string, Square>();
  for (const sq of rules.board.squares) squares.set(sq.cell, sq);
  const staging = isStaging(rules);
  const starts = new Map<string, SeatNo>();
  if (staging) {
    const l = rules.path_ends.light.start;
    const d = rules.path_ends.dark.start;
    if (l && !squares.has(l)) starts.set(l, 1);
    if (d && !squares.has(d)) starts.set(d, 2);
  }
  const grid: GridCell[] = [];
  for (let rank = 1; rank <= rows; rank++)
    for (let file = 1; file <= cols; file++) {
      const cell = String.fromCharCode(96 + file) + rank;
      grid.push({
        cell,
        col: columnOf(file, cols, mirror),
        row: rank - 1,
        square: squares.get(cell) ?? null,
        start: starts.get(cell) ?? null,
      });
    }
  grid.sort((a, b) => a.row - b.row || a.col - b.col);
  return {
    preset: rules.preset,
    cols,
    rows,
    n: rules.path_length,
    pieces: rules.pieces,
    dice: rules.dice.count,
    throws: rules.dice.throws.map((t) => t.move),
    staging,
    stacking: rules.stacking,
    grid,
    squares,
    paths: { 1: rules.paths.light, 2: rules.paths.dark },
  };
}

/**
 * Where a piece at path index `index` of `seat` is drawn, as a location key:
 * "home:S" (the Home pile: not entered; for staging rule sets the counters not yet staged),
 * "start:S" (staging: on S), a cell name for 1..N, "off:S" for borne off.
 */
export function locationOf(geo: Geometry, seat: SeatNo, index: number): string {
  if (index < 0) return `home:${seat}`;
  if (index === 0) return geo.staging ? `start:${seat}` : `home:${seat}`;
  if (index > geo.n) return `off:${seat}`;
  return geo.paths[seat][index - 1];
}

export interface Occupant {
  seat: SeatNo;
  /** Path index (the lowest one when a seat's path visits the cell twice). */
  index: number;
  count: number;
}

/** Location key → the pieces standing there, from a snapshot's `game.pieces`. */
export function placePieces(geo: Geometry, pieces: SeatPieces[]): Map<string, Occupant[]> {
  const out = new Map<string, Occupant[]>();
  const add = (key: string, occ: Occupant) => {
    const list = out.get(key) ?? [];
    const same = list.find((o) => o.seat === occ.seat);
    if (same) same.count += occ.count;
    else list.push(occ);
    out.set(key, list);
  };
  for (const p of pieces) {
    if (geo.staging && p.pool > 0)
      add(`home:${p.seat}`, { seat: p.seat, index: -1, count: p.pool });
    p.counts.forEach((count, index) => {
      if (count > 0) add(locationOf(geo, p.seat, index), { seat: p.seat, index, count });
    });
  }
  return out;
}

/** How many pieces a seat has in its Home pile and borne off. */
export function pileCounts(geo: Geometry, p: SeatPieces): { home: number; off: number } {
  const off = p.counts[geo.n + 1] ?? 0;
  const home = geo.staging ? p.pool : (p.counts[0] ?? 0);
  return { home, off };
}

/** The location keys a piece passes through moving from index `from` to `to` (both included). */
export function pathLocs(geo: Geometry, seat: SeatNo, from: number, to: number): string[] {
  const out: string[] = [];
  if (to > from && from >= 0) {
    for (let i = from; i <= to; i++) {
      const key = locationOf(geo, seat, i);
      if (out[out.length - 1] !== key) out.push(key);
    }
  } else {
    out.push(locationOf(geo, seat, from));
    const end = locationOf(geo, seat, to);
    if (end !== out[0]) out.push(end);
  }
  return out;
}

/** The path index of each cell of a seat's path, for the numbered "show path" overlay. */
export function pathNumbers(geo: Geometry, seat: SeatNo): Map<string, number[]> {
  const out = new Map<string, number[]>();
  geo.paths[seat].forEach((cell, i) => {
    const list = out.get(cell) ?? [];
    list.push(i + 1);
    out.set(cell, list);
  });
  return out;
}

/**
 * A position string (docs/notation.md: `<actor><state>/<light>/<dark>`, one base-36 path index
 * per piece, `-` for a staging counter not entered) turned into per-seat counts for drawing.
 * This only reads notation; it knows no rules.
 */
export function parsePosition(
  position: string,
  n: number,
): { actor: SeatNo; state: string; pieces: SeatPieces[] } {
  const parts = position.split('/');
  if (parts.length !== 3 || parts[0].length < 2) throw new Error(`bad position ${position}`);
  const actor: SeatNo = parts[0][0] === 'D' ? 2 : 1;
  const pieces: SeatPieces[] = [1, 2].map((seat) => {
    const counts = new Array<number>(n + 2).fill(0);
    let pool = 0;
    for (const ch of parts[seat]) {
      if (ch === '-') {
        pool++;
        continue;
      }
      const idx = parseInt(ch, 36);
      if (Number.isNaN(idx) || idx > n + 1) throw new Error(`bad piece '${ch}' in ${position}`);
      counts[idx]++;
    }
    return { seat: seat as SeatNo, pool, counts };
  });
  return { actor, state: parts[0].slice(1), pieces };
}

/** A short mark drawn on a square for its decoration (the rosette is drawn as ✸). */
export function markingGlyph(sq: Square): string {
  if (sq.rosette || sq.marking === 'rosette') return '✸';
  switch (sq.marking) {
    case 'eyes':
      return '◉';
    case 'five-circles':
      return '⁙';
    case 'quincunxes':
      return '⁘';
    case 'grid':
      return '▦';
    case 'zigzag':
      return '≋';
    default:
      return '';
  }
}

/** The boxed game's badge for a special square, or null. */
export function specialBadge(sq: Square): { text: string; title: string } | null {
  if (sq.special === 'forfeit')
    return { text: '⇄4', title: 'Forfeit square: the opponent moves a counter 4' };
  if (sq.special === 'double') return { text: '×2', title: 'Doubling square: the move is doubled' };
  if (sq.award) return { text: '+S', title: 'Award: landing here may enter a counter onto S' };
  return null;
}
