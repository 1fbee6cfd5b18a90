// The post-game banner: the winner, how the game ended, and per seat the pieces borne off, the
// captures, the rosettes landed and the rating change of a rated game; then what comes next
// (Play again, a rematch offered or to accept: rematch.ts).

import { t, type Key } from '../logic/i18n.ts';
import { shareGame } from './share_game.ts';
import { ratingLine, reasonText, seatName } from '../logic/status.ts';
import type { AnalysisAnswer, SeatNo, Snapshot } from '../logic/types.ts';
import { reviewLine } from '../logic/review.ts';
import { api } from '../net/api.ts';
import { howtoHash, replayHash } from '../logic/route.ts';
import { h, onClick } from './dom.ts';
import { pieceElement } from './board.ts';
import type { BannerAction } from './rematch.ts';

// One review a game: the banner is redrawn on every new version of a finished table.
const reviews = new Map<string, Promise<AnalysisAnswer>>();

/** "Review: alice accuracy 82.4, luck +12.0% · bob …" with its link, filled in when it comes. */
function reviewRow(snap: Snapshot): HTMLElement {
  const text = h('span', { text: t('banner.reviewing') });
  const row = h(
    'p',
    { class: 'banner-review', 'aria-live': 'polite' },
    text,
    ' ',
    h('a', { href: replayHash(snap.id), text: t('banner.review') }),
  );
  let review = reviews.get(snap.id);
  if (!review) reviews.set(snap.id, (review = api.analysis(snap.id)));
  const names = { 1: seatName(snap.seats, 1), 2: seatName(snap.seats, 2) };
  review.then(
    (a) => (text.textContent = reviewLine(a, names)),
    () => (reviews.delete(snap.id), (text.textContent = t('banner.noReview'))),
  );
  return row;
}

/** The banner's table rows: each seat's figures of the game, and the rating change. */
function statRows(snap: Snapshot): HTMLElement[] {
  const s = snap.summary!;
  const row = (label: Key, cell: (seat: SeatNo) => string) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row', text: t(label) }),
      h('td', { text: cell(1) }),
      h('td', { text: cell(2) }),
    );
  const stat = (seat: SeatNo, key: 'borne_off' | 'captures' | 'rosettes') =>
    String(s.seats.find((x) => x.seat === seat)?.[key] ?? 0);
  const rows = [
    row('banner.borneOff', (seat) => stat(seat, 'borne_off')),
    row('banner.captures', (seat) => stat(seat, 'captures')),
    row('banner.rosettes', (seat) => stat(seat, 'rosettes')),
  ];
  if (s.score !== undefined)
    rows.push(row('banner.score', (seat) => (seat === s.winner ? String(s.score) : '0')));
  if (s.seats.some((x) => x.balance !== undefined))
    rows.push(
      row('banner.balance', (seat) => String(s.seats.find((x) => x.seat === seat)?.balance ?? 0)),
    );
  rows.push(
    row('banner.elo', (seat) => ratingLine(s, seat) ?? (snap.rated ? '–' : t('banner.unrated'))),
  );
  return rows;
}

export function buildBanner(
  snap: Snapshot,
  you: SeatNo | null,
  onClose: () => void,
  after: { actions: BannerAction[]; note: string } = { actions: [], note: '' },
): HTMLElement {
  const s = snap.summary!;
  const winner = seatName(snap.seats, s.winner);
  const title =
    you === null
      ? t('log.win', { name: winner })
      : t(s.winner === you ? 'log.win.you' : 'banner.youLose');
  const rows = statRows(snap);
  const head = (seat: SeatNo) =>
    h(
      'th',
      { scope: 'col', class: `s${seat}` },
      pieceElement(seat),
      ' ',
      seatName(snap.seats, seat),
      seat === s.winner
        ? h('span', { class: 'crown', title: t('banner.winner'), text: ' ♛' })
        : null,
    );
  const close = h('button', {
    type: 'button',
    'data-action': 'close-banner',
    text: t('banner.showBoard'),
  });
  onClick(close, onClose);
  const buttons = after.actions.map((a, i) =>
    h('button', {
      type: 'button',
      class: i === 0 ? 'primary' : '',
      'data-action': a.action,
      text: a.label,
      onclick: a.run,
    }),
  );
  return h(
    'div',
    {
      class: `banner ${you === null ? '' : s.winner === you ? 'won' : 'lost'}`,
      role: 'dialog',
      'aria-label': t('table.status.over'),
      'data-winner': s.winner,
    },
    h('h2', { class: 'banner-title', text: title }),
    h('p', {
      class: 'banner-reason',
      text: t('banner.ended', {
        result: t('log.over', { name: winner, reason: reasonText(s.reason) }),
        turns: t('banner.turns', { count: s.turns }),
      }),
    }),
    h(
      'table',
      { class: 'banner-stats' },
      h('thead', {}, h('tr', {}, h('th', {}), head(1), head(2))),
      h('tbody', {}, ...rows),
    ),
    reviewRow(snap),
    shareGame(snap.id),
    after.note ? h('p', { class: 'banner-rematch', role: 'status', text: after.note }) : null,
    h(
      'div',
      { class: 'row center' },
      ...buttons,
      h('a', { class: 'button', href: replayHash(snap.id), text: t('banner.replay') }),
      h('a', {
        class: buttons.length ? 'button' : 'button primary',
        href: '#/lobby',
        text: t('banner.lobby'),
      }),
      h('a', { class: 'button', href: howtoHash(snap.rules), text: t('banner.howto') }),
      close,
    ),
  );
}
