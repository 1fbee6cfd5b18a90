// The board: three rows of squares drawn from the rule set's geometry, the pieces on them, each
// seat's Home pile and borne-off pile, the legal pieces glowing (with number keys), the path on
// request. After a throw every movable piece glows and every landing square is marked at once,
// because a touch screen has no hover: tapping a piece or its landing square moves it (where one
// piece has two moves, the first tap selects it and the landing square confirms). Seat 1 is rose
// with round pieces, seat 2 sky with diamond pieces, so the seats differ by shape as well as by
// colour. Each square's accessible name says its coordinate and what stands on it.

import {
  locationOf,
  markingGlyph,
  pathLocs,
  pathNumbers,
  pileCounts,
  placePieces,
  specialBadge,
  type Geometry,
} from '../logic/geometry.ts';
import type { LegalMove, SeatNo, SeatPieces } from '../logic/types.ts';
import { clear, h, onClick } from './dom.ts';
import { list, t } from '../logic/i18n.ts';

export interface RenderOptions {
  /** Moves the viewer may make now (empty when it is not the viewer's decision). */
  legal: LegalMove[];
  /** The seat whose pieces are legal (and whose other pieces are dimmed). */
  actingSeat: SeatNo | null;
  /** A location whose piece of `seat` is left out (it is flying in an animation). */
  hide?: { key: string; seat: SeatNo } | null;
}

export interface LegalTarget {
  key: string;
  move: LegalMove;
  number: number;
  /** Where the move lands, as a location key. */
  dest: string;
}

const seatWord = (seat: SeatNo) => t(seat === 1 ? 'seat.light' : 'seat.dark');

export function pieceElement(
  seat: SeatNo,
  count = 1,
  tag: 'button' | 'span' = 'span',
): HTMLElement {
  const el = h(tag, { class: `piece s${seat}` }, h('span', { class: 'shape' }));
  if (tag === 'button') (el as HTMLButtonElement).type = 'button';
  if (count > 1) el.append(h('span', { class: 'count', text: count }));
  return el;
}

export class BoardView {
  readonly el: HTMLElement;
  private readonly cells = new Map<string, HTMLElement>();
  private readonly piles = new Map<string, HTMLElement>();
  private targets: LegalTarget[] = [];
  /** Every legal move (a location may offer two); `targets` holds one per location. */
  private moves: LegalTarget[] = [];
  private selected: string | null = null;
  private pathSeat: SeatNo | null = null;
  onPick: (t: LegalTarget) => void = () => {};

