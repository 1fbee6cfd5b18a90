// What calls a player back to the table: the idle clock drawn on every turn (a bar and seconds),
// and in its last seconds a sound, a vibration where the device has one and the tab title
// ("Your move — 8 s"); a short sound for each throw, move, capture and rosette, and when the turn
// comes back to the player.

import { countdownSeconds, tabTitle, WARN_SECONDS } from '../logic/status.ts';
import type { Clock, SeatNo, Snapshot, TableEvent } from '../logic/types.ts';
import { play, vibrate } from './sound.ts';
import type { TableView } from './table_view.ts';

export const BASE_TITLE = 'ur — the Royal Game of Ur';

export class TableAlerts {
  private readonly baseTitle = BASE_TITLE;
  /** Shown while it is not the viewer's turn: a "Match found!" title stays until the first turn. */
  private idleTitle = document.title;
  private deadline: number | null = null;
  private clock: Clock | null = null;
  private warnedFor: number | null = null;
  private wasMine = false;

  constructor(private readonly view: TableView) {}

  setClock(clock: Clock | null): void {
    this.clock = clock;
    this.deadline = clock ? performance.now() + clock.remaining_ms : null;
  }

  /** Sounds for what just happened, and a call when the turn has come back to the viewer. */
  onUpdate(events: TableEvent[], snap: Snapshot, you: SeatNo | null, mine: boolean): void {
    for (const ev of events) {
      if (ev.kind === 'roll') play('throw');
      else if (ev.kind === 'move')
        play(ev.capture || (ev.captures ?? 0) > 0 ? 'capture' : ev.rosette ? 'rosette' : 'move');
    }
    if (mine && !this.wasMine && snap.status === 'playing' && you !== null) play('turn');
    this.wasMine = mine;
  }

  tick(snap: Snapshot | null, you: SeatNo | null, mine: boolean): void {
    const playing = snap?.status === 'playing';
    const secs = playing ? countdownSeconds(this.deadline, performance.now()) : null;
    const c = this.clock;
    const frac = secs !== null && c ? Math.max(0, secs * 1000) / Math.max(1, c.timeout_ms) : 0;
    this.view.setCountdown(secs, Math.min(1, frac), c?.seat ?? null, you, snap);
    const myClock = mine && secs !== null && c?.seat === you;
    if (mine) this.idleTitle = this.baseTitle;
    document.title = mine ? tabTitle(true, myClock ? secs : null, 'ur') : this.idleTitle;
    // Warn once per deadline, when the clock enters its last seconds on the viewer's turn.
    if (myClock && secs <= WARN_SECONDS && this.warnedFor !== this.deadline) {
      this.warnedFor = this.deadline;
      play('warn');
      vibrate([200, 100, 200]);
    }
  }

  destroy(): void {
    document.title = this.baseTitle;
  }
}
