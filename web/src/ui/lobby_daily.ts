// The lobby's daily puzzle (GET /api/puzzles/daily; docs/puzzles.md): the day's puzzle of Finkel,
// or of the first rule set with puzzles when Finkel has none here (the server's choice), with a
// link that opens it on the puzzles screen. Hidden where no rule set has puzzles. Its words are the catalog's `daily.*`.

import { t } from '../logic/i18n.ts';
import { rulesName } from '../logic/known.ts';
import { puzzlesHash } from '../logic/route.ts';
import { puzzleRuleSets } from '../logic/status.ts';
import type { PresetSummary } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { h, setText } from './dom.ts';

export function dailyCard(): { el: HTMLElement; load: (presets: PresetSummary[]) => void } {
  const line = h('p', { class: 'daily-line' });
  const solve = h('a', {
    class: 'button primary',
    'data-action': 'daily-puzzle',
    text: t('daily.solve'),
  });
  const el = h(
    'section',
    { class: 'card daily-puzzle', hidden: true },
    h('h2', { text: t('daily.title') }),
    line,
    h('p', { class: 'row' }, solve, ' ', h('a', { href: '#/puzzles', text: t('daily.more') })),
  );
  const load = (presets: PresetSummary[]) => {
    // Puzzles come from tables: a server without one has none to ask for. Else the server
    // chooses the rule set (Finkel where it has puzzles) and the puzzle says which.
    if (!puzzleRuleSets(presets).length) return;
    api.puzzleDaily().then(
      ({ puzzle }) => {
        const id = puzzle.rules;
        const name = rulesName(id, presets.find((p) => p.id === id)?.name ?? id);
        setText(line, t('daily.line', { rules: name, rating: puzzle.rating }));
        solve.href = puzzlesHash('daily', id, '');
        el.hidden = false;
      },
      () => {}, // no puzzle of it yet: the card stays hidden
    );
  };
  return { el, load };
}
