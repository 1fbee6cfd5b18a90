// Puzzles (#/puzzles, #/puzzles/streak, #/puzzles/daily; docs/puzzles.md): the filters (rule set,
// theme), the modes (rated puzzles near the player's rating, a streak until the first miss, the
// day's puzzle), the solver (puzzle_solver.ts) and, for an account, its puzzle rating and latest
// attempts. Guests solve unrated. Its words are logic/puzzles.ts's PUZZLE_TEXT.

import {
  PUZZLE_TEXT as T,
  streakAfter,
  THEME_IDS,
  themeName,
  type Streak,
} from '../logic/puzzles.ts';
import { rulesName } from '../logic/known.ts';
import { puzzlesHash, type Route } from '../logic/route.ts';
import { puzzleRuleSets } from '../logic/status.ts';
import { api, ApiError, rulesFor, type PuzzleMe, type PuzzleQuestion } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import { PuzzleSolver, type PuzzleSource, type Question } from './puzzle_solver.ts';

type PuzzleRoute = Extract<Route, { name: 'puzzles' }>;

const asQuestion = (p: PuzzleQuestion, caption: string): Question => ({
  key: p.id,
  rules: p.rules,
  position: p.position,
  throw: p.throw,
  moves: p.moves,
  caption,
});

type Asked = Promise<Question | null>;

/**
 * The day's puzzle or the next rated one of the filters. '' rules: the server's choice, whose
 * answer carries the rule set too (the board is drawn without asking for it).
 */
async function ask(daily: boolean, rules: string, theme: string): Asked {
  try {
    if (daily) {
      const d = await api.puzzleDaily(rules, !rules);
      return { ...asQuestion(d.puzzle, T.daily(d.date)), daily: true };
    }
    const { puzzle } = await api.puzzleNext(rules, theme, !rules);
    return asQuestion(puzzle, T.puzzleRating(puzzle.rating));
  } catch (e) {
    if (e instanceof ApiError && e.code === 'not_found') return null; // none left
    throw e;
  }
}

/** The first puzzle (the day's in daily mode), then the rated puzzles of the filters. */
function puzzleSource(rules: string, theme: string, first: Asked): PuzzleSource {
  let pending: Asked | null = first;
  return {
    next() {
      const next = pending ?? ask(false, rules, theme);
      pending = null;
      return next;
    },
    attempt: (q, move) => api.puzzleAttempt(q.key, move),
  };
}

function select(label: string, action: string): HTMLSelectElement {
  return h('select', { 'aria-label': label, 'data-action': action });
}

/** The rule-set and theme filters and the mode links; a change opens the new address. */
function filterBar(app: App, route: PuzzleRoute, rules: string, theme: string, empty: HTMLElement) {
  const rulesPick = select(T.rules, 'puzzle-rules');
  rulesPick.append(h('option', { value: rules, text: rulesName(rules, rules) }));
  const themePick = select(T.theme, 'puzzle-theme');
  themePick.append(h('option', { value: '', text: T.anyTheme }));
  for (const id of THEME_IDS)
    themePick.append(h('option', { value: id, text: themeName(id), selected: id === theme }));
  const go = (mode: PuzzleRoute['mode']) =>
    (window.location.hash = puzzlesHash(mode, rulesPick.value, themePick.value));
  rulesPick.addEventListener('change', () => go(route.mode === 'daily' ? 'rated' : route.mode));
  themePick.addEventListener('change', () => go(route.mode === 'daily' ? 'rated' : route.mode));
  app.presets().then(
    (list) => {
      const solved = puzzleRuleSets(list);
      if (!solved.length) setText(empty, T.noRules);
      rulesPick.replaceChildren(
        ...solved.map((p) =>
          h('option', { value: p.id, text: rulesName(p.id, p.name), selected: p.id === rules }),
        ),
      );
      if (!solved.some((p) => p.id === rules))
        rulesPick.prepend(h('option', { text: rulesName(rules, rules) }));
      rulesPick.value = rules;
    },
    () => {},
  );
  const mode = (m: PuzzleRoute['mode'], text: string) =>
    h('a', {
      href: puzzlesHash(m, rules, theme),
      class: `puzzle-mode${route.mode === m ? ' current' : ''}`,
      'aria-current': route.mode === m ? 'page' : null,
      'data-mode': m,
      text,
    });
  return h(
    'div',
    { class: 'row puzzle-filters' },
    h(
      'nav',
      { class: 'puzzle-modes', 'aria-label': T.title },
      mode('rated', T.modeRated),
      mode('streak', T.modeStreak),
      mode('daily', T.modeDaily),
    ),
    h('label', {}, `${T.rules} `, rulesPick),
    h('label', {}, `${T.theme} `, themePick),
  );
}

