// "Play again" at the end of a game. Against the computer: a new table at once (same rule set,
// level and seat). Pass and play: a new table at once, the two names on the other colours. Against
// a person: the server's rematch — offered to the opponent, who accepts or declines on their
// banner; when both agree the server makes a new table with the colours swapped and both pages
// move there (table_page.ts follows the `rematch` event). A spectator is offered the rematch to
// watch, or a game of their own.

import { t } from '../logic/i18n.ts';
import { otherSeat } from '../logic/geometry.ts';
import { tableHash } from '../logic/route.ts';
import { seatName } from '../logic/status.ts';
import type { SeatNo, Snapshot } from '../logic/types.ts';
import type { App } from './app.ts';
import { FIRST_GAME_LEVEL } from './lobby_play.ts';
import type { ClientMessages } from '../net/protocol.ts';

/** The new table's settings, or null when the game was not against the computer. */
export function rematchOf(
  snap: Snapshot,
  you: SeatNo | null,
): { rules: string; level: string; seat: SeatNo } | null {
  if (you === null) return null;
  const bot = snap.seats.find((s) => s.kind === 'bot');
  if (!bot?.level || bot.seat === you) return null;
  return { rules: snap.rules, level: bot.level, seat: you };
}

async function open(app: App, fields: ClientMessages['create_table']): Promise<void> {
  const ans = await app.socket.request('create_table', fields);
  window.location.hash = tableHash(ans.table.id);
}

export interface BannerAction {
  label: string;
  action: string;
  run: () => void;
}

/**
 * A spectator is never offered a rematch of a game they did not play: they may follow the
 * players' rematch once it has started (it keeps the table's visibility), else play a game of
 * their own at once — the computer, on this rule set (the banner also leads back to the lobby).
 */
function spectatorActions(
  app: App,
  snap: Snapshot,
  run: (p: Promise<unknown>) => void,
): { actions: BannerAction[]; note: string } {
  const next = snap.rematch?.table;
  if (next)
    return {
      actions: [
        {
          label: t('rematch.watch'),
          action: 'watch-rematch',
          run: () => void (window.location.hash = tableHash(next)),
        },
      ],
      note: t('rematch.started.players'),
    };
  const own = async () => {
    await app.ensureIdentity();
    await open(app, { rules: snap.rules, level: FIRST_GAME_LEVEL, seat: 1, public: true });
  };
  return {
    actions: [{ label: t('rematch.playComputer'), action: 'play-yourself', run: () => run(own()) }],
    note: t('rematch.spectatorNote'),
  };
}

/** What the banner offers after the game (buttons, first one primary) and a line saying where the
 * rematch stands. `you` is the viewer's seat (null for spectators and pass and play). */
export function bannerActions(
  app: App,
  snap: Snapshot,
  you: SeatNo | null,
  onError: (e: unknown) => void,
): { actions: BannerAction[]; note: string } {
  const none = { actions: [], note: '' };
  const run = (p: Promise<unknown>) => void p.catch(onError);
  if (snap.local) {
    const names = [2, 1].map((s) => seatName(snap.seats, s as SeatNo));
    const fields = { rules: snap.rules, local: true, names };
    return {
      actions: [
        { label: t('rematch.playAgain'), action: 'play-again', run: () => run(open(app, fields)) },
      ],
      note: t('rematch.swapNote'),
    };
  }
  if (you === null) return spectatorActions(app, snap, run);
  const bot = rematchOf(snap, you);
  if (bot)
    return {
      actions: [
        {
          label: t('rematch.playAgain'),
          action: 'play-again',
          run: () => run(open(app, { ...bot, public: true })),
        },
      ],
      note: '',
    };
  if (snap.seats.some((s) => s.kind === 'bot')) return none;
  const them = otherSeat(you);
  const name = seatName(snap.seats, them);
  if (snap.seats.find((s) => s.seat === them)?.left)
    return { actions: [], note: t('rematch.left', { name }) };
  const r = snap.rematch;
  if (r?.table) return { actions: [], note: t('rematch.started') };
  const ask = (accept: boolean) => () =>
    run(app.socket.request('rematch', { table: snap.id, accept }));
  if (r?.offers.includes(you)) return { actions: [], note: t('rematch.waiting', { name }) };
  if (r?.offers.includes(them))
    return {
      actions: [
        { label: t('rematch.accept'), action: 'accept-rematch', run: ask(true) },
        { label: t('rematch.decline'), action: 'decline-rematch', run: ask(false) },
      ],
      note: t('rematch.offered', { name }),
    };
  return {
    actions: [{ label: t('rematch.playAgain'), action: 'play-again', run: ask(true) }],
    note: r?.declined === them ? t('rematch.declined', { name }) : t('rematch.offer', { name }),
  };
}
