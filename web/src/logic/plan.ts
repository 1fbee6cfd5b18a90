// Turns the `events` of a `table` message into an animation plan: the dice to show, the squares a
// piece slides through, the piece a capture sends home, and the words to say. The plan is only
// decoration: after it plays, the board is redrawn from the snapshot, which is the truth. Pure
// logic (no DOM), unit-tested.

import { locationOf, otherSeat, pathLocs, placePieces, type Geometry } from './geometry.ts';
import { reasonText } from './status.ts';
import type { SeatNo, SeatPieces, TableEvent } from './types.ts';

export type Tone = 'info' | 'good' | 'warn';

export type Step =
  | { kind: 'dice'; seat: SeatNo; value: number; move: number; dice: number; passed: boolean }
  | { kind: 'move'; seat: SeatNo; path: string[] }
  | { kind: 'capture'; seat: SeatNo; from: string; to: string }
  | { kind: 'note'; text: string; tone: Tone };

export type NameOf = (seat: SeatNo) => string;

const asSeat = (n: number | undefined): SeatNo => (n === 2 ? 2 : 1);

/** The words for one event (null when the event needs none). */
export function describeEvent(ev: TableEvent, name: NameOf): { text: string; tone: Tone } | null {
  const who = name(asSeat(ev.seat));
  // "You take" / "alice takes": the reader's own seat is named "You".
  const verb = (third: string, plain: string) => `${who} ${who === 'You' ? plain : third}`;
  switch (ev.kind) {
    case 'roll':
      if (ev.passed)
        return who === 'You'
          ? { text: `No move — turn passes (you threw ${ev.move ?? 0})`, tone: 'warn' }
          : { text: `${who} threw ${ev.move ?? 0}: no legal move — turn passes`, tone: 'warn' };
      return null;
    case 'move': {
      if (ev.move_kind === 'award_yes')
        return { text: `${verb('takes', 'take')} the award: a counter enters S`, tone: 'good' };
      if (ev.move_kind === 'award_no')
        return { text: `${verb('declines', 'decline')} the award`, tone: 'info' };
      const bits: string[] = [];
      if (ev.bounced) bits.push(`${who === 'You' ? 'Your' : `${who}'s`} counter was sent off`);
      if (ev.capture || (ev.captures ?? 0) > 0) bits.push(`${who} captured a piece!`);
      if (ev.doubled) bits.push('The move was doubled');
      if ((ev.borne_off ?? 0) > 0 || ev.bear_off) bits.push(`${who} bore a piece off`);
      if (ev.rosette || (ev.rosettes ?? 0) > 0)
        bits.push(
          ev.extra_turn
            ? `${who} landed on a rosette ✸ — extra turn`
            : `${who} landed on a rosette ✸`,
        );
      else if (ev.extra_turn) bits.push(`${verb('throws', 'throw')} again`);
      // Short: the panel gives this line two lines (one on phones).
      if (ev.award_pending) bits.push('award: a counter may enter S');
      if (ev.forfeit_pending) bits.push('Forfeit: the opponent moves a counter 4');
      if (bits.length === 0) return null;
      // Names are shown exactly as written (never re-capitalised).
      const tone: Tone = ev.capture || ev.extra_turn || (ev.borne_off ?? 0) > 0 ? 'good' : 'info';
      return { text: bits.join(' · '), tone };
    }
    case 'joined':
      return { text: `${who} sat down`, tone: 'info' };
    case 'left':
      return { text: `${who} left the table`, tone: 'warn' };
    case 'resign':
      return { text: `${who} resigned`, tone: 'warn' };
    case 'timeout':
      return { text: `${who} ran out of time`, tone: 'warn' };
    case 'hint':
      return { text: `${verb('takes', 'take')} a hint (${ev.hints ?? 1} so far)`, tone: 'info' };
    case 'visibility':
      return {
        text: ev.public ? 'The table is now public' : 'The table is now private',
        tone: 'info',
      };
    case 'game_over': {
      const w = name(asSeat(ev.winner));
      return { text: w === 'You' ? 'You win!' : `${w} wins!`, tone: 'good' };
    }
    case 'closed':
      return { text: 'The table is closed', tone: 'info' };
    case 'undo':
      return { text: `Move taken back: ${who} decides again`, tone: 'info' };
    case 'rematch_offer':
      return { text: `${verb('offers', 'offer')} a rematch`, tone: 'good' };
    case 'rematch_decline':
      return { text: `${who} declined the rematch`, tone: 'info' };
    case 'rematch':
      return { text: 'The rematch starts: colours swapped', tone: 'good' };
    default:
      return null;
  }
}

/** Where a path index is, in words: a square name, "Home", "S" or "off". */
export function placeWord(geo: Geometry, seat: SeatNo, index: number): string {
  const key = locationOf(geo, seat, index);
  if (key.startsWith('home:')) return 'Home';
  if (key.startsWith('start:')) return 'S';
  if (key.startsWith('off:')) return 'off';
  return key;
}

/** One line of the move log for an event: every throw and move, so a spectator can follow. */
export function logLine(geo: Geometry, ev: TableEvent, name: NameOf): string | null {
  const who = name(asSeat(ev.seat));
  if (ev.kind === 'roll') {
    const base = `${who} threw ${ev.move ?? ev.value ?? 0}`;
    return ev.passed ? `${base}: no legal move — turn passes` : base;
  }
  if (ev.kind === 'move' && ev.from !== undefined && ev.to !== undefined) {
    if (ev.move_kind === 'award_yes' || ev.move_kind === 'award_no')
      return describeEvent(ev, name)?.text ?? null;
    const seat = asSeat(ev.seat);
    const flags: string[] = [];
    if (ev.capture || (ev.captures ?? 0) > 0) flags.push('capture');
    if (ev.rosette) flags.push('rosette ✸');
    if (ev.extra_turn) flags.push('extra turn');
    if (ev.doubled) flags.push('doubled');
    if (ev.bounced) flags.push('sent off');
    const to = placeWord(geo, seat, ev.to);
    const line = `${who}: ${placeWord(geo, seat, ev.from)} → ${to === 'off' ? 'borne off' : to}`;
    return flags.length ? `${line} (${flags.join(', ')})` : line;
  }
  if (ev.kind === 'game_over' && ev.reason) {
    const w = name(asSeat(ev.winner));
    return `${w} ${w === 'You' ? 'win' : 'wins'} — ${reasonText(ev.reason)}`;
  }
  return describeEvent(ev, name)?.text ?? null;
}

/**
 * The plan for `events`, starting from the pieces as they were drawn before (`prev`; null when
 * nothing was drawn, then moves are not animated). Captures are found on `prev`: the opponent
 * pieces standing on the destination square before the move are the ones sent home.
 */
export function planEvents(
  geo: Geometry,
  prev: SeatPieces[] | null,
  events: TableEvent[],
  name: NameOf,
): Step[] {
  const steps: Step[] = [];
  let board = prev ? placePieces(geo, prev) : null;
  for (const ev of events) {
    if (ev.kind === 'roll') {
      steps.push({
        kind: 'dice',
        seat: asSeat(ev.seat),
        value: ev.value ?? 0,
        move: ev.move ?? ev.value ?? 0,
        dice: ev.dice ?? geo.dice,
        passed: !!ev.passed,
      });
    } else if (ev.kind === 'move' && board && ev.from !== undefined && ev.to !== undefined) {
      const seat = asSeat(ev.seat);
      const path = pathLocs(geo, seat, ev.from, ev.to);
      if (path.length > 1) steps.push({ kind: 'move', seat, path });
      const dest = locationOf(geo, seat, ev.to);
      const victim = otherSeat(seat);
      if (ev.capture || (ev.captures ?? 0) > 0) {
        const there = board.get(dest)?.find((o) => o.seat === victim);
        if (there) steps.push({ kind: 'capture', seat: victim, from: dest, to: `home:${victim}` });
      }
      if (ev.bounced) steps.push({ kind: 'capture', seat, from: dest, to: `home:${seat}` });
      // Later events of the same message start from a board we no longer know exactly; stop
      // animating moves rather than guess.
      board = null;
    }
    const words = describeEvent(ev, name);
    if (words) steps.push({ kind: 'note', ...words });
  }
  return steps;
}

/** Milliseconds a plan takes at normal speed (used to cap long backlogs). */
export function planDuration(steps: Step[], stepMs = 140, diceMs = 520): number {
  let t = 0;
  for (const s of steps) {
    if (s.kind === 'dice') t += diceMs;
    else if (s.kind === 'move') t += stepMs * (s.path.length - 1);
    else if (s.kind === 'capture') t += stepMs * 2;
  }
  return t;
}
