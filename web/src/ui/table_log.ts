// The move log of a table opened after its game began — a reload, a reconnect, a spectator
// arriving, a finished game opened again — is written from the game's record (GET
// /api/games/<id>/record): the moves played, then the result, in the words the live log uses.
// The record is used only when it matches the snapshot drawn (the same number of events), so no
// line is missed or written twice; otherwise it is asked for again after the next snapshot.

import { logLine } from '../logic/plan.ts';
import { recordTableEvents } from '../logic/replay.ts';
import type { SeatNo, TableEvent } from '../logic/types.ts';
import { api } from '../net/api.ts';
import { nameOf, type LogFill, type TableState } from './table_state.ts';

const TRIES = 5;

export const newLogFill = (): LogFill => ({ done: false, busy: false, tries: TRIES });

/** Called after each snapshot drawn: writes the log from the record once, when it matches. */
export function fillLog(t: TableState, fill: LogFill): void {
  const snap = t.snap;
  if (fill.done || fill.busy || fill.tries <= 0 || !snap || !t.geo) return;
  if (snap.game.events === 0) {
    fill.done = true; // nothing played before: the live log says everything
    return;
  }
  fill.busy = true;
  fill.tries--;
  api
    .record(t.id)
    .then((record) => {
      const now = t.snap;
      if (t.destroyed || !now || !t.geo || record.events.length !== now.game.events) return;
      const side = (s: string): SeatNo =>
        now.seats.find((x) => x.side === s)?.seat ?? (s === 'dark' ? 2 : 1);
      const deciding = now.status === 'playing' && now.game.legal_moves.length > 0;
      const events: TableEvent[] = recordTableEvents(record, side, t.geo, deciding);
      if (now.status === 'finished' && now.summary)
        events.push({ kind: 'game_over', winner: now.summary.winner, reason: now.summary.reason });
      const name = (s: SeatNo) => nameOf(t, s);
      t.view.clearLog();
      for (const ev of events) {
        const line = logLine(t.geo, ev, name);
        if (line) t.view.logLine(line, ev.kind === 'game_over' ? 'good' : 'info');
      }
      fill.done = true;
    })
    .catch(() => {
      fill.tries = 0; // the log keeps what it saw live
    })
    .finally(() => {
      fill.busy = false;
    });
}
