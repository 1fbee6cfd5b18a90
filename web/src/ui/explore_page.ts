// The analysis board (#/explore, docs/analysis.md): any position of any rule set with every throw
// and every legal move and its winning chance, from GET /api/explore (exact from the server's
// solved table, else estimated by search and labelled). A move is played by tapping a piece on
// the board or the move in the list; a throw by its button under the board; Back and Forward step
// through the positions visited; "Set up a position" places pieces (explore_setup.ts). The
// address follows the position on show, so "Copy link" or "Share" passes it on; a position string
// the server cannot parse is shown in words. The client knows no rules: the server says where
// each move leads.

import { buildGeometry, parsePosition, type Geometry } from '../logic/geometry.ts';
import { t } from '../logic/i18n.ts';
import { cellName } from '../logic/howto.ts';
import { rulesName } from '../logic/known.ts';
import { seatOf } from '../logic/replay.ts';
import { moveWords, pct } from '../logic/review.ts';
import { exploreHash, type Route } from '../logic/route.ts';
import type { ExploreAnswer, ExploredMove, LegalMove, SeatNo } from '../logic/types.ts';
import { api, rulesFor } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { buildBoard, type Board } from './board_area.ts';
import { clear, h, onClick, setText } from './dom.ts';
import { setupPanel, type SetupPanel } from './explore_setup.ts';

const sideName = (seat: SeatNo) => t(seat === 1 ? 'seat.light' : 'seat.dark');

/** The board's form of an explored move (the board draws and picks LegalMoves). */
function legalOf(m: ExploredMove): LegalMove {
  const kind = m.award === undefined ? 'move' : m.award ? 'award_yes' : 'award_no';
  return {
    from: m.from,
    to: m.to,
    kind,
    capture: false,
    rosette: false,
    bear_off: false,
    enter: false,
  };
}

function moveText(geo: Geometry | null, seat: SeatNo, m: ExploredMove): string {
  if (geo) return moveWords(geo, seat, m);
  if (m.award !== undefined) return t(m.award ? 'explore.takeAward' : 'explore.declineAward');
  return t('explore.path', { from: m.from, to: m.to });
}

