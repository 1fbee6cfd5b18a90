// The read-only screens: the leaderboard, a player's match history, and "not found".

import { shareGame } from './share_game.ts';
import { PUZZLE_TEXT } from '../logic/puzzles.ts';
import { historyHash, mistakesHash, profileHash, replayHash, type Route } from '../logic/route.ts';
import { historyAccuracyText, historyHow } from '../logic/history.ts';
import { signed } from '../logic/status.ts';
import type { MatchRow } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h, setText } from './dom.ts';

const noop: View = { destroy() {} };

export function mountLeaderboard(_app: App, root: HTMLElement, _route: Route): View {
  const body = h('tbody', {});
  const note = h('p', { class: 'hint', text: 'Loading…' });
  root.append(
    h(
      'section',
      { class: 'card wide' },
      h('h1', { text: 'Leaderboard' }),
      h(
        'table',
        { class: 'list leaderboard' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { text: '#' }),
            h('th', { text: 'Player' }),
            h('th', { text: 'ELO' }),
            h('th', { text: 'Games' }),
            h('th', { text: 'Wins' }),
          ),
        ),
        body,
      ),
      note,
    ),
  );
  api
    .leaderboard()
    .then(({ players }) => {
      body.replaceChildren(
        ...players.map((p) =>
          h(
            'tr',
            {},
            h('td', { text: p.rank }),
            h('td', {}, h('a', { href: historyHash(p.username), text: p.username })),
            h('td', { text: p.rating }),
            h('td', { text: p.games }),
            h('td', { text: p.wins }),
          ),
        ),
      );
      setText(note, players.length ? '' : 'Nobody has played a rated game yet.');
    })
    .catch((e) => setText(note, `Could not load the leaderboard: ${errorText(e)}`));
  return noop;
}

/** One game of the history; on a phone, a small card (history.css). */
function historyRow(m: MatchRow, who: string): HTMLElement {
  return h(
    'tr',
    { 'data-game': m.id, class: m.result ?? '' },
    h('td', { class: 'when', text: fmtDate(m.finished_at) }),
    h('td', { class: 'rules', text: m.rules_name ?? m.rules }),
    h('td', { class: 'opponent', text: m.opponent ?? m.players.join(' vs ') }),
    h('td', {
      class: 'result',
      text: m.result === 'win' ? 'Won' : m.result === 'loss' ? 'Lost' : '',
    }),
    h('td', { class: 'how', text: historyHow(m, who) }),
    h('td', {
      class: 'elo',
      text: m.rated && m.rating_change !== undefined ? signed(m.rating_change) : 'unrated',
    }),
    h('td', { class: 'accuracy', text: historyAccuracyText(m, who) }),
    h(
      'td',
      {},
      h('a', { class: 'button', href: replayHash(m.id), text: 'Replay' }),
      // A player's own games: their mistakes become puzzles (mistakes_page.ts).
      m.you
        ? h('a', {
            class: 'button',
            href: mistakesHash(m.id, m.you),
            'data-action': 'learn-mistakes',
            text: PUZZLE_TEXT.learnShort,
          })
        : null,
      shareGame(m.id),
    ),
  );
}

export function mountHistory(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'history') return noop;
  // On the player's own page "You"; the bot switch is on the profile page (profile.ts).
  const own = app.identity.kind === 'user' && app.identity.user.username === route.user;
  const who = own ? 'You' : route.user;
  const title = h('h1', { text: `Match history — ${route.user}` });
  const summary = h('p', { class: 'hint' });
  const body = h('tbody', {});
  const note = h('p', { class: 'hint', text: 'Loading…' });
  root.append(
    h(
      'section',
      { class: 'card wide' },
      title,
      summary,
      h(
        'p',
        {},
        h('a', { href: profileHash(route.user), text: 'Profile and ratings per rule set' }),
      ),
      h(
        'table',
        { class: 'list history' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { text: 'Finished' }),
            h('th', { text: 'Rules' }),
            h('th', { text: 'Opponent' }),
            h('th', { text: 'Result' }),
            h('th', { text: 'How' }),
            h('th', { text: 'ELO' }),
            h('th', {
              text: 'Accuracy',
              title: `${own ? 'Yours' : `${route.user}’s`}, then the opponent’s, from the review`,
            }),
            h('th', { text: '' }),
          ),
        ),
        body,
      ),
      note,
    ),
  );
  api
    .matches(route.user)
    .then(({ user, matches }) => {
      setText(title, `Match history — ${user.username}`);
      const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
      setText(
        summary,
        `ELO ${user.rating} · ${plural(user.games, 'game')} · ${plural(user.wins, 'win')}`,
      );
      body.replaceChildren(...matches.map((m) => historyRow(m, who)));
      setText(note, matches.length ? '' : 'No finished games yet.');
    })
    .catch((e) => setText(note, `Could not load the history: ${errorText(e)}`));
  return noop;
}

export function mountNotFound(_app: App, root: HTMLElement, _route: Route): View {
  root.append(
    h(
      'section',
      { class: 'card' },
      h('h1', { text: 'Nothing here' }),
      h('p', { text: 'This address does not lead to a screen of the game.' }),
      h('a', { class: 'button primary', href: '#/lobby', text: 'Go to the lobby' }),
    ),
  );
  return noop;
}
