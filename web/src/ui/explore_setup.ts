// The analysis board's "Set up a position": tap a square to place a light piece, a dark one or
// none; − and + beside each side's borne-off count; the side to throw; then "Analyse" asks the
// server (which judges the position and says in words what is wrong with an impossible one).

import type { Geometry } from '../logic/geometry.ts';
import { parsePosition } from '../logic/geometry.ts';
import { changeOff, cycleCell, placed, positionOf, setupOf, type Setup } from '../logic/setup.ts';
import { t } from '../logic/i18n.ts';
import type { SeatNo } from '../logic/types.ts';
import type { BoardView } from './board.ts';
import { h, onClick, setText } from './dom.ts';

const side = (seat: SeatNo) => t(seat === 1 ? 'seat.light' : 'seat.dark');

export interface SetupPanel {
  el: HTMLElement;
  /** Starts setting up from the position on show. */
  open(position: string): void;
  close(): void;
  readonly editing: boolean;
}

/** Who throws next in the set-up position. */
function actorSelect(): HTMLSelectElement {
  return h(
    'select',
    { name: 'setup-actor', 'aria-label': t('setup.sideToThrow') },
    h('option', { value: '1', text: t('setup.lightNext') }),
    h('option', { value: '2', text: t('setup.darkNext') }),
  );
}

/** A side's borne-off count: − and +. */
function offButtons(seat: SeatNo, change: (delta: number) => void): HTMLElement {
  const less = h('button', { type: 'button', text: '−', 'data-action': `off-less-${seat}` });
  const more = h('button', { type: 'button', text: '+', 'data-action': `off-more-${seat}` });
  less.setAttribute('aria-label', t('setup.fewer', { side: side(seat) }));
  more.setAttribute('aria-label', t('setup.more', { side: side(seat) }));
  onClick(less, () => change(-1));
  onClick(more, () => change(1));
  return h(
    'span',
    { class: 'row setup-off' },
    t('setup.borneOff', { side: side(seat) }),
    less,
    more,
  );
}

/** While `active()`, a tap on a square goes to `tap` (before the board's own handlers). */
function onSquareTap(board: BoardView, active: () => boolean, tap: (cell: string) => void) {
  board.el.addEventListener(
    'click',
    (e) => {
      if (!active()) return;
      const cell = (e.target as Element).closest<HTMLElement>('[data-cell]')?.dataset.cell;
      e.stopPropagation();
      e.preventDefault();
      if (cell) tap(cell);
    },
    true,
  );
}

export function setupPanel(
  geo: Geometry,
  board: BoardView,
  analyse: (position: string) => void,
): SetupPanel {
  let s: Setup | null = null;
  const summary = h('p', { class: 'hint setup-summary', 'aria-live': 'polite' });
  const actor = actorSelect();
  const offRow = (seat: SeatNo) =>
    offButtons(seat, (delta) => s && draw(changeOff(geo, s, seat, delta)));
  const go = h('button', { type: 'button', class: 'primary', text: t('setup.analyse') });
  go.dataset.action = 'setup-analyse';
  const cancel = h('button', {
    type: 'button',
    text: t('setup.cancel'),
    'data-action': 'setup-cancel',
  });
  const clearAll = h('button', {
    type: 'button',
    text: t('setup.empty'),
    'data-action': 'setup-clear',
  });
  const el = h(
    'div',
    { class: 'card setup-panel', hidden: true },
    h('h2', { text: t('setup.title') }),
    h('p', { class: 'hint', text: t('setup.hint') }),
    h('div', { class: 'row' }, actor, offRow(1), offRow(2)),
    summary,
    h('div', { class: 'row' }, go, clearAll, cancel),
  );
  const draw = (next: Setup) => {
    s = next;
    const pos = positionOf(geo, s);
    board.render(parsePosition(pos, geo.n).pieces, { legal: [], actingSeat: null });
    const home = (seat: SeatNo) => geo.pieces - placed(s!, seat);
    const counts = { lightHome: home(1), lightOff: s.off[1], darkHome: home(2), darkOff: s.off[2] };
    setText(summary, t('setup.summary', { pos, ...counts }));
  };
  onSquareTap(
    board,
    () => s !== null,
    (cell) => draw(cycleCell(geo, s!, cell)),
  );
  actor.addEventListener('change', () => s && draw({ ...s, actor: Number(actor.value) as SeatNo }));
  const panel: SetupPanel = {
    el,
    get editing() {
      return s !== null;
    },
    open(position: string) {
      const start: Setup = setupOf(geo, position) ?? {
        actor: 1,
        cells: new Map(),
        off: { 1: 0, 2: 0 },
      };
      actor.value = String(start.actor);
      el.hidden = false;
      board.el.classList.add('setting-up');
      draw(start);
    },
    close() {
      s = null;
      el.hidden = true;
      board.el.classList.remove('setting-up');
    },
  };
  onClick(go, () => {
    if (!s) return;
    const pos = positionOf(geo, s);
    panel.close();
    analyse(pos);
  });
  onClick(cancel, () => (panel.close(), analyse('')));
  onClick(clearAll, () => s && draw({ ...s, cells: new Map(), off: { 1: 0, 2: 0 } }));
  return panel;
}
