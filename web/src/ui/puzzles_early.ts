// A cold start on the puzzle page (#/puzzles…): its first puzzle is asked for at once, beside the
// page's script, and the board of its rule set with it (at once when the address names it; else
// the server chooses, and its answer carries the rule set), instead of one after another once
// the script has loaded. The page's own calls take the answers (net/api.ts,
// askEarly). In the first script.

import type { Route } from '../logic/route.ts';
import { askEarly, keepRules, puzzlePath, rulesFor, type PuzzleAsked } from '../net/api.ts';

/** On the puzzle page, asks for what its first screen needs; elsewhere does nothing. */
export function askPuzzlesEarly(route: Route): void {
  if (route.name !== 'puzzles') return;
  const rules = route.rules ?? '';
  if (rules) rulesFor(rules).catch(() => {}); // said by the page if it fails again
  // Where the server chooses, its answer carries the rule set (the page asks the same way).
  askEarly<PuzzleAsked>(puzzlePath(route.mode, rules, route.theme ?? '', !rules)).then(
    (a) => {
      if (a.rules_info) keepRules(a);
      else rulesFor(a.puzzle.rules).catch(() => {});
    },
    () => {}, // said by the page
  );
}