/** The explorer's elements: the position form, the board's host, the chances and the lists. */
function exploreUi(position: string) {
  const input = h('input', {
    type: 'text',
    name: 'position',
    value: position,
    'aria-label': t('explore.positionString'),
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const ui = {
    where: h('p', { class: 'hint explore-where' }),
    error: h('p', { class: 'explore-error', role: 'alert' }),
    headline: h('p', { class: 'status-main explore-value', 'aria-live': 'polite' }),
    estimate: h('p', { class: 'review-estimate', role: 'note', hidden: true }),
    list: h('div', { class: 'explore-choices' }),
    back: h('button', { type: 'button', text: t('explore.back'), 'data-action': 'explore-back' }),
    forward: h('button', {
      type: 'button',
      text: t('explore.forward'),
      'data-action': 'explore-forward',
    }),
    setup: h('button', { type: 'button', text: t('explore.setup'), 'data-action': 'setup' }),
    copy: h('button', { type: 'button', text: t('explore.copy'), 'data-action': 'explore-copy' }),
    share: h('button', {
      type: 'button',
      text: t('explore.share'),
      'data-action': 'explore-share',
    }),
    throwRow: h('div', {
      class: 'row explore-throw-row',
      role: 'group',
      'aria-label': t('explore.throw'),
    }),
    setupHost: h('div', { class: 'setup-host' }),
    restart: h('button', {
      type: 'button',
      text: t('explore.start'),
      'data-action': 'explore-start',
    }),
    host: h('div', { class: 'replay-host explore-host' }),
    input,
    form: h(
      'form',
      { class: 'row explore-form' },
      h('label', { text: `${t('explore.position')} ` }, input),
      h('button', { type: 'submit', text: t('explore.submit') }),
    ),
  };
  const el = h(
    'section',
    { class: 'replay explore' },
    h('h1', { text: t('explore.title') }),
    ui.where,
    ui.error,
    ui.host,
    ui.throwRow,
    ui.headline,
    ui.estimate,
    h(
      'div',
      { class: 'row explore-nav' },
      ui.back,
      ui.forward,
      ui.restart,
      ui.setup,
      ui.copy,
      ui.share,
    ),
    ui.setupHost,
    ui.list,
    ui.form,
  );
  return { ...ui, el };
}

/** The explorer's state: the position on show, those visited before it (for Back). */
interface Explorer {
  rules: string;
  ui: ReturnType<typeof exploreUi>;
  geo: Geometry | null;
  board: Board | null;
  visited: string[];
  /** Positions stepped back from, for Forward (a new move forgets them). */
  ahead: string[];
  current: string;
  setup: SetupPanel | null;
  gone: boolean;
  ticket: number;
}

function drawBoard(x: Explorer, position: string, moves: ExploredMove[], seat: SeatNo | null) {
  const board = x.board;
  if (!x.geo || !board) return;
  try {
    board.view.render(parsePosition(position, x.geo.n).pieces, {
      legal: moves.map(legalOf),
      actingSeat: seat,
    });
  } catch {
    board.view.render([], { legal: [], actingSeat: null });
  }
  board.view.onPick = (t) => {
    const m = moves.find(
      (y) => y.from === t.move.from && y.to === t.move.to && legalOf(y).kind === t.move.kind,
    );
    if (m) void go(x, m.position, true);
  };
}

function moveItem(x: Explorer, seat: SeatNo, m: ExploredMove, approx: string): HTMLElement {
  const b = h('button', { type: 'button', class: 'link', text: moveText(x.geo, seat, m) });
  onClick(b, () => void go(x, m.position, true));
  return h(
    'li',
    { class: m.best ? 'explore-move explore-best' : 'explore-move' },
    b,
    ' — ',
    h('strong', { text: `${approx}${pct(m.value)}` }),
    ` ${t('explore.forSide', { side: sideName(seat) })}`,
    m.best ? ` ${t('explore.best')}` : '',
  );
}

/** A throw position: each throw with its likelihood, its chance and the moves after it. */
function throwList(x: Explorer, a: ExploreAnswer, seat: SeatNo, approx: string): HTMLElement {
  const items = (a.throws ?? []).map((th) => {
    const b = h('button', {
      type: 'button',
      class: 'link',
      text: t('explore.throwN', { n: th.outcome }),
    });
    onClick(b, () => void go(x, th.position, true));
    return h(
      'li',
      { class: 'explore-throw' },
      b,
      ` ${t('explore.likely', { pct: pct(th.probability) })} `,
      h('strong', { text: `${approx}${pct(th.value)}` }),
      ` ${t('explore.forSide', { side: sideName(seat) })}`,
      th.moves.length ? '' : ` ${t('explore.noMove')}`,
      th.moves.length
        ? h('ul', { class: 'explore-list' }, ...th.moves.map((m) => moveItem(x, seat, m, approx)))
        : null,
    );
  });
  return h('ul', { class: 'explore-throws', 'aria-label': t('explore.throws') }, ...items);
}

function showAnswer(x: Explorer, a: ExploreAnswer): void {
  const { headline, estimate, list } = x.ui;
  const seat = seatOf(a.actor);
  const approx = a.estimate ? '~' : '';
  const words = { side: sideName(seat), pct: `${approx}${pct(a.value)}` };
  setText(headline, t(a.moves ? 'explore.toMove' : 'explore.toThrow', words));
  clear(x.ui.throwRow);
  estimate.hidden = !a.estimate;
  setText(estimate, a.estimate ? t('explore.estimate') : '');
  if (a.moves) {
    const items = a.moves.map((m) => moveItem(x, seat, m, approx));
    list.replaceChildren(
      h('ul', { class: 'explore-list', 'aria-label': t('explore.moves') }, ...items),
    );
    drawBoard(x, a.position, a.moves, seat);
    return;
  }
  list.replaceChildren(throwList(x, a, seat, approx));
  drawBoard(x, a.position, [], null);
  x.ui.throwRow.replaceChildren(
    h('span', { class: 'hint', text: t('explore.sideThrows', { side: sideName(seat) }) }),
    ...(a.throws ?? []).map((th) => {
      const b = h('button', { type: 'button', text: String(th.outcome), 'data-action': 'throw' });
      b.dataset.outcome = String(th.outcome);
      b.setAttribute('aria-label', t('explore.throwN', { n: th.outcome }));
      onClick(b, () => void go(x, th.position, true));
      return b;
    }),
  );
}

/**
 * Shows `position`; `push` keeps the one on show for Back (a new step: Forward's positions are
 * forgotten, unless `forward` says this is one of them).
 */
async function go(x: Explorer, position: string, push: boolean, forward = false): Promise<void> {
  const mine = ++x.ticket;
  const ui = x.ui;
  x.setup?.close();
  if (push && !forward) x.ahead = [];
  try {
    const a = await api.explore(x.rules, position);
    if (x.gone || mine !== x.ticket) return;
    if (push && x.current) x.visited.push(x.current);
    x.current = a.position;
    setText(ui.error, '');
    ui.input.value = x.current;
    showAnswer(x, a);
  } catch (e) {
    if (x.gone || mine !== x.ticket) return;
    if (push && x.current) x.visited.push(x.current);
    x.current = position;
    ui.input.value = position;
    setText(ui.error, t('explore.cannot', { why: errorText(e) }));
    setText(ui.headline, '');
    ui.estimate.hidden = true;
    clear(ui.list);
    drawBoard(x, position, [], null);
  }
  ui.back.disabled = x.visited.length === 0;
  ui.forward.disabled = x.ahead.length === 0;
  setText(ui.where, where(x));
  // The address follows the position (replaceState: no hashchange, so the page stays).
  history.replaceState(null, '', exploreHash(x.rules, x.current));
}

/** The rule set and the position on show, above the board (the position kept left to right). */
const where = (x: Explorer) => `${rulesName(x.rules, x.rules)} · ${cellName(x.current)}`;

/** Back, Forward, the set-up button and the link's Copy and Share. */
function wireNav(x: Explorer): void {
  const { ui } = x;
  onClick(ui.back, () => {
    const prev = x.visited.pop();
    if (prev === undefined) return;
    x.ahead.push(x.current);
    void go(x, prev, false);
  });
  onClick(ui.forward, () => {
    const next = x.ahead.pop();
    if (next !== undefined) void go(x, next, true, true);
  });
  onClick(ui.setup, () => {
    // The chances on show are the old position's: gone while setting up a new one.
    for (const el of [ui.list, ui.throwRow, ui.headline]) clear(el);
    ui.estimate.hidden = true;
    x.setup?.open(x.current);
  });
  ui.setup.hidden = true; // until the board is drawn (preset rule sets)
  onClick(ui.copy, async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setText(ui.where, t('explore.copied', { where: where(x) }));
    } catch {
      setText(ui.where, t('explore.byHand', { where: where(x) }));
    }
  });
  ui.share.hidden = typeof navigator.share !== 'function';
  onClick(ui.share, () => {
    const url = window.location.href;
    navigator.share({ title: t('explore.shareTitle'), url }).catch(() => {});
  });
}

