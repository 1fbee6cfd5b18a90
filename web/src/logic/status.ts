// The words of the table screen: the status line under the dice ("Awaiting roll", "Pick a
// piece", whose turn), the post-game reason, rating changes, seat labels. Pure, unit-tested.

import { count } from './plural.ts';
import type { SeatInfo, SeatNo, Snapshot, Summary, TableEvent, SolveStatus } from './types.ts';

export function seatName(seats: SeatInfo[], seat: SeatNo): string {
  const s = seats.find((x) => x.seat === seat);
  if (!s || s.kind === 'empty' || !s.name) return seat === 1 ? 'Light' : 'Dark';
  return s.name;
}

/** Whether `you` holds a seat at this table that it has not left (and the table is open). */
export function isSeated(snap: Snapshot | null, you: SeatNo | null): boolean {
  if (!snap || you === null || snap.status === 'closed') return false;
  return !snap.seats.find((x) => x.seat === you)?.left;
}

export interface StatusText {
  /** The phase line: "Your turn — Awaiting roll", "bob's turn — Pick a piece", ... */
  main: string;
  /** Whether the viewer is the one who must act now. */
  yourMove: boolean;
}

/**
 * The one-line prompt for the viewer `you` (null for spectators): what to do now, in a newcomer's
 * words ("Throw the dice", "Move a piece: 2 squares"), or whose turn it is. `squares` is how far
 * the pending throw moves (the rule set maps a throw to squares), when known.
 */
export function statusText(
  snap: Snapshot,
  you: SeatNo | null,
  squares: number | null = null,
): StatusText {
  const g = snap.game;
  if (snap.status === 'waiting')
    return { main: 'Waiting for an opponent to sit down', yourMove: false };
  if (snap.status === 'closed') return { main: 'The table is closed', yourMove: false };
  if (snap.status === 'finished' || g.phase === 'game_over') {
    const w = snap.summary?.winner;
    if (!w) return { main: 'Game over', yourMove: false };
    return {
      main: w === you ? 'Game over — you win!' : `Game over — ${seatName(snap.seats, w)} wins`,
      yourMove: false,
    };
  }
  if (g.to_act === null) return { main: '…', yourMove: false };
  if (you === null || g.to_act !== you) {
    const who = seatName(snap.seats, g.to_act);
    return {
      main: g.phase === 'awaiting_move' ? `${who} is moving…` : `${who}'s turn`,
      yourMove: false,
    };
  }
  const n = squares ?? g.roll ?? 0;
  switch (g.phase) {
    case 'start':
    case 'roll_off':
      return { main: 'Throw the dice (opening throw)', yourMove: true };
    case 'awaiting_roll':
      return { main: 'Throw the dice', yourMove: true };
    case 'awaiting_move':
      return { main: `Move a piece: ${count(n, 'square')}`, yourMove: true };
    case 'awaiting_award':
      return { main: 'Rosette award: take it?', yourMove: true };
    case 'awaiting_forfeit':
      return { main: 'Forfeit: move a counter 4', yourMove: true };
    default:
      return { main: 'Your turn', yourMove: true };
  }
}

export function reasonText(reason: string): string {
  switch (reason) {
    case 'bore-off':
      return 'all pieces borne off';
    case 'resign':
      return 'by resignation';
    case 'timeout':
      return 'on time: the idle clock ran out';
    case 'left':
      return 'the opponent left the table';
    default:
      return reason;
  }
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}

/** "1200 → 1216 (+16)" for a rated game's seat, or null when unrated. */
export function ratingLine(summary: Summary, seat: SeatNo): string | null {
  const s = summary.seats.find((x) => x.seat === seat);
  if (!s || s.rating_before === undefined || s.rating_after === undefined) return null;
  const change = s.rating_change ?? s.rating_after - s.rating_before;
  return `${s.rating_before} → ${s.rating_after} (${signed(change)})`;
}

/** Whole seconds left on the idle clock (rounded up), or null when no clock runs. */
export function countdownSeconds(deadline: number | null, now: number): number | null {
  if (deadline === null) return null;
  return Math.ceil(Math.max(0, deadline - now) / 1000);
}

/** The last seconds in which the clock warns (sound, vibration, tab title). */
export const WARN_SECONDS = 10;

/** The tab title while the viewer must act: a countdown in the last seconds, so it calls back. */
export function tabTitle(mine: boolean, secs: number | null, base: string): string {
  if (!mine) return base;
  if (secs !== null && secs <= WARN_SECONDS) return `Your move — ${secs} s`;
  return `Your move — ${base}`;
}

/** True when the events say the turn passed for want of a legal move. */
export function turnPassed(events: TableEvent[]): boolean {
  return events.some((e) => e.kind === 'roll' && e.passed);
}

/**
 * A computer level's name in the lobby; perfect without a solved table plays the learned
 * network where the server has one, else as hard; with an endgame table (`endgame` pieces left
 * a side) it is exact in the endgame and plays as hard before it.
 */
export function levelLabel(
  level: string,
  solved: boolean,
  solve: SolveStatus | null = null,
  learned = false,
  endgame = 0,
): string {
  const name = level.charAt(0).toUpperCase() + level.slice(1);
  if (level === 'perfect' && solved && endgame > 0) return `${name} (exact in the endgame)`;
  if (level !== 'perfect' || solved) return name;
  if (solve?.state === 'ready') return name;
  if (learned) return `${name} (strongest: learned, no exact table)`;
  if (solve?.state === 'solving' || solve?.state === 'queued') {
    const pct = Math.round(solve.progress * 100);
    const eta = solve.eta_seconds;
    const when =
      eta === undefined
        ? ''
        : eta < 90
          ? `, about ${Math.max(1, Math.round(eta))} s`
          : `, about ${Math.round(eta / 60)} min`;
    // Short: a select is as wide as its longest option, and the lobby's card is narrow.
    const what = solve.state === 'solving' ? `${pct}% solved${when}` : 'queued';
    return `${name} (${what}; Hard till then)`;
  }
  return `${name} (no table: plays as Hard)`;
}

/** The throw the dice show: the last one thrown, kept until the next. */
export interface ShownThrow {
  value: number;
  move: number;
  seat: SeatNo;
}

/**
 * What the dice show after a snapshot: the newest throw among `events`; else, when the snapshot
 * awaits a move after a throw the client did not see (a fresh draw or nothing shown yet), that
 * throw rebuilt from the game (`throws[value]` is its move); else what they showed before.
 */
export function shownThrow(
  previous: ShownThrow | null,
  events: TableEvent[],
  game: Snapshot['game'],
  throws: number[] | null,
  fresh: boolean,
): ShownThrow | null {
  const roll = [...events].reverse().find((e) => e.kind === 'roll');
  if (roll)
    return { value: roll.value ?? 0, move: roll.move ?? 0, seat: (roll.seat as SeatNo) ?? 1 };
  if (game.phase === 'awaiting_move' && game.roll !== null && game.to_act && (!previous || fresh))
    return { value: game.roll, move: throws?.[game.roll] ?? game.roll, seat: game.to_act };
  return previous;
}
