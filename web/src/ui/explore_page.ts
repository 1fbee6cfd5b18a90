// The explorer (issue 15, docs/analysis.md): any position of any rule set with every throw and
// every legal move and its winning chance, from GET /api/explore (exact from the server's solved
// table, else estimated by search and labelled). A move is played by clicking it in the list or
// on the board; a throw by clicking it; Back steps through the positions visited. The address
// follows the position on show, so it can be shared; a position string the server cannot parse
// is shown in words. The client knows no rules: the server says where each move leads.

import { buildGeometry, parsePosition, type Geometry } from '../logic/geometry.ts';
import { moveWords, pct } from '../logic/review.ts';
import { exploreHash, type Route } from '../logic/route.ts';
import type { ExploreAnswer, ExploredMove, LegalMove, SeatNo } from '../logic/types.ts';
import { api, rulesFor } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView, pieceElement } from './board.ts';
import { h, setText } from './dom.ts';

const SEAT_NAME: Record<SeatNo, string> = { 1: 'Light', 2: 'Dark' };
const seatOf = (actor: string): SeatNo => (actor === 'dark' ? 2 : 1);

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
  if (m.award !== undefined) return m.award ? 'take the award' : 'decline the award';
  return `path ${m.from} → ${m.to}`;
}

interface Board {
  view: BoardView;
  el: HTMLElement;
}

