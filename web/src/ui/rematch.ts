// "Play again" after a game against the computer: a new table at once, same rule set, same level,
// same seat. (A rematch offered to a human opponent needs the server's help and is not here yet.)

import { tableHash } from '../logic/route.ts';
import type { SeatNo, Snapshot } from '../logic/types.ts';
import type { App } from './app.ts';

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

export async function playAgain(
  app: App,
  opts: { rules: string; level: string; seat: SeatNo },
): Promise<void> {
  const ans = await app.socket.request('create_table', { ...opts, public: true });
  window.location.hash = tableHash((ans.table as { id: string }).id);
}

/** The banner's "Play again" action for this game, or null when there is none. */
export function playAgainAction(
  app: App,
  snap: Snapshot,
  you: SeatNo | null,
  onError: (e: unknown) => void,
): (() => void) | null {
  const again = rematchOf(snap, you);
  return again ? () => void playAgain(app, again).catch(onError) : null;
}
