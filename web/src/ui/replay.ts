// Replay of a finished game, move by move: the board after each recorded event, with first /
// previous / next / last buttons, a slider, autoplay and the arrow keys. Positions come from the
// server (GET /api/games/<id>/positions); the client does not re-play the rules itself.

import { shareGame } from './share_game.ts';
import { buildGeometry, parsePosition, type Geometry } from '../logic/geometry.ts';
import {
  describeRecordEvent,
  gradeFrames,
  replayFrames,
  type ReplayFrame,
} from '../logic/replay.ts';
import { t } from '../logic/i18n.ts';
import { rulesName } from '../logic/known.ts';
import { exploreHash, historyHash, type Route } from '../logic/route.ts';
import { playerNames, reasonText } from '../logic/status.ts';
import type { GameRecord, MatchRow, Names, SeatNo } from '../logic/types.ts';
import { api, ApiError, rulesFor } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView, pieceElement } from './board.ts';
import { DiceView } from './dice.ts';
import { h, onClick, setText } from './dom.ts';
import { buildReview, type ReviewPanel } from './review_panel.ts';

/** The board, the dice, the seats' piles and the step controls of a game's replay. */
function replayUi(geo: Geometry, names: Names) {
  const board = new BoardView(geo);
  const dice = new DiceView(geo.dice);
  const seatRow = (seat: SeatNo) =>
    h(
      'div',
      { class: `seat-box s${seat}` },
      h(
        'div',
        { class: 'chip' },
        pieceElement(seat),
        h('span', { class: 'seat-name', text: names[seat] }),
      ),
      h('div', { class: 'piles' }, board.homePile(seat), board.offPile(seat)),
    );
  const btn = (text: string, action: string, aria: string) =>
    h('button', { type: 'button', text, 'data-action': action, 'aria-label': aria });
  const ui = {
    board,
    dice,
    label: h('p', { class: 'status-main replay-label' }),
    counter: h('span', { class: 'replay-counter' }),
    slider: h('input', { type: 'range', min: 0, value: 0, 'aria-label': t('replay.step') }),
    first: btn('|◀', 'first', t('replay.first')),
    prev: btn('◀', 'prev', t('replay.previous')),
    play: btn(t('replay.play'), 'play', t('replay.play')),
    next: btn('▶', 'next', t('replay.next')),
    last: btn('▶|', 'last', t('replay.last')),
    // Every throw and legal move of the position on show, played on freely (the explorer).
    exploreLink: h('a', { class: 'explore-link', text: t('replay.explore') }),
    list: h('ol', { class: 'log replay-list', 'aria-label': t('replay.moves'), tabindex: 0 }),
  };
  const controls = h(
    'div',
    { class: 'row replay-controls' },
    ...[ui.first, ui.prev, ui.play, ui.next, ui.last, ui.slider, ui.counter, ui.exploreLink],
  );
  const area = h(
    'div',
    { class: 'play-area' },
    h('div', { class: 'board-wrap' }, board.el),
    h(
      'aside',
      { class: 'panel' },
      seatRow(1),
      h('div', { class: 'dice-box' }, dice.el, ui.label),
      seatRow(2),
    ),
  );
  // The stage (board and controls), the move list and the review beside them (style.css lays
  // them out: side by side on a wide screen, the stage kept on screen on a phone).
  const stage = h('div', { class: 'replay-stage' }, area, controls);
  // Scrolls by itself on a wide screen: focusable, so that the keyboard scrolls it too.
  const side = h('div', {
    class: 'replay-side',
    tabindex: 0,
    role: 'region',
    'aria-label': t('review.title'),
  });
  return { ...ui, controls, stage, side };
}

/** A replay on show: its frames, the step on show and the autoplay timer. */
interface Replayer {
  ui: ReturnType<typeof replayUi>;
  host: HTMLElement;
  rules: string;
  frames: ReplayFrame[];
  at: number;
  timer: number;
  review: ReviewPanel | null;
}

function stop(r: Replayer): void {
  window.clearInterval(r.timer);
  r.timer = 0;
  setText(r.ui.play, t('replay.play'));
}

function show(r: Replayer, i: number): void {
  const { ui, frames } = r;
  r.at = Math.max(0, Math.min(frames.length - 1, i));
  const f = frames[r.at];
  ui.board.render(f.pieces, { legal: [], actingSeat: null });
  if (f.throw) ui.dice.show(f.throw.value, f.throw.move, f.throw.seat);
  else ui.dice.clear();
  setText(ui.label, f.label);
  setText(ui.counter, `${r.at} / ${frames.length - 1}`);
  ui.slider.value = String(r.at);
  r.host.dataset.step = String(r.at);
  r.host.dataset.position = f.position ?? '';
  ui.exploreLink.hidden = !f.position;
  if (f.position) ui.exploreLink.href = exploreHash(r.rules, f.position);
  if (frames.length > 1) {
    ui.list.querySelector('.current')?.classList.remove('current');
    const li = ui.list.children[r.at] as HTMLElement | undefined;
    li?.classList.add('current');
    // Scroll the list only: scrollIntoView would move the whole page on a small screen.
    if (li) ui.list.scrollTop = li.offsetTop - ui.list.clientHeight / 2;
  }
  r.review?.onShow(r.at);
}

