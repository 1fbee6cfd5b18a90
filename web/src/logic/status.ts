// The words of the table screen: the status line under the dice ("Awaiting roll", "Pick a
// piece", whose turn), the post-game reason, rating changes, seat labels. Pure, unit-tested.

import { pct, t, type Key } from './i18n.ts';
import type { SeatInfo, SeatNo, Snapshot, Summary, TableEvent, SolveStatus } from './types.ts';

export function seatName(seats: SeatInfo[], seat: SeatNo): string {
  const s = seats.find((x) => x.seat === seat);
  if (!s || s.kind === 'empty' || !s.name) return t(seat === 1 ? 'seat.light' : 'seat.dark');
  return (s.kind === 'bot' && computerName(s.level, s.level_note)) || s.name;
}

const NOTES: Readonly<Record<string, Key>> = {
  endgame: 'seat.computerEndgame',
  learned: 'seat.computerLearned',
  as_hard: 'seat.computerAsHard',
};

/**
 * A computer seat's name in the page's language from its level and note ("Computer (Anfänger)"),
 * or null when this client knows either not (the server's name is then shown).
 */
export function computerName(level: string | undefined, note?: string): string | null {
  if (!level || !Object.hasOwn(LEVELS, level)) return null;
  if (note) return Object.hasOwn(NOTES, note) ? t(NOTES[note]) : null;
  return t('seat.computer', { level: levelName(level) });
}

/** The English notes in the server's names of the perfect level's stand-ins (table_computer.cpp). */
const NAME_NOTES: Readonly<Record<string, string>> = {
  'perfect: exact in the endgame': 'endgame',
  'strongest: learned, no exact table': 'learned',
  'hard: no perfect table': 'as_hard',
};

/**
 * A player's name from a list that carries names only (the lobby's tables): a computer seat's,
 * which the server writes in English ("Computer (easy)"), in the page's language; a person's
 * name (letters, digits, _ and - only) never looks like one and is shown as it is.
 */
export function playerName(name: string): string {
  const m = /^Computer \((.+)\)$/.exec(name);
  if (!m) return name;
  const note = NAME_NOTES[m[1]];
  return (note ? computerName('perfect', note) : computerName(m[1])) ?? name;
}

/**
 * The names of a finished game's two seats (`players`, as the server stored them), a computer
 * seat's in the page's language when the summary gives its level.
 */
export function playerNames(players: string[], summary: Summary | null | undefined): string[] {
  return players.map((name, i) => {
    const s = summary?.seats?.find((x) => x.seat === i + 1);
    return computerName(s?.level, s?.level_note) ?? name;
  });
}

const TABLE_STATES: Readonly<Record<string, Key>> = {
  waiting: 'table.state.waiting',
  playing: 'table.state.playing',
  finished: 'table.state.finished',
  closed: 'table.state.closed',
};

/** A table's state in words ("Playing"); one this client does not know, as the server names it. */
export function tableStateText(status: string): string {
  const key = TABLE_STATES[status];
  return key ? t(key) : status;
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
  if (snap.status === 'waiting') return { main: t('table.status.waiting'), yourMove: false };
  if (snap.status === 'closed') return { main: t('table.status.closed'), yourMove: false };
  if (snap.status === 'finished' || g.phase === 'game_over') {
    const w = snap.summary?.winner;
    if (!w) return { main: t('table.status.over'), yourMove: false };
    return {
      main:
        w === you
          ? t('table.status.youWin')
          : t('table.status.theyWin', { name: seatName(snap.seats, w) }),
      yourMove: false,
    };
  }
  if (g.to_act === null) return { main: '…', yourMove: false };
  if (you === null || g.to_act !== you) {
    const who = seatName(snap.seats, g.to_act);
    return {
      main: t(g.phase === 'awaiting_move' ? 'table.status.moving' : 'table.status.turnOf', {
        name: who,
      }),
      yourMove: false,
    };
  }
  const n = squares ?? g.roll ?? 0;
  switch (g.phase) {
    case 'start':
    case 'roll_off':
      return { main: t('table.prompt.opening'), yourMove: true };
    case 'awaiting_roll':
      return { main: t('table.prompt.throw'), yourMove: true };
    case 'awaiting_move':
      return { main: t('table.prompt.move', { count: n }), yourMove: true };
    case 'awaiting_award':
      return { main: t('table.prompt.award'), yourMove: true };
    case 'awaiting_forfeit':
      return { main: t('table.prompt.forfeit'), yourMove: true };
    default:
      return { main: t('table.prompt.yourTurn'), yourMove: true };
  }
}

const REASONS: Readonly<Record<string, Key>> = {
  'bore-off': 'reason.boreOff',
  resign: 'reason.resign',
  timeout: 'reason.timeout',
  left: 'reason.left',
};

/** Why a game ended, in words; a reason this client does not know is shown as the server sent it. */
export function reasonText(reason: string): string {
  const key = REASONS[reason];
  return key ? t(key) : reason;
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
  if (secs !== null && secs <= WARN_SECONDS) return t('tab.countdown', { secs });
  return t('tab.yourMove', { title: base });
}

/** True when the events say the turn passed for want of a legal move. */
export function turnPassed(events: TableEvent[]): boolean {
  return events.some((e) => e.kind === 'roll' && e.passed);
}

/**
 * A computer level's name in the lobby; perfect without a solved table plays the learned
 * network where the server has one, else as hard; with an endgame table (`endgame` pieces left
 * a side) it is exact in the endgame and before it plays the learned network where the server
 * has one, else as hard.
 */
export function levelLabel(
  level: string,
  solved: boolean,
  solve: SolveStatus | null = null,
  learned = false,
  endgame = 0,
): string {
  const name = levelName(level);
  if (level === 'perfect' && solved && endgame > 0) return t('level.endgame', { name });
  if (level !== 'perfect' || solved) return name;
  if (solve?.state === 'ready') return name;
  if (learned) return t('level.learned', { name });
  if (solve?.state === 'queued') return t('level.queued', { name });
  if (solve?.state === 'solving') {
    // Short: a select is as wide as its longest option, and the lobby's card is narrow.
    const done = pct(solve.progress, 0);
    const eta = solve.eta_seconds;
    if (eta === undefined) return t('level.solving', { name, pct: done });
    const n = eta < 90 ? Math.max(1, Math.round(eta)) : Math.round(eta / 60);
    return t('level.solvingEta', {
      name,
      pct: done,
      eta: t(eta < 90 ? 'unit.seconds' : 'unit.minutes', { n }),
    });
  }
  return t('level.noTable', { name });
}

const LEVELS: Readonly<Record<string, Key>> = {
  beginner: 'level.beginner',
  easy: 'level.easy',
  medium: 'level.medium',
  hard: 'level.hard',
  perfect: 'level.perfect',
};

/** A computer level's name; a level this client does not know keeps the server's id. */
export function levelName(level: string): string {
  const key = LEVELS[level];
  return key ? t(key) : level.charAt(0).toUpperCase() + level.slice(1);
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

/**
 * The rule sets that can have puzzles: those with a whole solved table. An endgame table
 * (`endgame` > 0) answers only the endgame, and puzzles are made from whole tables only.
 */
export function puzzleRuleSets<P extends { solved?: boolean; endgame?: number }>(
  presets: readonly P[],
): P[] {
  return presets.filter((p) => p.solved && !p.endgame);
}
