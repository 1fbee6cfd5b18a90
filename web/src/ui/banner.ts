// The post-game banner: the winner, how the game ended, and per seat the pieces borne off, the
// captures, the rosettes landed and the rating change of a rated game.

import { ratingLine, reasonText, seatName } from '../logic/status.ts';
import type { SeatNo, Snapshot } from '../logic/types.ts';
import { howtoHash, replayHash } from '../logic/route.ts';
import { h } from './dom.ts';
import { pieceElement } from './board.ts';

export function buildBanner(
  snap: Snapshot,
  you: SeatNo | null,
  onClose: () => void,
  onPlayAgain: (() => void) | null = null,
): HTMLElement {
  const s = snap.summary!;
  const winner = seatName(snap.seats, s.winner);
  const title = you === null ? `${winner} wins!` : s.winner === you ? 'You win!' : 'You lose';
  const row = (label: string, cell: (seat: SeatNo) => string) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row', text: label }),
      h('td', { text: cell(1) }),
      h('td', { text: cell(2) }),
    );
  const stat = (seat: SeatNo, key: 'borne_off' | 'captures' | 'rosettes') =>
    String(s.seats.find((x) => x.seat === seat)?.[key] ?? 0);
  const rows = [
    row('Borne off', (seat) => stat(seat, 'borne_off')),
    row('Captures', (seat) => stat(seat, 'captures')),
    row('Rosettes landed', (seat) => stat(seat, 'rosettes')),
  ];
  if (s.score !== undefined)
    rows.push(row('Score', (seat) => (seat === s.winner ? String(s.score) : '0')));
  if (s.seats.some((x) => x.balance !== undefined))
    rows.push(row('Balance', (seat) => String(s.seats.find((x) => x.seat === seat)?.balance ?? 0)));
  rows.push(row('ELO', (seat) => ratingLine(s, seat) ?? (snap.rated ? '–' : 'unrated')));
  const head = (seat: SeatNo) =>
    h(
      'th',
      { scope: 'col', class: `s${seat}` },
      pieceElement(seat),
      ' ',
      seatName(snap.seats, seat),
      seat === s.winner ? h('span', { class: 'crown', title: 'Winner', text: ' ♛' }) : null,
    );
  const close = h('button', { type: 'button', 'data-action': 'close-banner', text: 'Show board' });
  close.addEventListener('click', onClose);
  const again = onPlayAgain
    ? h('button', {
        type: 'button',
        class: 'primary',
        'data-action': 'play-again',
        text: 'Play again',
      })
    : null;
  again?.addEventListener('click', onPlayAgain!);
  return h(
    'div',
    {
      class: `banner ${you === null ? '' : s.winner === you ? 'won' : 'lost'}`,
      role: 'dialog',
      'aria-label': 'Game over',
      'data-winner': s.winner,
    },
    h('h2', { class: 'banner-title', text: title }),
    h('p', {
      class: 'banner-reason',
      text: `${winner} wins — ${reasonText(s.reason)} · ${s.turns} ${s.turns === 1 ? 'turn' : 'turns'}`,
    }),
    h(
      'table',
      { class: 'banner-stats' },
      h('thead', {}, h('tr', {}, h('th', {}), head(1), head(2))),
      h('tbody', {}, ...rows),
    ),
    h(
      'div',
      { class: 'row center' },
      again,
      h('a', { class: 'button', href: replayHash(snap.id), text: 'Replay' }),
      h('a', {
        class: again ? 'button' : 'button primary',
        href: '#/lobby',
        text: 'Back to lobby',
      }),
      h('a', { class: 'button', href: howtoHash(snap.rules), text: 'How to play' }),
      close,
    ),
  );
}
