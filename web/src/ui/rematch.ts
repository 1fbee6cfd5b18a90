// "Play again" at the end of a game. Against the computer: a new table at once (same rule set,
// level and seat). Pass and play: a new table at once, the two names on the other colours. Against
// a person: the server's rematch — offered to the opponent, who accepts or declines on their
// banner; when both agree the server makes a new table with the colours swapped and both pages
// move there (table_page.ts follows the `rematch` event). A spectator is offered the rematch to
// watch, or a game of their own.

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
          label: 'Watch the rematch',
          action: 'watch-rematch',
          run: () => void (window.location.hash = tableHash(next)),
        },
      ],
      note: 'The players started a rematch.',
    };
  const own = async () => {
    await app.ensureIdentity();
    await open(app, { rules: snap.rules, level: FIRST_GAME_LEVEL, seat: 1, public: true });
  };
  return {
    actions: [{ label: 'Play the computer', action: 'play-yourself', run: () => run(own()) }],
    note: 'The game is over. Play one yourself, or find another to watch in the lobby.',
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
      actions: [{ label: 'Play again', action: 'play-again', run: () => run(open(app, fields)) }],
      note: 'Play again swaps the colours.',
    };
  }
  if (you === null) return spectatorActions(app, snap, run);
  const bot = rematchOf(snap, you);
  if (bot)
    return {
      actions: [
        {
          label: 'Play again',
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
    return { actions: [], note: `${name} left the table.` };
  const r = snap.rematch;
  if (r?.table) return { actions: [], note: 'The rematch has started.' };
  const ask = (accept: boolean) => () =>
    run(app.socket.request('rematch', { table: snap.id, accept }));
  if (r?.offers.includes(you))
    return { actions: [], note: `Rematch offered: waiting for ${name}…` };
  if (r?.offers.includes(them))
    return {
      actions: [
        { label: 'Accept rematch', action: 'accept-rematch', run: ask(true) },
        { label: 'Decline', action: 'decline-rematch', run: ask(false) },
      ],
      note: `${name} offers a rematch, colours swapped.`,
    };
  return {
    actions: [{ label: 'Play again', action: 'play-again', run: ask(true) }],
    note:
      r?.declined === them
        ? `${name} declined the rematch.`
        : `Play again offers ${name} a rematch, colours swapped.`,
  };
}
