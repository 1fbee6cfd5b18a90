// One puzzle on the board (docs/puzzles.md): the position with the throw shown, "Find the best
// move", the player taps a piece (the board's own tap handling: BoardView.onPick); the server's
// answer then lists every legal move with its exact chance, marks the best move on the board and
// says why in one line. Where the questions come from (the rated puzzles, a streak, the daily
// one, a game's mistakes) is a PuzzleSource; the screens are puzzles_page.ts and
// mistakes_page.ts. The next question is fetched as soon as an answer is shown, so Next shows it
// at once.

import { buildGeometry, locationOf, parsePosition, type Geometry } from '../logic/geometry.ts';
import {
  parseMoveText,
  PUZZLE_TEXT as T,
  rankMoves,
  reasonWords,
  throwSquares,
} from '../logic/puzzles.ts';
import { moveWords } from '../logic/review.ts';
import type { LegalMove, RulesInfo, SeatNo } from '../logic/types.ts';
import { rulesFor, type PuzzleAnswer } from '../net/api.ts';
import { errorText } from './app.ts';
import { buildBoard, type Board } from './board_area.ts';
import { DiceView } from './dice.ts';
import { clear, h, onClick, setText } from './dom.ts';

/** A question: a puzzle, or a position of a game where a mistake was made. */
export interface Question {
  key: string;
  rules: string;
  position: string;
  throw: number;
  moves: string[];
  /** A line above the board: the puzzle's rating, the mistake that was played. */
  caption: string;
  /** The day's puzzle (its answer says more puzzles follow). */
  daily?: boolean;
}

export interface PuzzleSource {
  /** The next question; null when there is none left. */
  next(): Promise<Question | null>;
  attempt(q: Question, move: string): Promise<PuzzleAnswer>;
}

/** What the screen around the solver does with an answer (rating, streak, history). */
export type AnswerHook = (q: Question, a: PuzzleAnswer) => void;

function legalOf(text: string): LegalMove | null {
  const m = parseMoveText(text);
  if (!m) return null;
  return { ...m, kind: 'move', capture: false, rosette: false, bear_off: false, enter: false };
}

export class PuzzleSolver {
  readonly el: HTMLElement;
  readonly nextButton = h('button', {
    type: 'button',
    class: 'primary',
    'data-action': 'next-puzzle',
    text: T.next,
  });
  private readonly caption = h('p', { class: 'hint puzzle-caption' });
  private readonly prompt = h('p', { class: 'status-main puzzle-prompt', 'aria-live': 'polite' });
  private readonly sub = h('p', { class: 'puzzle-sub' });
  private readonly host = h('div', { class: 'replay-host puzzle-host' });
  private readonly result = h('div', { class: 'puzzle-result', 'aria-live': 'polite' });
  private readonly dice = new DiceView(4);
  private geo: Geometry | null = null;
  private info: RulesInfo | null = null;
  private board: Board | null = null;
  private current: Question | null = null;
  private pending: Promise<Question | null> | null = null;
  private answered = false;
  /** Questions shown so far (published as data-count: a guest may meet a puzzle again). */
  private shown = 0;
  gone = false;

  constructor(
    private readonly source: PuzzleSource,
    private readonly onAnswer: AnswerHook,
    private readonly onEmpty: (why: string) => void,
  ) {
    this.el = h(
      'div',
      { class: 'puzzle-solver' },
      this.caption,
      h('div', { class: 'puzzle-head' }, this.dice.el, h('div', {}, this.prompt, this.sub)),
      this.host,
      this.result,
    );
    onClick(this.nextButton, () => void this.advance());
  }

  /** Shows the next question (the one fetched while the last answer was read, if any). */
  async advance(): Promise<void> {
    const pending = this.pending ?? this.source.next();
    this.pending = null;
    this.nextButton.disabled = true;
    try {
      const q = await pending;
      if (this.gone) return;
      if (!q) return this.onEmpty(T.noneLeft);
      await this.show(q);
    } catch (e) {
      if (!this.gone) this.onEmpty(T.failed(errorText(e)));
    } finally {
      this.nextButton.disabled = false;
    }
  }