/** The frame of each event, or (a server without positions) the final one and the moves listed. */
async function loadFrames(
  id: string,
  geo: Geometry,
  record: GameRecord,
  names: Names,
  ui: ReturnType<typeof replayUi>,
  note: HTMLElement,
): Promise<ReplayFrame[]> {
  try {
    const frames = replayFrames(geo, record, await api.positions(id), names);
    setText(note, '');
    return frames;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    const fin = record.result?.final;
    setText(note, t('replay.noPositions'));
    ui.list.replaceChildren(
      ...record.events.map((ev) => h('li', { text: describeRecordEvent(ev, geo, names) })),
    );
    const pieces = fin ? parsePosition(fin, geo.n).pieces : [];
    return [{ label: t('replay.final'), pieces, throw: null, position: fin ?? null }];
  }
}

/** The review: exact from the server's solved table, else estimated by search (labelled). */
async function attachReview(
  r: Replayer,
  id: string,
  geo: Geometry,
  names: Names,
  note: HTMLElement,
) {
  if (r.frames.length < 2) return;
  try {
    const analysis = await api.analysis(id);
    r.frames = gradeFrames(r.frames, analysis);
    r.review = buildReview(analysis, {
      game: id,
      geo,
      names,
      scope: r.host,
      show: (i) => (stop(r), show(r, i)),
    });
    r.ui.side.append(r.review.el);
    r.host.classList.add('reviewed');
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 409 && e.status !== 404)) throw e;
    setText(note, t('replay.noReview'));
  }
}

/** The step buttons, the slider, autoplay and the arrow keys; returns what removes the keys. */
function wireControls(r: Replayer): () => void {
  const { ui } = r;
  const last = () => r.frames.length - 1;
  const step = (i: () => number) => () => (stop(r), show(r, i()));
  ui.first.addEventListener(
    'click',
    step(() => 0),
  );
  ui.prev.addEventListener(
    'click',
    step(() => r.at - 1),
  );
  ui.next.addEventListener(
    'click',
    step(() => r.at + 1),
  );
  onClick(ui.last, step(last));
  ui.slider.addEventListener(
    'input',
    step(() => Number(ui.slider.value)),
  );
  onClick(ui.play, () => {
    if (r.timer) return stop(r);
    if (r.at >= last()) show(r, 0);
    setText(ui.play, t('replay.pause'));
    r.timer = window.setInterval(() => (r.at >= last() ? stop(r) : show(r, r.at + 1)), 600);
  });
  const keys: Record<string, () => number> = {
    ArrowRight: () => r.at + 1,
    ArrowLeft: () => r.at - 1,
    Home: () => 0,
    End: last,
  };
  const onKey = (e: KeyboardEvent) => {
    const to = keys[e.key];
    if (!to) return;
    step(to)();
    e.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

/** Links to the history of each player with an account (not guests). */
function historyLinks(names: Names): HTMLElement | null {
  const links = ([1, 2] as SeatNo[])
    .filter((s) => /^[A-Za-z0-9_-]{3,20}$/.test(names[s]) && !names[s].startsWith('guest-'))
    .map((s) =>
      h('a', { href: historyHash(names[s]), text: t('replay.history', { name: names[s] }) }),
    );
  return links.length ? h('p', { class: 'row' }, ...links) : null;
}

function titles(game: MatchRow, record: GameRecord, rulesTitle: string, names: Names) {
  const winner = names[game.winner as SeatNo] ?? '?';
  return {
    title: t('replay.titleOf', { light: names[1], dark: names[2] }),
    meta: t('replay.meta', {
      rules: rulesName(game.rules, rulesTitle),
      winner,
      reason: reasonText(game.reason),
      count: record.events.length,
    }),
  };
}

export function mountReplay(_app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'replay') return { destroy() {} };
  const title = h('h1', { text: t('replay.title') });
  const meta = h('p', { class: 'hint' });
  const note = h('p', { class: 'hint replay-note', text: t('replay.loading') });
  const host = h('div', { class: 'replay-host' });
  root.append(h('section', { class: 'replay' }, title, meta, note, host));
  let r: Replayer | null = null;
  let offKey: (() => void) | null = null;

  (async () => {
    const [game, record] = await Promise.all([api.game(route.id), api.record(route.id)]);
    const rules = await rulesFor(record.rules || game.rules);
    const geo = buildGeometry(rules);
    const [light, dark] = playerNames(game.players, game.summary);
    const names: Names = { 1: light ?? t('seat.light'), 2: dark ?? t('seat.dark') };
    const words = titles(game, record, rules.name, names);
    setText(title, words.title);
    setText(meta, words.meta);
    meta.after(shareGame(route.id));
    const ui = replayUi(geo, names);
    host.append(ui.stage, ui.list, ui.side);
    host.style.setProperty('--cols', String(geo.cols));
    const frames = await loadFrames(route.id, geo, record, names, ui, note);
    const rp: Replayer = {
      ui,
      host,
      rules: record.rules || game.rules,
      frames,
      at: 0,
      timer: 0,
      review: null,
    };
    r = rp;
    await attachReview(rp, route.id, geo, names, note);
    ui.slider.max = String(rp.frames.length - 1);
    for (const b of [ui.first, ui.prev, ui.play, ui.next, ui.last])
      b.disabled = rp.frames.length < 2;
    ui.slider.disabled = rp.frames.length < 2;
    if (rp.frames.length > 1)
      ui.list.replaceChildren(
        ...rp.frames.map((f, i) => {
          const b = h('button', { type: 'button', class: 'link', text: `${i}. ${f.label}` });
          onClick(b, () => show(rp, i));
          return h('li', {}, b);
        }),
      );
    offKey = wireControls(rp);
    show(rp, 0);
    const links = historyLinks(names);
    if (links) root.append(links);
  })().catch((e) => setText(note, t('replay.failed', { why: errorText(e) })));

  return {
    destroy() {
      if (r) window.clearInterval(r.timer);
      offKey?.();
    },
  };
}
