// The puzzles screen's words and rules (docs/puzzles.md; GET /api/puzzles/*, and a game's
// mistakes: GET /api/games/<id>/mistakes). Every text the screen shows is in PUZZLE_TEXT, read
// from the catalog (lang/<code>/puzzles.ts) when shown, so a language switch redraws it in the
// new one. Pure, unit-tested; the screen is ui/puzzles_page.ts.

import { t } from './i18n.ts';
import { known } from './known.ts';
import { gradeWord, pct } from './review.ts';
import type { SeatNo } from './types.ts';

/** The themes of docs/puzzles.md, in its order, with the filter's names for them. */
export const THEME_IDS = [
  'capture',
  'escape',
  'rosette',
  'blockade',
  'entering',
  'race',
  'bear-off',
  'safety',
] as const;

export const themeName = (id: string) => known(`theme.${id}`) ?? id;

/**
 * The one-line reason of an answer, from its first theme ("it hits an enemy piece"), in the
 * player's language; the server's English line only for a theme the client does not know.
 */
export function reasonWords(themes: readonly string[], serverReason: string): string {
  if (!themes.length) return t('why.none');
  return known(`why.${themes[0]}`) ?? serverReason;
}

export const PUZZLE_TEXT = {
  get title() {
    return t('puzzle.title');
  },
  get intro() {
    return t('puzzle.intro');
  },
  get find() {
    return t('puzzle.find');
  },
  toMove: (side: string, squares: number) => t('puzzle.toMove', { side, count: squares }),
  side: (seat: SeatNo) => t(seat === 1 ? 'seat.light' : 'seat.dark'),
  get rules() {
    return t('puzzle.rules');
  },
  get theme() {
    return t('puzzle.theme');
  },
  get anyTheme() {
    return t('puzzle.anyTheme');
  },
  get modeRated() {
    return t('puzzle.modeRated');
  },
  get modeStreak() {
    return t('puzzle.modeStreak');
  },
  get modeDaily() {
    return t('puzzle.modeDaily');
  },
  get right() {
    return t('puzzle.right');
  },
  get wrong() {
    return t('puzzle.wrong');
  },
  bestIs: (move: string, reason: string) => t('puzzle.bestIs', { move, reason }),
  get yours() {
    return t('puzzle.yours');
  },
  get every() {
    return t('puzzle.every');
  },
  get best() {
    return t('puzzle.best');
  },
  chance: (v: number) => t('puzzle.chance', { pct: pct(v) }),
  get next() {
    return t('puzzle.next');
  },
  get again() {
    return t('puzzle.again');
  },
  streak: (n: number) => t('puzzle.streak', { count: n }),
  streakOver: (n: number) => t('puzzle.streakOver', { count: n }),
  daily: (date: string) => t('puzzle.daily', { date }),
  get dailyDone() {
    return t('puzzle.dailyDone');
  },
  get guest() {
    return t('puzzle.guest');
  },
  rating: (rating: number, solved: number, attempts: number) =>
    t('puzzle.rating', { rating, solved, attempts }),
  change: (d: number) => t('puzzle.change', { change: `${d >= 0 ? '+' : '\u2212'}${Math.abs(d)}` }),
  get notRated() {
    return t('puzzle.notRated');
  },
  puzzleRating: (rating: number) => t('puzzle.puzzleRating', { rating }),
  get history() {
    return t('puzzle.history');
  },
  get noHistory() {
    return t('puzzle.noHistory');
  },
  get solvedMark() {
    return t('puzzle.solvedMark');
  },
  get missedMark() {
    return t('puzzle.missedMark');
  },
  get noneLeft() {
    return t('puzzle.noneLeft');
  },
  get noRules() {
    return t('puzzle.noRules');
  },
  failed: (why: string) => t('puzzle.failed', { why }),
  get busy() {
    return t('puzzle.busy');
  },
  // Learn from your mistakes (a reviewed game's mistakes and blunders, in game order).
  get mistakesTitle() {
    return t('mistakes.title');
  },
  mistakeOf: (n: number, total: number) => t('mistakes.of', { n, total }),
  played: (move: string, grade: string) => t('mistakes.played', { move, grade: gradeWord(grade) }),
  get noMistakes() {
    return t('mistakes.none');
  },
  mistakesDone: (right: number, total: number) => t('mistakes.done', { right, total }),
  get nextMistake() {
    return t('mistakes.next');
  },
  get toReview() {
    return t('mistakes.toReview');
  },
  get toPuzzles() {
    return t('puzzle.title');
  },
  learn: (name: string, n: number) => t('mistakes.learn', { name, count: n }),
  get learnShort() {
    return t('mistakes.short');
  },
  get estimate() {
    return t('puzzle.estimate');
  },
};

/** A move as the API writes it, "FROM->TO" (path indices), or null for any other text. */
export function parseMoveText(text: string): { from: number; to: number } | null {
  const m = /^(-?\d+)->(\d+)$/.exec(text);
  return m ? { from: Number(m[1]), to: Number(m[2]) } : null;
}

/** The squares a throw moves, from the rule set's dice (the raw throw when they do not say). */
export function throwSquares(dice: { throws: { move: number }[] }, raw: number): number {
  return dice.throws[raw]?.move ?? raw;
}

/** The moves of an answer, best first (then by chance): what the list under the board shows. */
export function rankMoves<T extends { move: string; value: number }>(
  moves: T[],
  best: string,
): T[] {
  return [...moves].sort(
    (a, b) => Number(b.move === best) - Number(a.move === best) || b.value - a.value,
  );
}

/** A streak: solved in a row until the first miss, which ends it (a new one starts at 0). */
export interface Streak {
  count: number;
  over: boolean;
}

export function streakAfter(s: Streak, correct: boolean): Streak {
  if (s.over) return s;
  return correct ? { count: s.count + 1, over: false } : { count: s.count, over: true };
}

/** The most mistakes a game gives a seat (the server's kMaxMistakes: its costliest ten). */
export const MAX_MISTAKES = 10;

/**
 * How many of each seat's mistakes and blunders (a review's moves) become puzzles: all of them
 * up to MAX_MISTAKES, what the mistakes page then shows.
 */
export function mistakeCounts(moves: { seat: SeatNo; grade: string }[]): Record<SeatNo, number> {
  const n: Record<SeatNo, number> = { 1: 0, 2: 0 };
  for (const m of moves) if (m.grade === 'mistake' || m.grade === 'blunder') n[m.seat]++;
  return { 1: Math.min(n[1], MAX_MISTAKES), 2: Math.min(n[2], MAX_MISTAKES) };
}
