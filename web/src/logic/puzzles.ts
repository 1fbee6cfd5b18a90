// The puzzles screen's words and rules (docs/puzzles.md; GET /api/puzzles/*, and a game's
// mistakes: GET /api/games/<id>/mistakes). Every text the screen shows is in PUZZLE_TEXT, so a
// translation moves one table. Pure, unit-tested; the screen is ui/puzzles_page.ts.

import { pct } from './review.ts';
import type { SeatNo } from './types.ts';

/** The themes of docs/puzzles.md, in its order, with the filter's names for them. */
export const THEMES: Record<string, string> = {
  capture: 'Capture',
  escape: 'Escape',
  rosette: 'Rosette',
  blockade: 'Blockade',
  entering: 'Entering',
  race: 'Race',
  'bear-off': 'Bearing off',
  safety: 'Safety',
};

export const PUZZLE_TEXT = {
  title: 'Puzzles',
  intro: 'Every answer is proven by a solved table: the exact winning chance of every move.',
  find: 'Find the best move',
  toMove: (side: string, squares: number) =>
    `${side} to move · the throw: ${squares === 1 ? '1 square' : `${squares} squares`}`,
  sides: { 1: 'Light', 2: 'Dark' } as Record<SeatNo, string>,
  rules: 'Rule set',
  theme: 'Theme',
  anyTheme: 'Any theme',
  modeRated: 'Puzzles',
  modeStreak: 'Streak',
  modeDaily: 'Daily puzzle',
  right: 'Right: the best move.',
  wrong: 'Not the best move.',
  bestIs: (words: string, reason: string) => `The best move is ${words}: ${reason}.`,
  yours: 'your move',
  every: 'Every move',
  best: 'best',
  chance: (v: number) => `${pct(v)} to win`,
  next: 'Next puzzle',
  again: 'Start a new streak',
  streak: (n: number) => `Streak: ${n}`,
  streakOver: (n: number) =>
    `Streak over: ${n} solved in a row. The best move is shown on the board.`,
  daily: (date: string) => `The puzzle of ${date}`,
  dailyDone: 'That was the daily puzzle: more puzzles follow.',
  guest: 'Solving as a guest: log in to keep a puzzle rating and a history.',
  rating: (r: number, solved: number, attempts: number) =>
    `Your puzzle rating: ${r} · ${solved} of ${attempts} solved`,
  change: (d: number) => `Rating ${d >= 0 ? '+' : '\u2212'}${Math.abs(d)}`,
  notRated: 'Already attempted: not rated again.',
  puzzleRating: (r: number) => `Puzzle rating ${r}`,
  history: 'Your recent puzzles',
  noHistory: 'No puzzle attempted yet.',
  solvedMark: 'solved',
  missedMark: 'missed',
  noneLeft: 'No puzzle left for these filters: choose another rule set or theme.',
  noRules: 'No rule set has puzzles on this server yet: they are made once a table is solved.',
  failed: (why: string) => `Could not load a puzzle: ${why}`,
  busy: 'Checking…',
  // Learn from your mistakes (a reviewed game's mistakes and blunders, in game order).
  mistakesTitle: 'Learn from your mistakes',
  mistakeOf: (n: number, total: number) => `Mistake ${n} of ${total}`,
  played: (words: string, grade: string) => `You played ${words} (a ${grade}): find better.`,
  noMistakes: 'No mistake or blunder in this game: nothing to learn from here.',
  mistakesDone: (right: number, total: number) =>
    `Done: ${right} of ${total} found. Back to the game's review, or on to puzzles.`,
  nextMistake: 'Next mistake',
  toReview: 'Back to the review',
  toPuzzles: 'Puzzles',
  learn: (name: string, n: number) =>
    `${name}: learn from ${n === 1 ? '1 mistake' : `${n} mistakes`}`,
  learnShort: 'Learn from mistakes',
  estimate: 'Estimated: this rule set has no solved table here, so the chances come from search.',
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

/** How many mistakes and blunders each seat made (a review's moves): what a game teaches. */
export function mistakeCounts(moves: { seat: SeatNo; grade: string }[]): Record<SeatNo, number> {
  const n: Record<SeatNo, number> = { 1: 0, 2: 0 };
  for (const m of moves) if (m.grade === 'mistake' || m.grade === 'blunder') n[m.seat]++;
  return n;
}
