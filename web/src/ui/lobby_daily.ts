// The lobby's daily puzzle (GET /api/puzzles/daily; docs/puzzles.md): the day's puzzle of Finkel,
// or of the first rule set with puzzles when Finkel has none here, with a link that opens it on
// the puzzles screen. Hidden where no rule set has puzzles. Its words are DAILY_TEXT.

import { puzzlesHash } from '../logic/route.ts';
import type { PresetSummary } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { h, setText } from './dom.ts';

const DAILY_TEXT = {
  title: 'Daily puzzle',
  line: (rules: string, rating: number) =>
    `${rules} · rating ${rating}: find the best move, proven by a solved table.`,
  solve: 'Solve it',
  more: 'More puzzles',
};

export function dailyCard(): { el: HTMLElement; load: (presets: PresetSummary[]) => void } {
  const line = h('p', { class: 'daily-line' });
  const solve = h('a', {
    class: 'button primary',
    'data-action': 'daily-puzzle',
    text: DAILY_TEXT.solve,
  });
  const el = h(
    'section',
    { class: 'card daily-puzzle', hidden: true },
    h('h2', { text: DAILY_TEXT.title }),
    line,
    h('p', { class: 'row' }, solve, ' ', h('a', { href: '#/puzzles', text: DAILY_TEXT.more })),
  );
  const load = (presets: PresetSummary[]) => {
    const solved = presets.filter((p) => p.solved);
    const pick = solved.find((p) => p.id === 'finkel') ?? solved[0];
    if (!pick) return;
    api.puzzleDaily(pick.id).then(
      ({ puzzle }) => {
        setText(line, DAILY_TEXT.line(pick.name, puzzle.rating));
        solve.href = puzzlesHash('daily', pick.id, '');
        el.hidden = false;
      },
      () => {}, // no puzzle of it yet: the card stays hidden
    );
  };
  return { el, load };
}