/** The board of a preset rule set; other rule sets (with parameters) are explored as lists. */
async function loadBoard(x: Explorer): Promise<void> {
  try {
    const info = await rulesFor(x.rules);
    x.geo = buildGeometry(info);
    x.board = buildBoard(x.geo);
    x.ui.host.style.setProperty('--cols', String(x.geo.cols));
    x.ui.host.append(x.board.el);
    const geo = x.geo;
    x.setup = setupPanel(geo, x.board.view, (p) => void go(x, p || x.current, p !== ''));
    x.ui.setupHost.append(x.setup.el);
    x.ui.setup.hidden = false;
  } catch {
    x.ui.host.append(h('p', { class: 'hint', text: t('explore.noBoard') }));
  }
}

export function mountExplore(_app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'explore') return { destroy() {} };
  const ui = exploreUi(route.position);
  root.append(ui.el);
  const x: Explorer = {
    rules: route.rules,
    ui,
    geo: null,
    board: null,
    visited: [],
    ahead: [],
    current: '',
    setup: null,
    gone: false,
    ticket: 0,
  };
  wireNav(x);
  onClick(ui.restart, () => void go(x, 'start', true));
  ui.form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go(x, ui.input.value.trim() || 'start', true);
  });
  ui.back.disabled = true;
  ui.forward.disabled = true;
  loadBoard(x)
    .then(() => (x.gone ? undefined : go(x, route.position, false)))
    .catch((e) => setText(ui.error, t('explore.failed', { why: errorText(e) })));
  return {
    destroy() {
      x.gone = true;
    },
  };
}
