// The table events (docs/protocol.md, "Table events"): what a change of a table was, as the
// `table` and `action_ok` messages carry them for animation. Checked against the document's table
// of events by scripts/protocol-doc.test.mjs.

/** What a decision is: a move, or the boxed game's award taken or declined. */
export type MoveKind = 'move' | 'award_yes' | 'award_no';

/** What a change of a table was (docs/protocol.md, `table`'s `events`). */
export type TableEventKind =
  | 'roll'
  | 'move'
  | 'joined'
  | 'left'
  | 'resign'
  | 'timeout'
  | 'visibility'
  | 'hint'
  | 'game_over'
  | 'aborted'
  | 'closed'
  | 'undo'
  | 'rematch_offer'
  | 'rematch_decline'
  | 'rematch';

export interface TableEvent {
  kind: TableEventKind;
  seat?: number;
  /** joined: the new player's name. */
  name?: string;
  value?: number;
  move?: number;
  dice?: number;
  passed?: boolean;
  from?: number;
  to?: number;
  move_kind?: MoveKind;
  capture?: boolean;
  captures?: number;
  rosette?: boolean;
  rosettes?: number;
  borne_off?: number;
  bear_off?: boolean;
  enter?: boolean;
  extra_turn?: boolean;
  award_pending?: boolean;
  forfeit_pending?: boolean;
  doubled?: boolean;
  bounced?: boolean;
  winner?: number;
  reason?: string;
  public?: boolean;
  /** A `hint` event: how many hints the seat has taken in this game. */
  hints?: number;
  /** undo: how many events were taken back; rematch: the new table. */
  undone?: number;
  table?: string;
}
