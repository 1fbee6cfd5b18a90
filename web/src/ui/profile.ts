// A player's profile (#/profile/<name>, GET /api/users/<name>/profile): the overall rating and
// one per rule set (a "?" while provisional, as lichess marks it), the rating over the recent
// rated games as a graph, games, wins, best win and average accuracy, and the last games as
// cards. The player's own profile also holds the bot-account switch (docs/server.md).

import { historyAccuracyText, historyHow, matchRulesName, opponentText } from '../logic/history.ts';
import { rulesName } from '../logic/known.ts';
import { num, t } from '../logic/i18n.ts';
import { historyHash, replayHash, type Route } from '../logic/route.ts';
import { signed } from '../logic/status.ts';
import type { MatchRow, ProfileAnswer } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { errorText, type App, type View } from './app.ts';
import { botAccountCard } from './bots.ts';
import { fmtDate, h, setText, svg } from './dom.ts';
import { friendBar } from './profile_friend.ts';

const noop: View = { destroy() {} };

// A provisional rating's "?" follows the number in every direction: the two are isolated as one
// left-to-right run (U+2066 … U+2069), or an Arabic page would show "?1200".
const ratingText = (rating: number, provisional: boolean) =>
  provisional ? `\u2066${rating}?\u2069` : `${rating}`;

function ratingsTable(p: ProfileAnswer): HTMLElement {
  if (!p.ratings.length) return h('p', { class: 'hint', text: t('profile.noRated') });
  const words = [t('profile.ruleSet'), t('profile.ratingHead')];
  words.push(t('leaderboard.games'), t('leaderboard.wins'));
  const head = words.map((text) => h('th', { text }));
  return h(
    'table',
    { class: 'list profile-ratings' },
    h('thead', {}, h('tr', {}, ...head)),
    h(
      'tbody',
      {},
      ...p.ratings.map((r) =>
        h(
          'tr',
          { 'data-rules': r.rules },
          h('td', { text: rulesName(r.rules, r.rules_name) }),
          h('td', {
            text: ratingText(r.rating, r.provisional),
            title: r.provisional ? t('profile.provisional') : '',
          }),
          h('td', { text: r.games }),
          h('td', { text: r.wins }),
        ),
      ),
    ),
  );
}

/** The overall rating after each rated game, oldest left, with its lowest and highest value. */
function ratingGraph(p: ProfileAnswer): Element {
  const pts = p.graph;
  if (pts.length < 2) return h('p', { class: 'hint', text: t('profile.graphLater') });
  const W = 320,
    H = 120,
    pad = 6;
  const lo = Math.min(...pts.map((q) => q.rating)),
    hi = Math.max(...pts.map((q) => q.rating));
  const span = Math.max(hi - lo, 1);
  const x = (i: number) => pad + (i * (W - 2 * pad)) / (pts.length - 1);
  const y = (r: number) => H - pad - ((r - lo) * (H - 2 * pad)) / span;
  const line = pts.map((q, i) => `${x(i).toFixed(1)},${y(q.rating).toFixed(1)}`).join(' ');
  const graph = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'rating-graph',
    role: 'img',
    'aria-label': t('profile.graphLabel', {
      count: pts.length,
      from: String(pts[0].rating),
      to: String(pts[pts.length - 1].rating),
    }),
  });
  graph.append(svg('polyline', { points: line, fill: 'none', 'stroke-width': 2 }));
  return h(
    'figure',
    { class: 'rating-figure' },
    h('div', { class: 'graph-axis' }, h('span', { text: hi }), h('span', { text: lo })),
    graph,
    h('figcaption', {
      class: 'hint',
      text: t('profile.graphCaption', { count: pts.length }),
    }),
  );
}