  constructor(readonly geo: Geometry) {
    this.el = h('div', { class: 'board', role: 'group', 'aria-label': t('board.label') });
    this.el.style.setProperty('--cols', String(geo.cols));
    for (const g of geo.grid) {
      let cell: HTMLElement;
      if (g.square) {
        const sq = g.square;
        const glyph = markingGlyph(sq);
        const badge = specialBadge(sq);
        const classes = ['sq', sq.rosette ? 'rosette' : `mk-${sq.marking}`];
        if (sq.special) classes.push(`special-${sq.special}`);
        cell = h(
          'div',
          { class: classes.join(' '), 'data-cell': g.cell, title: this.squareTitle(g.cell) },
          glyph ? h('span', { class: 'glyph', 'aria-hidden': 'true', text: glyph }) : null,
          badge ? h('span', { class: 'badge', title: badge.title, text: badge.text }) : null,
          h('span', { class: 'pathnum', 'aria-hidden': 'true' }),
          h('span', { class: 'slot' }),
        );
        cell.setAttribute('role', 'group');
      } else if (g.start) {
        cell = h(
          'div',
          {
            class: `start s${g.start}`,
            'data-cell': g.cell,
            title: t('board.startSpace', { side: seatWord(g.start) }),
          },
          h('span', { class: 'glyph', text: 'S' }),
          h('span', { class: 'slot' }),
        );
        this.piles.set(`start:${g.start}`, cell);
      } else {
        cell = h('div', { class: 'gap', 'aria-hidden': 'true' });
      }
      // Landscape draws files across, portrait (CSS) swaps the two: the board stands upright.
      cell.style.setProperty('--c', String(g.col + 1));
      cell.style.setProperty('--r', String(g.row + 1));
      this.el.append(cell);
      if (g.square) this.cells.set(g.cell, cell);
      const key = g.cell;
      if (g.square) onClick(cell, () => this.tapLocation(key));
    }
    this.drawEdge(geo);
    for (const [key, el] of this.piles) onClick(el, () => this.tapLocation(key));
    for (const seat of [1, 2] as SeatNo[]) {
      this.piles.set(
        `home:${seat}`,
        h(
          'div',
          { class: `pile home s${seat}`, 'data-pile': `home:${seat}` },
          h('span', { class: 'pile-label', text: t('place.home') }),
          h('span', { class: 'slot' }),
          h('span', { class: 'pile-count' }),
        ),
      );
      this.piles.set(
        `off:${seat}`,
        h(
          'div',
          { class: `pile off s${seat}`, 'data-pile': `off:${seat}` },
          h('span', { class: 'pile-label', text: t('board.borneOff') }),
          h('span', { class: 'slot' }),
          h('span', { class: 'pile-count' }),
        ),
      );
      const off = this.piles.get(`off:${seat}`)!;
      onClick(off, () => this.tapLocation(`off:${seat}`));
    }
  }

  /**
   * Square names on the edge (a setting, body.coords): each file's letter beyond the last rank,
   * each rank's number beyond the last file, in an extra track (portrait swaps them with the
   * squares, so the letters run down the side and the numbers along the foot).
   */
  private drawEdge(geo: Geometry): void {
    const edge = (text: string, c: number, r: number) => {
      const el = h('span', { class: 'coord', 'aria-hidden': 'true', text });
      el.style.setProperty('--c', String(c));
      el.style.setProperty('--r', String(r));
      this.el.append(el);
    };
    for (const g of geo.grid)
      if (g.row === 0) edge(g.cell.replace(/[0-9]+$/, ''), g.col + 1, geo.rows + 1);
    for (let r = 1; r <= geo.rows; r++) edge(String(r), geo.cols + 1, r);
  }

  /**
   * A tap on a square or pile: a piece standing there that may move is handled by its own button;
   * a marked landing square moves the one piece that lands there (the selected one first).
   */
  private tapLocation(key: string): void {
    const lands = this.moves.filter(
      (t) => t.dest === key && (this.selected === null || t.key === this.selected),
    );
    if (lands.length === 1) this.onPick(lands[0]);
  }

  /** A tap on a movable piece: it moves, unless it has two moves (then it is selected first). */
  private tapPiece(target: LegalTarget): void {
    const mine = this.moves.filter((t) => t.key === target.key);
    if (mine.length === 1) return this.onPick(mine[0]);
    this.selected = target.key;
    this.markLandings();
  }

  private markLandings(): void {
    for (const el of this.el.querySelectorAll('.land')) el.classList.remove('land');
    for (const el of this.piles.values()) el.classList.remove('land');
    for (const t of this.moves)
      if (this.selected === null || t.key === this.selected)
        this.locElement(t.dest)?.classList.add('land');
  }

  private squareTitle(cell: string): string {
    const sq = this.geo.squares.get(cell)!;
    const parts = [cell];
    if (sq.rosette) parts.push(sq.safe ? 'rosette ✸ (safe, extra throw)' : 'rosette ✸');
    const badge = specialBadge(sq);
    if (badge) parts.push(badge.title);
    return parts.join(' — ');
  }

  homePile(seat: SeatNo): HTMLElement {
    return this.piles.get(`home:${seat}`)!;
  }

  offPile(seat: SeatNo): HTMLElement {
    return this.piles.get(`off:${seat}`)!;
  }

