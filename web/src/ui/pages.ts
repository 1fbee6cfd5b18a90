// The read-only screens: the leaderboard, a player's match history, and "not found".

import { shareGame } from './share_game.ts';
import { PUZZLE_TEXT } from '../logic/puzzles.ts';
import { historyHash, mistakesHash, profileHash, replayHash, type Route } from '../logic/route.ts';
import { historyAccuracyText, historyHow, matchRulesName, opponentText } from '../logic/history.ts';
import { t } from '../logic/i18n.ts';
import { signed } from '../logic/status.ts';
import type { MatchRow } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { fmtDate, h, setText } from './dom.ts';

const noop: View = { destroy() {} };

export function mountLeaderboard(_app: App, root: HTMLElement, _route: Route): View {
  const body = h('tbody', {});
  const note = h('p', { class: 'hint', text: t('app.loading') });
  root.append(
    h(
      'section',
      { class: 'card wide' },
      h('h1', { text: t('nav.leaderboard') }),
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
            h('th', { text: t('leaderboard.player') }),
            h('th', { text: t('leaderboard.elo') }),
            h('th', { text: t('leaderboard.games') }),
            h('th', { text: t('leaderboard.wins') }),
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
      setText(note, players.length ? '' : t('leaderboard.empty'));
    })
    .catch((e) => setText(note, t('leaderboard.failed', { error: errorText(e) })));
  return noop;
}

/** One game of the history; on a phone, a small card (history.css). */
function historyRow(m: MatchRow, who: string | null): HTMLElement {
  return h(
    'tr',
    { 'data-game': m.id, class: m.result ?? '' },
    h('td', { class: 'when', text: fmtDate(m.finished_at) }),
    h('td', { class: 'rules', text: matchRulesName(m) }),
    h('td', { class: 'opponent', text: opponentText(m) }),
    h('td', {
      class: 'result',
      text: m.result === 'win' ? t('history.won') : m.result === 'loss' ? t('history.lost') : '',
    }),
    h('td', { class: 'how', text: historyHow(m, who) }),
    h('td', {
      class: 'elo',
      text:
        m.rated && m.rating_change !== undefined ? signed(m.rating_change) : t('history.unrated'),
    }),
    h('td', {
      class: 'accuracy',
      'data-label': t('history.accuracy'),
      text: historyAccuracyText(m, who),
    }),
    h(
      'td',
      {},
      h('a', { class: 'button', href: replayHash(m.id), text: t('history.replay') }),
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
  // On the player's own page "You" (null); the bot switch is on the profile page (profile.ts).
  const own = app.identity.kind === 'user' && app.identity.user.username === route.user;
  const who = own ? null : route.user;
  const title = h('h1', { text: t('history.title', { name: route.user }) });
  const summary = h('p', { class: 'hint' });
  const body = h('tbody', {});
  const note = h('p', { class: 'hint', text: t('app.loading') });
  root.append(
    h(
      'section',
      { class: 'card wide' },
      title,
      summary,
      h('p', {}, h('a', { href: profileHash(route.user), text: t('history.profile') })),
      h(
        'table',
        { class: 'list history' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { text: t('history.finished') }),
            h('th', { text: t('history.rules') }),
            h('th', { text: t('history.opponent') }),
            h('th', { text: t('history.result') }),
            h('th', { text: t('history.how') }),
            h('th', { text: t('leaderboard.elo') }),
            h('th', {
              text: t('history.accuracy'),
              title: own
                ? t('history.accuracyYours')
                : t('history.accuracyTheirs', { name: route.user }),
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
      setText(title, t('history.title', { name: user.username }));
      const games = t('history.games', { count: user.games });
      const wins = t('nav.wins', { count: user.wins });
      setText(summary, t('history.summary', { rating: String(user.rating), games, wins }));
      body.replaceChildren(...matches.map((m) => historyRow(m, who)));
      setText(note, matches.length ? '' : t('history.empty'));
    })
    .catch((e) => setText(note, t('history.failed', { error: errorText(e) })));
  return noop;
}

export function mountNotFound(_app: App, root: HTMLElement, _route: Route): View {
  root.append(
    h(
      'section',
      { class: 'card' },
      h('h1', { text: t('notFound.title') }),
      h('p', { text: t('notFound.text') }),
      h('a', { class: 'button primary', href: '#/lobby', text: t('notFound.lobby') }),
    ),
  );
  return noop;
}