  private async show(q: Question): Promise<void> {
    if (!this.info || this.info.rules !== q.rules) {
      this.info = await rulesFor(q.rules);
      this.geo = buildGeometry(this.info);
      this.board = buildBoard(this.geo);
      this.host.style.setProperty('--cols', String(this.geo.cols));
      this.host.replaceChildren(this.board.el);
      this.dice.setCount(this.info.dice.count);
    }
    if (this.gone) return;
    this.current = q;
    this.answered = false;
    const { actor, pieces } = parsePosition(q.position, this.geo!.n);
    const squares = throwSquares(this.info.dice, q.throw);
    this.dice.show(q.throw, squares, actor);
    setText(this.caption, q.caption);
    setText(this.prompt, T.find);
    setText(this.sub, T.toMove(T.side(actor), squares));
    clear(this.result);
    this.el.dataset.state = 'question';
    this.el.dataset.puzzle = q.key;
    this.el.dataset.count = String(++this.shown);
    const legal = q.moves.map(legalOf).filter((m): m is LegalMove => m !== null);
    const view = this.board!.view;
    view.render(pieces, { legal, actingSeat: actor });
    view.onPick = (t) => void this.attempt(q, actor, `${t.move.from}->${t.move.to}`);
  }

  private async attempt(q: Question, seat: SeatNo, move: string): Promise<void> {
    if (this.answered || q !== this.current) return;
    this.answered = true;
    this.el.dataset.state = 'checking';
    setText(this.prompt, T.busy);
    let a: PuzzleAnswer;
    try {
      a = await this.source.attempt(q, move);
    } catch (e) {
      if (this.gone) return;
      this.answered = false;
      this.el.dataset.state = 'question';
      setText(this.prompt, T.find);
      this.result.replaceChildren(
        h('p', { class: 'form-error', role: 'alert', text: errorText(e) }),
      );
      return;
    }
    if (this.gone || q !== this.current) return;
    this.pending = this.source.next();
    this.pending.catch(() => {}); // said when Next is pressed
    this.showAnswer(q, seat, move, a);
    this.onAnswer(q, a);
  }

  private words(seat: SeatNo, text: string): string {
    const m = parseMoveText(text);
    return m && this.geo ? moveWords(this.geo, seat, m) : text;
  }

  private showAnswer(q: Question, seat: SeatNo, move: string, a: PuzzleAnswer): void {
    this.el.dataset.state = a.correct ? 'right' : 'wrong';
    setText(this.prompt, a.correct ? T.right : T.wrong);
    setText(this.sub, '');
    const view = this.board!.view;
    const { pieces } = parsePosition(q.position, this.geo!.n);
    view.render(pieces, { legal: [], actingSeat: null });
    view.onPick = () => {};
    const best = parseMoveText(a.best);
    if (best && this.geo) {
      view.showTrail(seat, { ...legalOf(a.best)! });
      view.locElement(locationOf(this.geo, seat, best.from))?.classList.add('best-from');
    }
    const items = rankMoves(a.moves, a.best).map((m) =>
      h(
        'li',
        {
          class: `puzzle-move${m.move === a.best ? ' best' : ''}${m.move === move ? ' yours' : ''}`,
          'data-move': m.move,
        },
        h('span', { class: 'puzzle-move-words', text: this.words(seat, m.move) }),
        ' — ',
        h('strong', { text: T.chance(m.value) }),
        m.move === a.best ? ` ★ ${T.best}` : '',
        m.move === move ? ` · ${T.yours}` : '',
      ),
    );
    this.result.replaceChildren(
      h('p', {
        class: 'puzzle-reason',
        text: T.bestIs(this.words(seat, a.best), reasonWords(a.themes, a.reason)),
      }),
    );
    if (a.estimate) this.result.append(h('p', { class: 'review-estimate', text: T.estimate }));
    this.result.append(h('ul', { class: 'puzzle-moves', 'aria-label': T.every }, ...items));
  }

  /** The answer's area, for the screen to add its own lines (rating, streak) and buttons. */
  addToResult(...els: (HTMLElement | null)[]): void {
    for (const el of els) if (el) this.result.append(el);
  }
}