/** The board with each seat's piles beside it, for rule sets the server describes (presets). */
function buildBoard(geo: Geometry): Board {
  const view = new BoardView(geo);
  const seat = (s: SeatNo) =>
    h(
      'div',
      { class: `seat-box s${s}` },
      h(
        'div',
        { class: 'chip' },
        pieceElement(s),
        h('span', { class: 'seat-name', text: SEAT_NAME[s] }),
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

export function mountExplore(_app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'explore') return { destroy() {} };
  const rules = route.rules;
  const title = h('h1', { text: 'Explorer' });
  const where = h('p', { class: 'hint explore-where' });
  const error = h('p', { class: 'explore-error', role: 'alert' });
  const headline = h('p', { class: 'status-main explore-value', 'aria-live': 'polite' });
  const estimate = h('p', { class: 'review-estimate', role: 'note', hidden: true });
  const list = h('div', { class: 'explore-choices' });
  const back = h('button', { type: 'button', text: '◀ Back', 'data-action': 'explore-back' });
  const restart = h('button', {
    type: 'button',
    text: 'Start position',
    'data-action': 'explore-start',
  });
  const host = h('div', { class: 'replay-host explore-host' });
  const input = h('input', {
    type: 'text',
    name: 'position',
    value: route.position,
    'aria-label': 'Position string',
    spellcheck: 'false',
    autocomplete: 'off',
  });
  const form = h(
    'form',
    { class: 'row explore-form' },
    h('label', { text: 'Position ' }, input),
    h('button', { type: 'submit', text: 'Explore' }),
  );
  root.append(
    h(
      'section',
      { class: 'replay explore' },
      title,
      where,
      form,
      error,
      host,
      headline,
      estimate,
      h('div', { class: 'row explore-nav' }, back, restart),
      list,
    ),
  );

  let geo: Geometry | null = null;
  let board: Board | null = null;
  const visited: string[] = [];
  let current = '';
  let gone = false;
  let ticket = 0;

  const draw = (position: string, moves: ExploredMove[], seat: SeatNo | null) => {
    if (!geo || !board) return;
    try {
      board.view.render(parsePosition(position, geo.n).pieces, {
        legal: moves.map(legalOf),
        actingSeat: seat,
      });
    } catch {
      board.view.render([], { legal: [], actingSeat: null });
    }
    board.view.onPick = (t) => {
      const m = moves.find(
        (x) => x.from === t.move.from && x.to === t.move.to && legalOf(x).kind === t.move.kind,
      );
      if (m) void go(m.position, true);
    };
  };

  const moveItem = (seat: SeatNo, m: ExploredMove, approx: string) => {
    const b = h('button', { type: 'button', class: 'link', text: moveText(geo, seat, m) });
    b.addEventListener('click', () => void go(m.position, true));
    return h(
      'li',
      { class: m.best ? 'explore-move explore-best' : 'explore-move' },
      b,
      ' — ',
      h('strong', { text: `${approx}${pct(m.value)}` }),
      ` to win for ${SEAT_NAME[seat]}`,
      m.best ? ' ★ best' : '',
    );
  };

  const show = (x: ExploreAnswer) => {
    const seat = seatOf(x.actor);
    const approx = x.estimate ? '~' : '';
    const doing = x.moves ? 'to move' : 'to throw';
    setText(headline, `${SEAT_NAME[seat]} ${doing}: ${approx}${pct(x.value)} to win`);
    estimate.hidden = !x.estimate;
    setText(
      estimate,
      x.estimate
        ? 'Estimate: no solved table for these rules here, so these chances are estimated by search, not exact.'
        : '',
    );
    if (x.moves) {
      list.replaceChildren(
        h(
          'ul',
          { class: 'explore-list', 'aria-label': 'Moves' },
          ...x.moves.map((m) => moveItem(seat, m, approx)),
        ),
      );
      draw(x.position, x.moves, seat);
      return;
    }
    const items = (x.throws ?? []).map((t) => {
      const b = h('button', { type: 'button', class: 'link', text: `Throw ${t.outcome}` });
      b.addEventListener('click', () => void go(t.position, true));
      return h(
        'li',
        { class: 'explore-throw' },
        b,
        ` (${pct(t.probability)} likely): `,
        h('strong', { text: `${approx}${pct(t.value)}` }),
        ` to win for ${SEAT_NAME[seat]}${t.moves.length ? '' : ' — no move, the turn passes'}`,
        t.moves.length
          ? h('ul', { class: 'explore-list' }, ...t.moves.map((m) => moveItem(seat, m, approx)))
          : null,
      );
    });
    list.replaceChildren(h('ul', { class: 'explore-throws', 'aria-label': 'Throws' }, ...items));
    draw(x.position, [], null);
  };

  /** Shows `position`; `push` keeps the one on show for Back. */
  const go = async (position: string, push: boolean) => {
    const mine = ++ticket;
    try {
      const x = await api.explore(rules, position);
      if (gone || mine !== ticket) return;
      if (push && current) visited.push(current);
      current = x.position;
      setText(error, '');
      input.value = current;
      show(x);
    } catch (e) {
      if (gone || mine !== ticket) return;
      if (push && current) visited.push(current);
      current = position;
      input.value = position;
      setText(error, `This position cannot be explored: ${errorText(e)}`);
      setText(headline, '');
      estimate.hidden = true;
      list.replaceChildren();
      draw(position, [], null);
    }
    back.disabled = visited.length === 0;
    setText(where, `${rules} · ${current}`);
    // The address follows the position (replaceState: no hashchange, so the page stays).
    history.replaceState(null, '', exploreHash(rules, current));
  };

  back.addEventListener('click', () => {
    const prev = visited.pop();
    if (prev !== undefined) void go(prev, false);
  });
  restart.addEventListener('click', () => void go('start', true));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void go(input.value.trim() || 'start', true);
  });
  back.disabled = true;

  (async () => {
    try {
      const info = await rulesFor(rules);
      geo = buildGeometry(info);
      board = buildBoard(geo);
      host.style.setProperty('--cols', String(geo.cols));
      host.append(board.el);
    } catch {
      // Not a preset the server describes (e.g. parameters): the lists work without the board.
      host.append(h('p', { class: 'hint', text: 'The board is drawn for preset rule sets only.' }));
    }
    if (!gone) await go(route.position, false);
  })().catch((e) => setText(error, `Could not load the explorer: ${errorText(e)}`));

  return {
    destroy() {
      gone = true;
    },
  };
}
