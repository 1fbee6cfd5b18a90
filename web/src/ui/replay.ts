// Replay of a finished game, move by move: the board after each recorded event, with first /
// previous / next / last buttons, a slider, autoplay and the arrow keys. Positions come from the
// server (GET /api/games/<id>/positions); the client does not re-play the rules itself.

import { buildGeometry, parsePosition } from '../logic/geometry.ts';
import {
  describeRecordEvent,
  gradeFrames,
  replayFrames,
  type Names,
  type ReplayFrame,
} from '../logic/replay.ts';
import { exploreHash, historyHash, type Route } from '../logic/route.ts';
import { reasonText } from '../logic/status.ts';
import type { SeatNo } from '../logic/types.ts';
import { api, ApiError, rulesFor } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView, pieceElement } from './board.ts';
import { DiceView } from './dice.ts';
import { h, setText } from './dom.ts';
import { buildReview, type ReviewPanel } from './review_panel.ts';

export function mountReplay(_app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'replay') return { destroy() {} };
  const title = h('h1', { text: 'Replay' });
  const meta = h('p', { class: 'hint' });
  const note = h('p', { class: 'hint replay-note', text: 'Loading…' });
  const host = h('div', { class: 'replay-host' });
  root.append(h('section', { class: 'replay' }, title, meta, note, host));
  let timer = 0;
  let offKey: (() => void) | null = null;

  (async () => {
    const [game, record] = await Promise.all([api.game(route.id), api.record(route.id)]);
    const rules = await rulesFor(record.rules || game.rules);
    const geo = buildGeometry(rules);
    const names: Names = { 1: game.players[0] ?? 'Seat 1', 2: game.players[1] ?? 'Seat 2' };
    setText(title, `Replay — ${names[1]} vs ${names[2]}`);
    const winner = names[game.winner as SeatNo] ?? '?';
    setText(
      meta,
      `${rules.name} · ${winner} won, ${reasonText(game.reason)} · ${record.events.length} events`,
    );

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
    const label = h('p', { class: 'status-main replay-label' });
    const counter = h('span', { class: 'replay-counter' });
    const slider = h('input', { type: 'range', min: 0, value: 0, 'aria-label': 'Step' });
    const btn = (text: string, action: string, aria: string) =>
      h('button', { type: 'button', text, 'data-action': action, 'aria-label': aria });
    const first = btn('|◀', 'first', 'First'),
      prev = btn('◀', 'prev', 'Previous'),
      next = btn('▶', 'next', 'Next'),
      last = btn('▶|', 'last', 'Last');
    const playBtn = btn('Play', 'play', 'Play');
    // Every throw and legal move of the position on show, played on freely (the explorer).
    const exploreLink = h('a', { class: 'explore-link', text: 'Explore from here' });
    const controls = h(
      'div',
      { class: 'row replay-controls' },
      first,
      prev,
      playBtn,
      next,
      last,
      slider,
      counter,
      exploreLink,
    );
    const list = h('ol', { class: 'log replay-list', 'aria-label': 'Moves', tabindex: 0 });
    host.append(
      h(
        'div',
        { class: 'play-area' },
        h('div', { class: 'board-wrap' }, board.el),
        h(
          'aside',
          { class: 'panel' },
          seatRow(1),
          h('div', { class: 'dice-box' }, dice.el, label),
          seatRow(2),
        ),
      ),
      controls,
      list,
    );
    host.style.setProperty('--cols', String(geo.cols));

    const stop = () => {
      window.clearInterval(timer);
      timer = 0;
      setText(playBtn, 'Play');
    };
    let frames: ReplayFrame[];
    try {
      frames = replayFrames(geo, record, await api.positions(route.id), names);
      setText(note, '');
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      // The server cannot give positions yet: list the moves and show the final position.
      const fin = record.result?.final;
      frames = [
        {
          label: 'Final position',
          pieces: fin ? parsePosition(fin, geo.n).pieces : [],
          throw: null,
          position: fin ?? null,
        },
      ];
      setText(
        note,
        'This server cannot send the positions of each move yet (GET /api/games/<id>/positions), ' +
          'so only the final position is shown; the moves are listed below.',
      );
      list.replaceChildren(
        ...record.events.map((ev) => h('li', { text: describeRecordEvent(ev, geo, names) })),
      );
    }
    // The review: exact from the server's solved table, else estimated by search (labelled).
    let review: ReviewPanel | null = null;
    if (frames.length > 1) {
      try {
        const analysis = await api.analysis(route.id);
        frames = gradeFrames(frames, analysis);
        review = buildReview(analysis, {
          geo,
          names,
          scope: host,
          show: (i) => (stop(), show(i)),
        });
        controls.after(review.el);
      } catch (e) {
        if (!(e instanceof ApiError) || (e.status !== 409 && e.status !== 404)) throw e;
        setText(note, 'This server cannot review this game, so the moves are not graded.');
      }
    }
    slider.max = String(frames.length - 1);
    let at = 0;
    for (const b of [first, prev, playBtn, next, last]) b.disabled = frames.length < 2;
    slider.disabled = frames.length < 2;
    const show = (i: number) => {
      at = Math.max(0, Math.min(frames.length - 1, i));
      const f = frames[at];
      board.render(f.pieces, { legal: [], actingSeat: null });
      if (f.throw) dice.show(f.throw.value, f.throw.move, f.throw.seat);
      else dice.clear();
      setText(label, f.label);
      setText(counter, `${at} / ${frames.length - 1}`);
      slider.value = String(at);
      host.dataset.step = String(at);
      host.dataset.position = f.position ?? '';
      exploreLink.hidden = !f.position;
      if (f.position) exploreLink.href = exploreHash(record.rules || game.rules, f.position);
      if (frames.length > 1) {
        list.querySelector('.current')?.classList.remove('current');
        const li = list.children[at] as HTMLElement | undefined;
        li?.classList.add('current');
        // Scroll the list only: scrollIntoView would move the whole page on a small screen.
        if (li) list.scrollTop = li.offsetTop - list.clientHeight / 2;
      }
      review?.onShow(at);
    };
    if (frames.length > 1)
      list.replaceChildren(
        ...frames.map((f, i) => {
          const li = h(
            'li',
            {},
            h('button', { type: 'button', class: 'link', text: `${i}. ${f.label}` }),
          );
          li.querySelector('button')!.addEventListener('click', () => show(i));
          return li;
        }),
      );
    first.addEventListener('click', () => (stop(), show(0)));
    prev.addEventListener('click', () => (stop(), show(at - 1)));
    next.addEventListener('click', () => (stop(), show(at + 1)));
    last.addEventListener('click', () => (stop(), show(frames.length - 1)));
    slider.addEventListener('input', () => (stop(), show(Number(slider.value))));
    playBtn.addEventListener('click', () => {
      if (timer) return stop();
      if (at >= frames.length - 1) show(0);
      setText(playBtn, 'Pause');
      timer = window.setInterval(() => (at >= frames.length - 1 ? stop() : show(at + 1)), 600);
    });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') (stop(), show(at + 1));
      else if (e.key === 'ArrowLeft') (stop(), show(at - 1));
      else if (e.key === 'Home') (stop(), show(0));
      else if (e.key === 'End') (stop(), show(frames.length - 1));
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    offKey = () => document.removeEventListener('keydown', onKey);
    show(0);
    const links = ([1, 2] as SeatNo[])
      .filter((s) => /^[A-Za-z0-9_-]{3,20}$/.test(names[s]) && !names[s].startsWith('guest-'))
      .map((s) => h('a', { href: historyHash(names[s]), text: `${names[s]}'s history` }));
    if (links.length) root.append(h('p', { class: 'row' }, ...links));
  })().catch((e) => setText(note, `Could not load this game: ${errorText(e)}`));

  return {
    destroy() {
      window.clearInterval(timer);
      offKey?.();
    },
  };
}
