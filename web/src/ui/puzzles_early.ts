// A cold start on the puzzle page (#/puzzles…): the page's rule set, that rule set's board and
// its first puzzle are asked for at once, beside the page's script, instead of one after another
// once it has loaded (the page's own calls take the answers: net/api.ts, askEarly). In the first
// script, with the lobby's daily puzzle, which chooses its rule set the same way.

import type { Route } from '../logic/route.ts';
import type { PresetSummary } from '../logic/types.ts';
import { askEarly, puzzlePath, rulesFor } from '../net/api.ts';
import type { App } from './app.ts';

/** The puzzles' rule set when none is asked for: Finkel where it has a table, else the first. */
export function defaultPuzzleRules(presets: PresetSummary[]): PresetSummary | undefined {
  const solved = presets.filter((p) => p.solved);
  return solved.find((p) => p.id === 'finkel') ?? solved[0];
}

/** The rule set the puzzle page shows: the address's, else the default (Finkel if unknown). */
export async function puzzleRules(app: App, asked: string | null): Promise<string> {
  if (asked) return asked;
  try {
    return defaultPuzzleRules(await app.presets())?.id ?? 'finkel';
  } catch {
    return 'finkel';
  }
}

/** On the puzzle page, asks for what its first screen needs; elsewhere does nothing. */
export function askPuzzlesEarly(app: App, route: Route): void {
  if (route.name !== 'puzzles') return;
  void puzzleRules(app, route.rules).then((rules) => {
    rulesFor(rules).catch(() => {}); // said by the page if it fails again
    askEarly(puzzlePath(route.mode, rules, route.theme ?? ''));
  });
}
