// Turns the `events` of a `table` message into an animation plan: the dice to show, the squares a
// piece slides through, the piece a capture sends home, and the words to say. The plan is only
// decoration: after it plays, the board is redrawn from the snapshot, which is the truth. Pure
// logic (no DOM), unit-tested.

import { locationOf, otherSeat, pathLocs, placePieces, type Geometry } from './geometry.ts';
import { t, type Key, type Vars } from './i18n.ts';
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

/** Whether `who` is the reader's own seat, which the screens name `name.you`. */
const isYou = (who: string) => who === t('name.you');

/** A sentence about `who`: the reader's own form ("You take…") or the third person's. */
function said(who: string, mine: Key, theirs: Key, vars: Vars = {}): string {
  return isYou(who) ? t(mine, vars) : t(theirs, { ...vars, name: who });
}

/** The words for one event (null when the event needs none). */
export function describeEvent(ev: TableEvent, name: NameOf): { text: string; tone: Tone } | null {
  const who = name(asSeat(ev.seat));
  const say = (key: Personal, vars: Vars = {}) => said(who, `${key}.you` as Key, key as Key, vars);
  switch (ev.kind) {
    case 'roll':
      return ev.passed ? { text: say('log.passed', { n: ev.move ?? 0 }), tone: 'warn' } : null;
    case 'move':
      return moveWords(ev, say);
    case 'joined':
      return { text: say('log.joined'), tone: 'info' };
    case 'left':
      return { text: say('log.left'), tone: 'warn' };
    case 'resign':
      return { text: say('log.resigned'), tone: 'warn' };
    case 'timeout':
      return { text: say('log.timeout'), tone: 'warn' };
    case 'hint':
      return { text: say('log.hint', { count: ev.hints ?? 1 }), tone: 'info' };
    case 'visibility':
      return { text: t(ev.public ? 'log.public' : 'log.private'), tone: 'info' };
    case 'game_over': {
      const w = name(asSeat(ev.winner));
      return { text: said(w, 'log.win.you', 'log.win'), tone: 'good' };
    }
    case 'closed':
      return { text: t('table.status.closed'), tone: 'info' };
    case 'undo':
      return { text: say('log.undo'), tone: 'info' };
    case 'rematch_offer':
      return { text: say('log.rematchOffer'), tone: 'good' };
    case 'rematch_decline':
      return { text: say('log.rematchDecline'), tone: 'info' };
    case 'rematch':
      return { text: t('log.rematch'), tone: 'good' };
    default:
      return null;
  }
}

/** The keys said in two persons: `<key>` of another player, `<key>.you` of the reader. */
type Personal =
  | 'log.passed'
  | 'log.awardYes'
  | 'log.awardNo'
  | 'log.bounced'
  | 'log.captured'
  | 'log.boreOff'
  | 'log.rosetteAgain'
  | 'log.rosette'
  | 'log.again'
  | 'log.joined'
  | 'log.left'
  | 'log.resigned'
  | 'log.timeout'
  | 'log.hint'
  | 'log.undo'
  | 'log.rematchOffer'
  | 'log.rematchDecline'
  | 'log.threw';

function moveWords(
  ev: TableEvent,
  say: (key: Personal, vars?: Vars) => string,
): { text: string; tone: Tone } | null {
  if (ev.move_kind === 'award_yes') return { text: say('log.awardYes'), tone: 'good' };
  if (ev.move_kind === 'award_no') return { text: say('log.awardNo'), tone: 'info' };
  const bits: string[] = [];
  if (ev.bounced) bits.push(say('log.bounced'));
  if (ev.capture || (ev.captures ?? 0) > 0) bits.push(say('log.captured'));
  if (ev.doubled) bits.push(t('log.doubled'));
  if ((ev.borne_off ?? 0) > 0 || ev.bear_off) bits.push(say('log.boreOff'));
  if (ev.rosette || (ev.rosettes ?? 0) > 0)
    bits.push(say(ev.extra_turn ? 'log.rosetteAgain' : 'log.rosette'));
  else if (ev.extra_turn) bits.push(say('log.again'));
  // Short: the panel gives this line two lines (one on phones).
  if (ev.award_pending) bits.push(t('log.awardPending'));
  if (ev.forfeit_pending) bits.push(t('log.forfeitPending'));
  if (bits.length === 0) return null;
  // Names are shown exactly as written (never re-capitalised).
  const tone: Tone = ev.capture || ev.extra_turn || (ev.borne_off ?? 0) > 0 ? 'good' : 'info';
  return { text: bits.join(' · '), tone };
}

/** Where a path index is, in words: a square name, Home, "S" or borne off. */
export function placeWord(geo: Geometry, seat: SeatNo, index: number): string {
  const key = locationOf(geo, seat, index);
  if (key.startsWith('home:')) return t('place.home');
  if (key.startsWith('start:')) return 'S';
  if (key.startsWith('off:')) return t('place.off');
  return key;
}

/** One line of the move log for an event: every throw and move, so a spectator can follow. */
export function logLine(geo: Geometry, ev: TableEvent, name: NameOf): string | null {
  const who = name(asSeat(ev.seat));
  if (ev.kind === 'roll') {
    const line = said(who, 'log.threw.you', 'log.threw', { n: ev.move ?? ev.value ?? 0 });
    return ev.passed ? t('log.noMove', { line }) : line;
  }
  if (ev.kind === 'move' && ev.from !== undefined && ev.to !== undefined) {
    if (ev.move_kind === 'award_yes' || ev.move_kind === 'award_no')
      return describeEvent(ev, name)?.text ?? null;
    const seat = asSeat(ev.seat);
    const flags: string[] = [];
    if (ev.capture || (ev.captures ?? 0) > 0) flags.push(t('log.flag.capture'));
    if (ev.rosette) flags.push(t('log.flag.rosette'));
    if (ev.extra_turn) flags.push(t('log.flag.extraTurn'));
    if (ev.doubled) flags.push(t('log.flag.doubled'));
    if (ev.bounced) flags.push(t('log.flag.sentOff'));
    const from = placeWord(geo, seat, ev.from);
    const line = t('log.moved', { name: who, from, to: placeWord(geo, seat, ev.to) });
    return flags.length ? t('log.flags', { line, flags: flags.join(', ') }) : line;
  }
  if (ev.kind === 'game_over' && ev.reason) {
    const w = name(asSeat(ev.winner));
    return said(w, 'log.over.you', 'log.over', { reason: reasonText(ev.reason) });
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
