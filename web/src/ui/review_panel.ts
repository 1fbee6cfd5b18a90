// The review under the replay (docs/analysis.md): the summary per player with the decomposition in words,
// the win-chance graph, "Review key moves" (the played and the best move drawn on the board) and
// the chances at the position on show. Everything comes from GET /api/games/<id>/analysis; the
// replay calls `onShow` after drawing each frame.

import type { Geometry } from '../logic/geometry.ts';
import { t } from '../logic/i18n.ts';
import { locationOf } from '../logic/geometry.ts';
import type { Names } from '../logic/types.ts';
import {
  decisionWords,
  decompositionWords,
  estimateNote,
  keyItems,
  moveWords,
  pct,
  playerLines,
  signedPct,
  throwWords,
  type KeyItem,
} from '../logic/review.ts';
import type { AnalysedMove, AnalysisAnswer, SeatNo } from '../logic/types.ts';
import { mistakeCounts, PUZZLE_TEXT } from '../logic/puzzles.ts';
import { mistakesHash } from '../logic/route.ts';
import { h, onClick, setText } from './dom.ts';
import { buildGraph } from './review_graph.ts';

export interface ReviewContext {
  /** The game's id (its mistakes are puzzles: #/mistakes/<id>). */
  game: string;
  geo: Geometry;
  names: Names;
  /** Where the board and its piles are (marks go on their squares). */
  scope: HTMLElement;
  /** Shows a replay frame (frame i: the position after event i − 1). */
  show(frame: number): void;
}

export interface ReviewPanel {
  el: HTMLElement;
  onShow(frame: number): void;
}

type MarkKind = 'played' | 'best';

function squareOf(scope: HTMLElement, key: string): HTMLElement | null {
  const [kind, seat] = key.split(':');
  if (kind === 'start') return scope.querySelector(`.board .start.s${seat}`);
  if (seat) return scope.querySelector(`[data-pile="${key}"]`);
  return scope.querySelector(`.board [data-cell="${key}"]`);
}

/** Outlines a move's two squares: played dashed orange, best solid green, each with its tag. */
function markMove(
  ctx: ReviewContext,
  seat: SeatNo,
  m: { from?: number; to?: number },
  kind: MarkKind,
) {
  if (m.from === undefined || m.to === undefined) return;
  for (const [end, index] of [
    ['from', m.from],
    ['to', m.to],
  ] as const) {
    const el = squareOf(ctx.scope, locationOf(ctx.geo, seat, index));
    if (!el) continue;
    el.classList.add('mv', `mv-${kind}`, `mv-${kind}-${end}`);
    const tag = t(
      kind === 'best'
        ? end === 'to'
          ? 'review.tagBest'
          : 'review.tagBestFrom'
        : end === 'to'
          ? 'review.tagPlayed'
          : 'review.tagFrom',
    );
    el.append(h('span', { class: `mv-tag mv-tag-${kind}`, 'aria-hidden': 'true', text: tag }));
  }
}

function clearMarks(scope: HTMLElement) {
  for (const tag of scope.querySelectorAll('.mv-tag')) tag.remove();
  for (const el of scope.querySelectorAll('.mv'))
    el.classList.remove(
      'mv',
      ...['played', 'best'].flatMap((k) => [`mv-${k}`, `mv-${k}-from`, `mv-${k}-to`]),
    );
}

/** The frame a key item is reviewed at: before a decision (its piece still in place), after a throw. */
const frameOfItem = (k: KeyItem) => (k.kind === 'decision' ? k.event : k.event + 1);

/** A link per seat that made mistakes or blunders: they become puzzles (mistakes_page.ts). */
function learnLinks(a: AnalysisAnswer, game: string, names: Names): HTMLElement | null {
  const n = mistakeCounts(a.moves);
  const links = ([1, 2] as SeatNo[])
    .filter((s) => n[s] > 0)
    .map((s) =>
      h('a', {
        class: 'button',
        href: mistakesHash(game, s),
        'data-action': 'learn-mistakes',
        'data-seat': s,
        text: PUZZLE_TEXT.learn(names[s], n[s]),
      }),
    );
  return links.length ? h('p', { class: 'row review-learn' }, ...links) : null;
}

function summaryBlock(a: AnalysisAnswer, names: Names): HTMLElement {
  const box = h('div', { class: 'review-summary' });
  if (a.estimate)
    box.append(
      h(
        'p',
        { class: 'review-estimate', role: 'note' },
        h('strong', { text: t('review.estimateHead') }),
        ` ${t('review.estimateBody', { source: a.source ?? 'expectimax' })} `,
        estimateNote(a),
      ),
    );
  box.append(h('p', { class: 'review-decomposition', text: decompositionWords(a, names) }));
  box.append(
    h(
      'ul',
      { class: 'review-players' },
      ...playerLines(a, names).map((line, i) =>
        h('li', { class: `s${a.players[i]?.seat ?? i + 1}`, text: line }),
      ),
    ),
  );
  return box;
}

