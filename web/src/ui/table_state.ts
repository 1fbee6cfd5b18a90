// The table screen's state, shared by its parts (table_page.ts joins and receives, table_draw.ts
// draws, table_actions.ts acts): one plain object, so each part is a set of small functions over
// it and the screen has no class of its own (every screen is a `mountX` function).

import { t as tr } from '../logic/i18n.ts';
import type { Geometry } from '../logic/geometry.ts';
import { isSeated, seatName, type ShownThrow } from '../logic/status.ts';
import type { Clock, LegalMove, SeatNo, Snapshot, TableEvent } from '../logic/types.ts';
import type { Animator } from './animator.ts';
import { errorText, type App } from './app.ts';
import type { BoardView } from './board.ts';
import type { ConfirmButton } from './confirm.ts';
import type { DiceView } from './dice.ts';
import type { TableAlerts } from './table_alerts.ts';
import type { TableAssist } from './table_assist.ts';
import type { TableHint } from './table_hint.ts';
import type { TableView } from './table_view.ts';

/** One `table` message waiting to be drawn. */
/** Per table screen: whether the log is written from the record yet, and the tries left. */
export interface LogFill {
  done: boolean;
  busy: boolean;
  tries: number;
}

export interface Update {
  table: Snapshot;
  events: TableEvent[];
  clock: Clock | null;
  spectators: number | null;
}

export interface TableState {
  readonly app: App;
  readonly id: string;
  /** The invite of the address, used once to take the seat. */
  invite: string | null;
  readonly view: TableView;
  readonly assist: TableAssist;
  readonly hint: TableHint;
  readonly alerts: TableAlerts;
  you: SeatNo | null;
  owner: boolean;
  /** The invite to show the owner while the second seat is open. */
  inviteToken: string | null;
  spectators: number;
  /** The snapshot drawn last. */
  snap: Snapshot | null;
  geo: Geometry | null;
  board: BoardView | null;
  dice: DiceView | null;
  animator: Animator | null;
  queue: Update[];
  pumping: boolean;
  animating: boolean;
  /** An action sent and not answered yet. */
  pending: boolean;
  lastThrow: ShownThrow | null;
  /** The move log written from the game's record (table_log.ts). */
  logFill: LogFill;
  destroyed: boolean;
  opening: boolean;
  leave: ConfirmButton | null;
  resign: ConfirmButton | null;
  /** Plays a legal move unless busy (set by table_actions.ts; the board and the keys call it). */
  move: (m: LegalMove) => void;
}

/** Whose decisions this page makes: its seat, or at a pass-and-play table the side to act. */
export function actor(t: TableState): SeatNo | null {
  const s = t.snap;
  if (!s?.local || t.you === null) return t.you;
  return s.status === 'playing' ? s.game.to_act : null;
}

export function myDecision(t: TableState): boolean {
  const s = t.snap;
  const a = actor(t);
  return !!s && s.status === 'playing' && a !== null && s.game.to_act === a;
}

export function seated(t: TableState): boolean {
  return isSeated(t.snap, t.you);
}

export function nameOf(t: TableState, seat: SeatNo): string {
  if (seat === t.you && !t.snap?.local) return tr('name.you');
  return t.snap ? seatName(t.snap.seats, seat) : tr('seat.n', { n: seat });
}

export function showError(t: TableState, e: unknown): void {
  const text = errorText(e);
  t.view.setError(text);
  t.app.toast(text, 'warn');
}