function gameCard(m: MatchRow, who: string | null): HTMLElement {
  const result =
    m.result === 'win' ? t('history.won') : m.result === 'loss' ? t('history.lost') : '';
  const change =
    m.rated && m.rating_change !== undefined ? signed(m.rating_change) : t('history.unrated');
  return h(
    'li',
    { class: `game-card ${m.result ?? ''}`, 'data-game': m.id },
    h(
      'div',
      { class: 'row spread' },
      h('strong', { class: 'result', text: result }),
      h('span', { class: 'hint', text: fmtDate(m.finished_at) }),
    ),
    h('div', {
      class: 'opponent',
      text: t('profile.vs', { name: opponentText(m) }),
    }),
    h('div', {
      class: 'hint',
      text: `${matchRulesName(m)} · ${historyHow(m, who)} · ${change}`,
    }),
    h('div', { class: 'hint', text: t('profile.accuracy', { text: historyAccuracyText(m, who) }) }),
    h('a', { class: 'button', href: replayHash(m.id), text: t('history.replay') }),
  );
}

function statsLine(p: ProfileAnswer): string {
  const r = p.recent;
  const parts = [t('nav.wins', { count: r.wins })];
  if (r.accuracy !== null) {
    const accuracy = num(r.accuracy, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    parts.push(t('profile.averageAccuracy', { accuracy, count: r.accuracy_games }));
  }
  return t('profile.last', { count: r.games, stats: parts.join(' · ') });
}

function render(p: ProfileAnswer, own: boolean, app: App): HTMLElement[] {
  const who = own ? null : p.user.username;
  const u = p.user;
  const best = p.recent.best_win;
  const head = h(
    'section',
    { class: 'card wide profile' },
    h('h1', { text: p.user.username }),
    own ? null : friendBar(app, p.user.username),
    h('p', {
      class: 'profile-rating',
      text: t('profile.rating', {
        rating: ratingText(u.rating, u.provisional),
        games: t('nav.games', { count: u.games }),
        wins: t('nav.wins', { count: u.wins }),
      }),
    }),
    h('p', { class: 'hint', text: t('profile.since', { date: fmtDate(u.created_at) }) }),
    h('p', { class: 'hint', text: statsLine(p) }),
    best
      ? h(
          'p',
          {},
          `${t('profile.bestWin')} `,
          h('a', {
            href: replayHash(best.id),
            text: `${best.opponent} (${best.rating}), ${rulesName(best.rules, best.rules_name)}`,
          }),
        )
      : null,
    h('h2', { text: t('profile.ratings') }),
    ratingsTable(p),
    h('h2', { text: t('profile.overTime') }),
    ratingGraph(p),
    h('h2', { text: t('profile.lastGames') }),
    p.games.length
      ? h('ul', { class: 'game-cards' }, ...p.games.map((m) => gameCard(m, who)))
      : h('p', { class: 'hint', text: t('history.empty') }),
    h('a', { href: historyHash(p.user.username), text: t('profile.allGames') }),
  );
  if (!own) return [head];
  const bot = botAccountCard();
  bot.classList.add('wide'); // as wide as the profile above it
  return [head, bot];
}

export function mountProfile(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'profile') return noop;
  const note = h('p', { class: 'hint', text: t('app.loading') });
  root.append(note);
  // Drawn again when the visitor's identity becomes known (a reloaded profile shows before the
  // server says who is looking) or changes: Follow, Challenge and Block are an account's.
  let shown: HTMLElement[] = [note];
  let profile: ProfileAnswer | null = null;
  let drawnFor = '';
  const draw = () => {
    const who = app.identity.kind === 'user' ? `user:${app.identity.user.username}` : '';
    if (!profile || !shown[0].isConnected || (shown[0] !== note && who === drawnFor)) return;
    drawnFor = who;
    const own = app.identity.kind === 'user' && app.identity.user.username === route.user;
    const next = render(profile, own, app);
    shown[0].replaceWith(...next);
    for (const el of shown.slice(1)) el.remove();
    shown = next;
  };
  const off = app.onIdentity(draw);
  api
    .profile(route.user)
    .then((p) => ((profile = p), draw()))
    .catch((e) => setText(note, t('profile.failed', { error: errorText(e) })));
  return { destroy: off };
}