/** "Review key moves": steps through the key decisions and throws, drawing them on the board. */
function keyMoves(a: AnalysisAnswer, ctx: ReviewContext) {
  const items = keyItems(a);
  let at = -1;
  const text = h('p', { class: 'key-text', 'aria-live': 'polite' });
  const counter = h('span', { class: 'key-counter' });
  const btn = (label: string, action: string) =>
    h('button', { type: 'button', text: label, 'data-action': action });
  const start = btn(t('review.keyStart'), 'key-start');
  const prev = btn(t('review.keyPrev'), 'key-prev');
  const next = btn(t('review.keyNext'), 'key-next');
  const stop = btn(t('review.keyDone'), 'key-stop');
  const steps = h('div', { class: 'row key-steps', hidden: true }, prev, counter, next, stop);
  const el = h('div', { class: 'key-moves' }, h('div', { class: 'row' }, start), steps, text);
  start.disabled = items.length === 0;
  if (!items.length) setText(text, t('review.noKeys'));
  const go = (i: number) => {
    at = Math.max(0, Math.min(items.length - 1, i));
    steps.hidden = false;
    start.hidden = true;
    ctx.show(frameOfItem(items[at]));
  };
  onClick(start, () => go(0));
  onClick(prev, () => go(at - 1));
  onClick(next, () => go(at + 1));
  onClick(stop, () => {
    at = -1;
    steps.hidden = true;
    start.hidden = false;
    setText(text, '');
    clearMarks(ctx.scope);
  });
  return {
    el,
    onShow(frame: number) {
      const item = items[at];
      if (!item || frameOfItem(item) !== frame) {
        if (at >= 0) setText(text, t('review.offKeys'));
        return;
      }
      setText(counter, `${at + 1} / ${items.length}`);
      prev.disabled = at === 0;
      next.disabled = at === items.length - 1;
      if (item.kind === 'throw') return setText(text, throwWords(ctx.names, item.throw));
      const m = item.move;
      markMove(ctx, m.seat, m, 'played');
      if (m.best && m.cost >= 1e-6) markMove(ctx, m.seat, m.best, 'best');
      setText(text, decisionWords(ctx.geo, ctx.names, m));
    },
  };
}

/**
 * The chances at the position on show, from the review: the decision that follows (the played
 * and the best move, each with the decider's chance; "Show best" draws it, "Play" steps on) or
 * the throw that follows (its luck against the average over the throws).
 */
function explorer(a: AnalysisAnswer, ctx: ReviewContext) {
  const moves = new Map(a.moves.map((m) => [m.event, m]));
  const throws = new Map((a.throws ?? []).map((t) => [t.event, t]));
  const list = h('ul', { class: 'explore-list' });
  const el = h(
    'section',
    { class: 'explorer', 'aria-label': t('review.chances') },
    h('h3', { text: t('review.chances') }),
    list,
    h('p', { class: 'hint', text: t('review.chancesHint') }),
  );
  const row = (m: AnalysedMove, which: MarkKind, frame: number) => {
    const mv = which === 'played' ? m : m.best!;
    const chance = which === 'played' ? m.value : m.best_value;
    const li = h('li', { class: `explore-move explore-${which}` });
    const move = moveWords(ctx.geo, m.seat, mv);
    li.append(`${t(which === 'played' ? 'review.rowPlayed' : 'review.rowBest', { move })} `);
    li.append(
      h('strong', { text: pct(chance) }),
      ` ${t('review.toWinFor', { name: ctx.names[m.seat] })} `,
    );
    const draw = h('button', { type: 'button', class: 'link', text: t('review.showOnBoard') });
    onClick(draw, () => (clearMarks(ctx.scope), markMove(ctx, m.seat, mv, which)));
    li.append(draw);
    if (which === 'played') {
      const play = h('button', { type: 'button', class: 'link', text: t('review.playIt') });
      onClick(play, () => ctx.show(frame + 1));
      li.append(' · ', play);
    }
    return li;
  };
  return {
    el,
    onShow(frame: number) {
      // Frame i shows the position before event i.
      const m = moves.get(frame);
      const th = throws.get(frame);
      const items: HTMLElement[] = [];
      if (m && !m.resign) {
        items.push(row(m, 'played', frame));
        if (m.best && m.cost >= 1e-6) items.push(row(m, 'best', frame));
        if (m.legal < 2) items.push(h('li', { text: t('review.forced') }));
        else if (m.cost < 1e-6) items.push(h('li', { text: t('review.wasBest') }));
      } else if (th) {
        const text = t('review.throwsNext', {
          who: ctx.names[th.seat],
          light: ctx.names[1],
          avg: pct(th.light_expected),
          n: th.outcome,
          pct: pct(th.light),
          luck: signedPct(th.luck),
        });
        items.push(h('li', { text }));
      } else items.push(h('li', { text: t('review.nothing') }));
      list.replaceChildren(...items);
    },
  };
}

export function buildReview(a: AnalysisAnswer, ctx: ReviewContext): ReviewPanel {
  const graph = a.graph?.length ? buildGraph(a.graph, ctx.names[1], ctx.show) : null;
  const keys = keyMoves(a, ctx);
  const exp = explorer(a, ctx);
  const el = h(
    'section',
    { class: 'replay-analysis review', 'aria-label': t('review.title') },
    h('h2', { text: t(a.estimate ? 'review.titleEstimate' : 'review.titleExact') }),
    summaryBlock(a, ctx.names),
    graph?.el ?? null,
    learnLinks(a, ctx.game, ctx.names),
    keys.el,
    exp.el,
  );
  return {
    el,
    onShow(frame: number) {
      clearMarks(ctx.scope);
      graph?.at(frame);
      keys.onShow(frame);
      exp.onShow(frame);
    },
  };
}
