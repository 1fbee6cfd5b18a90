// Learn from your mistakes (#/mistakes/<game id>?seat=N; docs/puzzles.md, "Learn from your
// mistakes"): a reviewed game's mistakes and blunders of one seat, in game order, each a puzzle
// ("you played X, find better") solved on the same board as the puzzles (puzzle_solver.ts). The
// chances come only with each answer (GET /api/games/<id>/mistakes holds none). Reached from the
// review and from the match history.

import { parseMoveText, PUZZLE_TEXT as T } from '../logic/puzzles.ts';
import { moveWords } from '../logic/review.ts';
import { buildGeometry, parsePosition } from '../logic/geometry.ts';
import { replayHash, type Route } from '../logic/route.ts';
import { api, rulesFor, type MistakesAnswer } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { h, setText } from './dom.ts';
import { PuzzleSolver, type PuzzleSource, type Question } from './puzzle_solver.ts';

/** The played move in words (on a preset's board), else as the API writes it. */
async function playedWords(m: MistakesAnswer, i: number): Promise<string> {
  const mistake = m.mistakes[i];
  const move = parseMoveText(mistake.played);
  try {
    const geo = buildGeometry(await rulesFor(m.rules));
    const { actor } = parsePosition(mistake.position, geo.n);
    if (move) return moveWords(geo, actor, move);
  } catch {
    /* the API's words */
  }
  return mistake.played;
}

function mistakeSource(id: string, seat: 1 | 2, status: HTMLElement): PuzzleSource {
  let list: Promise<MistakesAnswer> | null = null;
  let at = 0;
  return {
    async next() {
      list ??= api.mistakes(id, seat);
      const m = await list;
      if (at >= m.mistakes.length) return null;
      const i = at++;
      const x = m.mistakes[i];
      setText(status, T.mistakeOf(i + 1, m.mistakes.length));
      return {
        key: String(x.event),
        rules: m.rules,
        position: x.position,
        throw: x.throw,
        moves: x.moves,
        caption: T.played(await playedWords(m, i), x.grade),
      } satisfies Question;
    },
    attempt: (q, move) => api.mistakeAttempt(id, Number(q.key), move),
  };
}

export function mountMistakes(_app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'mistakes') return { destroy() {} };
  const status = h('p', { class: 'puzzle-status', 'aria-live': 'polite' });
  const end = h('div', { class: 'puzzle-empty', role: 'status' });
  let right = 0;
  let seen = 0;
  const links = () =>
    h(
      'p',
      { class: 'row' },
      h('a', { href: replayHash(route.id), text: T.toReview, 'data-action': 'to-review' }),
      ' · ',
      h('a', { href: '#/puzzles', text: T.toPuzzles }),
    );
  const solver = new PuzzleSolver(
    mistakeSource(route.id, route.seat, status),
    (_q, a) => {
      seen++;
      if (a.correct) right++;
      setText(solver.nextButton, T.nextMistake);
      solver.addToResult(h('p', { class: 'row' }, solver.nextButton));
    },
    (why) => {
      solver.el.hidden = true;
      setText(status, '');
      // No question left: either there was none, or every one was answered.
      const words = seen ? T.mistakesDone(right, seen) : why === T.noneLeft ? T.noMistakes : why;
      end.replaceChildren(h('p', { text: words }), links());
    },
  );
  root.append(
    h(
      'section',
      { class: 'replay puzzles mistakes', 'data-mode': 'mistakes' },
      h('h1', { text: T.mistakesTitle }),
      status,
      end,
      solver.el,
    ),
  );
  solver.advance().catch((e) => setText(status, errorText(e)));
  return {
    destroy() {
      solver.gone = true;
    },
  };
}