  /** The element standing for a location key (a square, S, or a pile). */
  locElement(key: string): HTMLElement | null {
    return this.cells.get(key) ?? this.piles.get(key) ?? null;
  }

  legalTargets(): LegalTarget[] {
    return this.targets;
  }

  render(pieces: SeatPieces[], opts: RenderOptions): void {
    for (const slot of this.el.querySelectorAll('.slot')) clear(slot);
    for (const pile of this.piles.values()) pile.querySelector('.slot')?.replaceChildren();
    this.clearTrail();
    const placed = placePieces(this.geo, pieces);
    if (opts.hide) {
      const list = placed.get(opts.hide.key);
      const occ = list?.find((o) => o.seat === opts.hide!.seat);
      if (occ) occ.count -= 1;
    }
    // The legal moves, one per location (a stack moves its top counter), numbered for the keys.
    this.targets = [];
    this.moves = [];
    this.selected = null;
    if (opts.actingSeat)
      for (const move of opts.legal) {
        if (move.kind !== 'move') continue;
        const key = locationOf(this.geo, opts.actingSeat, move.from);
        const dest = locationOf(this.geo, opts.actingSeat, move.to);
        const known = this.targets.find((t) => t.key === key);
        const t = { key, move, dest, number: known?.number ?? this.targets.length + 1 };
        this.moves.push(t);
        if (!known) this.targets.push(t);
      }
    const picking = opts.actingSeat !== null && this.targets.length > 0;
    this.markLandings();

    for (const [key, occupants] of placed) {
      const where = this.locElement(key);
      const slot = where?.querySelector('.slot');
      if (!where || !slot) continue;
      const isPile = key.startsWith('home:') || key.startsWith('off:');
      for (const occ of occupants) {
        if (occ.count <= 0) continue;
        const target =
          occ.seat === opts.actingSeat ? this.targets.find((t) => t.key === key) : undefined;
        const dim = picking && occ.seat === opts.actingSeat && !target && key.startsWith('home:');
        if (isPile) this.fillPile(slot, occ.seat, occ.count, target, dim);
        else
          slot.append(
            this.makePiece(occ.seat, occ.count, target, picking && occ.seat === opts.actingSeat),
          );
      }
    }
    for (const p of pieces) {
      const { home, off } = pileCounts(this.geo, p);
      const hidden = opts.hide && opts.hide.seat === p.seat ? opts.hide.key : null;
      const waiting = t('board.waiting');
      this.setPileCount(`home:${p.seat}`, home - (hidden === `home:${p.seat}` ? 1 : 0), waiting);
      this.setPileCount(
        `off:${p.seat}`,
        off - (hidden === `off:${p.seat}` ? 1 : 0),
        t('place.off'),
      );
    }
    this.el.classList.toggle('picking', picking);
    this.renderPathNumbers();
    this.nameSquares(placed);
  }

  /** Each square's accessible name: its coordinate, its kind and what stands on it. */
  private nameSquares(placed: Map<string, { seat: SeatNo; count: number }[]>): void {
    for (const [cell, el] of this.cells) {
      const sq = this.geo.squares.get(cell)!;
      const on = (placed.get(cell) ?? [])
        .filter((o) => o.count > 0)
        .map((o) =>
          o.count > 1
            ? t('board.pieces', { side: seatWord(o.seat), n: o.count })
            : t('board.piece', { side: seatWord(o.seat) }),
        );
      const square = sq.rosette ? t('board.rosetteSquare', { cell }) : cell;
      const words = { square, on: on.length ? list(on) : t('board.empty') };
      const key = el.classList.contains('land') ? 'board.squareLand' : 'board.squareName';
      el.setAttribute('aria-label', t(key, words));
    }
  }

  private setPileCount(key: string, n: number, word: string): void {
    const el = this.piles.get(key)?.querySelector('.pile-count');
    if (el)
      el.replaceChildren(
        h('b', { text: Math.max(0, n) }),
        h('span', { class: 'word', text: ` ${word}` }),
      );
  }

