// The words of the table screen: the status line under the dice ("Awaiting roll", "Pick a
// piece", whose turn), the post-game reason, rating changes, seat labels. Pure, unit-tested.

import type { SeatInfo, SeatNo, Snapshot, Summary, TableEvent, SolveStatus } from './types.ts';

export function seatName(seats: SeatInfo[], seat: SeatNo): string {
  const s = seats.find((x) => x.seat === seat);
  if (!s || s.kind === 'empty' || !s.name) return seat === 1 ? 'Seat 1' : 'Seat 2';
  return s.name;
}

export interface StatusText {
  /** The phase line: "Your turn — Awaiting roll", "bob's turn — Pick a piece", ... */
  main: string;
  /** Whether the viewer is the one who must act now. */
  yourMove: boolean;
}

/** The status line for the viewer `you` (null for spectators). */
export function statusText(snap: Snapshot, you: SeatNo | null): StatusText {
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
  const mine = you !== null && g.to_act === you;
  const who = mine ? 'Your turn' : `${seatName(snap.seats, g.to_act)}'s turn`;
  switch (g.phase) {
    case 'start':
    case 'roll_off':
      return { main: `${who} — Awaiting roll (opening throw)`, yourMove: mine };
    case 'awaiting_roll':
      return { main: `${who} — Awaiting roll`, yourMove: mine };
    case 'awaiting_move':
      return { main: `${who} — Pick a piece`, yourMove: mine };
    case 'awaiting_award':
      return { main: `${who} — Rosette award: take it?`, yourMove: mine };
    case 'awaiting_forfeit':
      return { main: `${who} — Forfeit: move a counter 4`, yourMove: mine };
    default:
      return { main: who, yourMove: mine };
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

/** Seconds to show on the idle countdown, or null when it should not show (more than 10 s). */
export function countdownSeconds(deadline: number | null, now: number): number | null {
  if (deadline === null) return null;
  const left = Math.max(0, deadline - now);
  if (left > 10_000) return null;
  return Math.ceil(left / 1000);
}

/** True when the events say the turn passed for want of a legal move. */
export function turnPassed(events: TableEvent[]): boolean {
  return events.some((e) => e.kind === 'roll' && e.passed);
}

/** A computer level's name in the lobby; perfect without a solved table plays as hard. */
export function levelLabel(level: string, solved: boolean, solve: SolveStatus | null = null): string {
  const name = level.charAt(0).toUpperCase() + level.slice(1);
  if (level !== 'perfect' || solved) return name;
  if (solve?.state === 'ready') return name;
  if (solve?.state === 'solving' || solve?.state === 'queued') {
    const pct = Math.round(solve.progress * 100);
    const eta = solve.eta_seconds;
    const when =
      eta === undefined ? '' : eta < 90 ? `, about ${Math.max(1, Math.round(eta))} s` : `, about ${Math.round(eta / 60)} min`;
    const what = solve.state === 'solving' ? `being solved: ${pct}%${when}` : 'queued to be solved';
    return `${name} (${what}; plays as Hard until then)`;
  }
  return `${name} (no table here: plays as Hard)`;
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
