// A board with each seat's chip and piles beside it, for a position that is shown rather than
// played at a table: the analysis board and the puzzles draw positions with it (the table page
// composes its own, with clocks and seat cards).

import type { SeatNo } from '../logic/types.ts';
import type { Geometry } from '../logic/geometry.ts';
import { BoardView, pieceElement } from './board.ts';
import { h } from './dom.ts';
import { t } from '../logic/i18n.ts';

export interface Board {
  view: BoardView;
  el: HTMLElement;
}

/** The board with each seat's piles beside it, for rule sets the server describes (presets). */
export function buildBoard(geo: Geometry): Board {
  const view = new BoardView(geo);
  const seat = (s: SeatNo) =>
    h(
      'div',
      { class: `seat-box s${s}` },
      h(
        'div',
        { class: 'chip' },
        pieceElement(s),
        h('span', { class: 'seat-name', text: t(s === 1 ? 'seat.light' : 'seat.dark') }),
      ),
      h('div', { class: 'piles' }, view.homePile(s), view.offPile(s)),
    );
  const el = h(
    'div',
    { class: 'play-area' },
    h('div', { class: 'board-wrap' }, view.el),
    h('aside', { class: 'panel' }, seat(1), seat(2)),
  );
  return { view, el };
}