  private fillPile(
    slot: Element,
    seat: SeatNo,
    count: number,
    target: LegalTarget | undefined,
    dim: boolean,
  ): void {
    // The pile shows every waiting piece, overlapping; the top one is the button when it may enter.
    for (let i = 0; i < count; i++) {
      const top = i === count - 1;
      const el = top && target ? this.makePiece(seat, 1, target, true) : pieceElement(seat);
      el.classList.add('in-pile');
      if (dim) el.classList.add('dim');
      slot.append(el);
    }
  }

  private makePiece(
    seat: SeatNo,
    count: number,
    target: LegalTarget | undefined,
    picking: boolean,
  ): HTMLElement {
    if (!target) {
      // The square's own name says what stands on it; the piece itself is decoration.
      const el = pieceElement(seat, count);
      el.setAttribute('aria-hidden', 'true');
      if (picking) el.classList.add('dim');
      return el;
    }
    const el = pieceElement(seat, count, 'button') as HTMLButtonElement;
    el.classList.add('legal');
    el.dataset.from = String(target.move.from);
    el.dataset.to = String(target.move.to);
    el.dataset.key = String(target.number);
    const dest = locationOf(this.geo, seat, target.move.to);
    const to = dest.startsWith('off:')
      ? t('board.bearOff')
      : dest.startsWith('start:')
        ? t('square.start')
        : dest;
    const from = target.key.startsWith('home:')
      ? t('place.home')
      : target.key.startsWith('start:')
        ? t('square.start')
        : target.key;
    const n = target.number;
    let move = t('move.words', { from, to });
    el.setAttribute('aria-label', t('board.moveAria', { move, n }));
    if (target.move.capture) move = t('board.capture', { move });
    if (target.move.rosette) move = t('board.rosette', { move });
    el.title = t('board.moveTitle', { move, n });
    if (target.number <= 9)
      el.append(h('span', { class: 'keynum', 'aria-hidden': 'true', text: target.number }));
    onClick(el, (e) => {
      e.stopPropagation(); // not also a tap on the square beneath
      this.tapPiece(target);
    });
    const show = () => this.showTrail(seat, target.move);
    el.addEventListener('pointerenter', show);
    el.addEventListener('focus', show);
    el.addEventListener('pointerleave', () => this.clearTrail());
    el.addEventListener('blur', () => this.clearTrail());
    return el;
  }

  /** Lights the squares a legal move passes through and where it lands. */
  showTrail(seat: SeatNo, move: LegalMove): void {
    this.clearTrail();
    const keys = pathLocs(this.geo, seat, move.from, move.to);
    keys.forEach((k, i) => {
      const el = this.locElement(k);
      if (!el || i === 0) return;
      el.classList.add(i === keys.length - 1 ? 'dest' : 'trail');
    });
  }

  clearTrail(): void {
    for (const el of this.el.querySelectorAll('.trail, .dest'))
      el.classList.remove('trail', 'dest');
    // The piles live outside the board element (beside it, in the panel).
    for (const el of this.piles.values()) el.classList.remove('trail', 'dest');
  }

  /** Numbers each square of a seat's path 1..N (null hides them). */
  showPath(seat: SeatNo | null): void {
    this.pathSeat = seat;
    this.renderPathNumbers();
  }

  private renderPathNumbers(): void {
    const nums = this.pathSeat ? pathNumbers(this.geo, this.pathSeat) : new Map<string, number[]>();
    for (const [cell, el] of this.cells) {
      const n = nums.get(cell);
      const span = el.querySelector('.pathnum');
      if (span) span.textContent = n ? n.join('·') : '';
      el.classList.toggle('on-path', !!n);
    }
    this.el.dataset.path = this.pathSeat ? String(this.pathSeat) : '';
  }
}
