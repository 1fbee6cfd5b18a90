// Frames of a finished game's replay: one per recorded event, each with the pieces as the server
// says they stood after it (GET /api/games/<id>/positions: position strings, which are only
// read here, never computed), the throw on show and the words for the event. Pure, unit-tested.

import { locationOf, parsePosition, type Geometry } from './geometry.ts';
import { t } from './i18n.ts';
import { gradeWord, pct } from './review.ts';
import type {
  AnalysisAnswer,
  GameRecord,
  Names,
  PositionsAnswer,
  RecordEvent,
  SeatNo,
  SeatPieces,
  TableEvent,
} from './types.ts';

export interface ReplayFrame {
  label: string;
  pieces: SeatPieces[];
  throw: { value: number; move: number; seat: SeatNo } | null;
  position: string | null;
}

/** The seat of a side as records and explorer answers name it ('light', 'dark'). */
export const seatOf = (side: string): SeatNo => (side === 'dark' ? 2 : 1);

/** Every piece waiting to enter (or, staging, not yet staged): the start of every game. */
export function startPieces(geo: Geometry): SeatPieces[] {
  return ([1, 2] as SeatNo[]).map((seat) => {
    const counts = new Array<number>(geo.n + 2).fill(0);
    if (!geo.staging) counts[0] = geo.pieces;
    return { seat, pool: geo.staging ? geo.pieces : 0, counts };
  });
}

function where(geo: Geometry, seat: SeatNo, index: number): string {
  const key = locationOf(geo, seat, index);
  if (key.startsWith('home:')) return t('square.home');
  if (key.startsWith('start:')) return t('square.start');
  if (key.startsWith('off:')) return t('square.borneOff');
  return key;
}

export function describeRecordEvent(ev: RecordEvent, geo: Geometry, names: Names): string {
  const seat = seatOf(ev.player);
  const who = names[seat];
  if (typeof ev.throw === 'number') {
    const move = geo.throws[ev.throw] ?? ev.throw;
    const n = ev.throw;
    return move === n ? t('replay.threw', { who, n }) : t('replay.threwMoves', { who, n, move });
  }
  if (ev.move) {
    const kind = ev.move.kind;
    if (kind === 'award_yes') return t('replay.awardYes', { who });
    if (kind === 'award_no') return t('replay.awardNo', { who });
    const from = where(geo, seat, ev.move.from);
    const move = t('move.words', { from, to: where(geo, seat, ev.move.to) });
    return t('replay.moved', { who, move });
  }
  // The game's end by a player: the record's `resign` names how ("resign", "timeout", "left").
  const ended = ev.resign;
  if (ended === 'resign') return t('log.resigned', { name: who });
  if (ended === 'timeout') return t('log.timeout', { name: who });
  if (ended === 'left') return t('log.left', { name: who });
  const other = Object.keys(ev).filter((k) => k !== 'player');
  return t('replay.other', { who, what: other.join(', ') || 'event' });
}

function piecesOf(geo: Geometry, p: PositionsAnswer['positions'][number]): SeatPieces[] {
  try {
    return parsePosition(p.position, geo.n).pieces;
  } catch {
    const counts = p.counts ?? [[], []];
    return ([1, 2] as SeatNo[]).map((seat) => ({ seat, pool: 0, counts: counts[seat - 1] ?? [] }));
  }
}

export function replayFrames(
  geo: Geometry,
  record: GameRecord,
  answer: PositionsAnswer,
  names: Names,
): ReplayFrame[] {
  const list = [...answer.positions].sort((a, b) => a.event - b.event);
  const first = list[0] && list[0].event < 0 ? list.shift()! : null;
  const frames: ReplayFrame[] = [
    {
      label: t('replay.start'),
      pieces: first ? piecesOf(geo, first) : startPieces(geo),
      throw: null,
      position: first?.position ?? null,
    },
  ];
  let lastThrow: ReplayFrame['throw'] = null;
  for (const p of list) {
    const ev = record.events[p.event];
    if (ev && typeof ev.throw === 'number')
      lastThrow = {
        value: ev.throw,
        move: geo.throws[ev.throw] ?? ev.throw,
        seat: seatOf(ev.player),
      };
    frames.push({
      label: ev ? describeRecordEvent(ev, geo, names) : t('replay.event', { n: p.event + 1 }),
      pieces: piecesOf(geo, p),
      throw: lastThrow,
      position: p.position,
    });
  }
  return frames;
}

/**
 * The frames with each graded move's verdict added to its label (frame i + 1 shows event i):
 * "— best, 58.2% to win" or "— mistake: 41.0% to win (best 48.3%)". Forced moves say nothing.
 */
export function gradeFrames(frames: ReplayFrame[], analysis: AnalysisAnswer): ReplayFrame[] {
  const byFrame = new Map(analysis.moves.map((m) => [m.event + 1, m]));
  return frames.map((f, i) => {
    const m = byFrame.get(i);
    if (!m || m.legal < 2) return f;
    // An estimated review says so on every verdict (its grades match the exact ones ~2 in 3).
    const words =
      m.cost < 1e-6
        ? t('replay.verdictBest', { pct: pct(m.value) })
        : t('replay.verdict', {
            grade: gradeWord(m.grade),
            pct: pct(m.value),
            best: pct(m.best_value),
          });
    const verdict = analysis.estimate ? t('replay.estimated', { verdict: words }) : words;
    return { ...f, label: t('replay.graded', { label: f.label, verdict }) };
  });
}

const ENDINGS = ['resign', 'timeout', 'left'] as const;
const isEnding = (s: unknown): s is (typeof ENDINGS)[number] => ENDINGS.some((e) => e === s);

/**
 * A game record's events as the `table` events that said them live, for the move log of a table
 * opened after they happened (a reload, a reconnect, a finished game): a throw (`passed` when the
 * next throw follows it; the last one when nobody must decide now), a move, an ending (resign,
 * timeout, left). `seatOf` maps a record's side to its seat.
 */
export function recordTableEvents(
  record: GameRecord,
  seatOf: (side: string) => SeatNo,
  geo: Geometry,
  deciding: boolean,
): TableEvent[] {
  const out: TableEvent[] = [];
  record.events.forEach((ev, i) => {
    const seat = seatOf(ev.player);
    if (typeof ev.throw === 'number') {
      const next = record.events[i + 1];
      // A throw that left no decision is followed by the next throw; one that asked for a move,
      // by that move (or by its player's resignation or timeout instead).
      const passed = next
        ? typeof next.throw === 'number' || (!next.move && next.player !== ev.player)
        : !deciding;
      const move = geo.throws[ev.throw] ?? ev.throw;
      out.push({ kind: 'roll', seat, value: ev.throw, move, passed });
    } else if (ev.move) {
      const kind = ev.move.kind as TableEvent['move_kind'];
      out.push({ kind: 'move', seat, from: ev.move.from, to: ev.move.to, move_kind: kind });
    } else {
      // {"player": "dark", "resign": "resign" | "timeout" | "left"} (docs/notation.md)
      if (isEnding(ev.resign)) out.push({ kind: ev.resign, seat });
    }
  });
  return out;
}