/** An account's puzzle rating and latest attempts; a guest is told what an account keeps. */
function mePanel(app: App) {
  const line = h('p', { class: 'puzzle-me' });
  const list = h('ol', { class: 'puzzle-history', 'aria-label': T.history });
  const el = h('section', { class: 'puzzle-side' }, line, h('h2', { text: T.history }), list);
  const row = (r: NonNullable<PuzzleMe['history']>[number]) =>
    h(
      'li',
      { class: r.solved ? 'solved' : 'missed' },
      `${rulesName(r.rules, r.rules)} · ${r.solved ? T.solvedMark : T.missedMark} · ${r.rating} `,
      h('span', { class: 'hint', text: T.change(r.change) }),
    );
  const draw = (me: PuzzleMe) => {
    if (!me.rating) return;
    setText(line, T.rating(me.rating.rating, me.rating.solved, me.rating.attempts));
    list.replaceChildren(...(me.history ?? []).map(row));
    if (!list.children.length) list.append(h('li', { class: 'hint', text: T.noHistory }));
  };
  const load = () => {
    const user = app.identity.kind === 'user';
    el.classList.toggle('guest', !user);
    for (const child of [...el.children].slice(1)) (child as HTMLElement).hidden = !user;
    if (!user) return setText(line, T.guest);
    api.puzzleMe().then(draw, (e) => setText(line, errorText(e)));
  };
  return { el, load };
}

export function mountPuzzles(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'puzzles') return { destroy() {} };
  const theme = route.theme && THEME_IDS.some((id) => id === route.theme) ? route.theme : '';
  // The first puzzle is asked for at once (on a cold start, before this script came:
  // puzzles_early.ts). Where the address names no rule set the server chooses, and the puzzle
  // says which: the screen is drawn for it then.
  const first = ask(route.mode === 'daily', route.rules ?? '', theme);
  if (route.rules) return { destroy: mountWith(app, root, route, route.rules, theme, first) };
  let gone = false;
  const view: View = {
    destroy() {
      gone = true;
    },
  };
  const mount = (rules: string) => {
    if (!gone) view.destroy = mountWith(app, root, route, rules, theme, first);
  };
  first.then(
    (q) => mount(q?.rules ?? 'finkel'),
    () => mount('finkel'),
  ); // the solver says why
  return { destroy: () => view.destroy() };
}

/** The screen for one rule set; returns what ends it. */
function mountWith(
  app: App,
  root: HTMLElement,
  route: PuzzleRoute,
  rules: string,
  theme: string,
  first: Asked,
): () => void {
  // The board's rule set is fetched beside the first puzzle, not after it (a daily or a
  // learn-from-your-mistakes puzzle of another rule set fetches its own when it comes).
  rulesFor(rules).catch(() => {});
  const empty = h('p', { class: 'puzzle-empty', role: 'status' });
  const streakLine = h('p', { class: 'puzzle-streak', 'aria-live': 'polite' });
  const me = mePanel(app);
  let streak: Streak = { count: 0, over: false };
  const solver = new PuzzleSolver(
    puzzleSource(rules, theme, first),
    (q, a) => {
      if (a.rating) me.load();
      if (q.daily) solver.addToResult(h('p', { class: 'hint', text: T.dailyDone }));
      if (route.mode === 'streak') {
        streak = streakAfter(streak, a.correct);
        setText(streakLine, streak.over ? T.streakOver(streak.count) : T.streak(streak.count));
        setText(solver.nextButton, streak.over ? T.again : T.next);
      }
      if (a.rated && a.change !== undefined)
        solver.addToResult(h('p', { class: 'puzzle-change', text: T.change(a.change) }));
      else if (app.identity.kind === 'user' && a.rated === false)
        solver.addToResult(h('p', { class: 'hint', text: T.notRated }));
      solver.addToResult(h('p', { class: 'row' }, solver.nextButton));
    },
    (why) => {
      setText(empty, why);
      solver.el.hidden = true;
    },
  );
  onClick(solver.nextButton, () => {
    if (!streak.over) return;
    streak = { count: 0, over: false };
    setText(streakLine, T.streak(0));
  });
  if (route.mode === 'streak') setText(streakLine, T.streak(0));
  root.append(
    h(
      'section',
      {
        class: `replay puzzles mode-${route.mode}`,
        'data-mode': route.mode,
        'data-rules': rules,
        'data-theme': theme,
      },
      h('h1', { text: T.title }),
      h('p', { class: 'hint', text: T.intro }),
      filterBar(app, route, rules, theme, empty),
      streakLine,
      empty,
      h('div', { class: 'puzzle-layout' }, solver.el, me.el),
    ),
  );
  me.load();
  const off = app.onIdentity(me.load);
  void solver.advance();
  return () => {
    solver.gone = true;
    off();
  };
}
