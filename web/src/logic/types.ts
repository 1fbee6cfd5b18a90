// The shapes of what `ur serve` sends: the WebSocket table snapshot (docs/protocol.md) and the
// HTTP API answers (docs/server.md, src/server/api/api_games.cpp). Only the fields the client reads are
// typed; the server may add more (the protocol says clients ignore unknown fields).

import type { MoveKind } from './events.ts';

export type Side = 'light' | 'dark';
export type SeatNo = 1 | 2;
/** The players' names by seat, as a replay or a review words them. */
export type Names = Record<SeatNo, string>;

export interface Square {
  cell: string;
  file: number;
  rank: number;
  marking: string;
  dots: number;
  rosette?: boolean;
  safe?: boolean;
  special?: 'double' | 'forfeit' | null;
  award?: boolean;
  value?: number;
}

export interface RulesInfo {
  preset: string;
  name: string;
  rules: string;
  summary: string;
  pieces: number;
  stacking: boolean;
  scored: boolean;
  stake: number;
  /** Not sent by the server yet; `staging` marks the boxed game's start space S. */
  entry?: string;
  board: { id: string; files: number; squares: Square[] };
  path_length: number;
  paths: Record<Side, string[]>;
  path_ends: Record<Side, { start: string | null; end: string | null }>;
  dice: { count: number; throws: { move: number; ends_turn: boolean; extra: boolean }[] };
}

export interface PresetSummary {
  id: string;
  name: string;
  summary: string;
  /** A solved table exists: the perfect level plays perfectly (else it plays as hard). */
  solved?: boolean;
  /** k > 0: the table is an endgame table, exact with at most k pieces left a side. */
  endgame?: number;
  /** No table, but a trained network: the perfect level plays it (learned, not exact). */
  learned?: boolean;
  /** The server's background solve of the missing table (null: none). */
  solve?: SolveStatus | null;
}

export interface SolveStatus {
  state: 'queued' | 'solving' | 'ready' | 'skipped' | 'failed';
  progress: number;
  eta_seconds?: number;
  reason?: string;
}

export interface LegalMove {
  from: number;
  to: number;
  kind: MoveKind;
  capture: boolean;
  rosette: boolean;
  bear_off: boolean;
  enter: boolean;
}

export interface Stats {
  throws: number;
  moves: number;
  passes: number;
  captures: number;
  rosettes: number;
  borne_off: number;
  bounces: number;
  forfeits: number;
}

export interface SeatPieces {
  seat: SeatNo;
  /** Staging rule sets: counters not entered yet (path index -1). */
  pool: number;
  /** counts[i]: pieces at path index i; 0 = waiting (or on S when staging), N+1 = borne off. */
  counts: number[];
  stats?: Stats;
}

export type Phase =
  | 'start'
  | 'roll_off'
  | 'awaiting_roll'
  | 'awaiting_move'
  | 'awaiting_award'
  | 'awaiting_forfeit'
  | 'game_over';

export interface GameState {
  position: string;
  phase: Phase;
  to_act: SeatNo | null;
  roll: number | null;
  legal_moves: LegalMove[];
  pieces: SeatPieces[];
  turn: number;
  events: number;
  kitty?: number;
  /** Pass and play: whether `undo` has a decision to take back. */
  can_undo?: boolean;
}

export interface SeatInfo {
  seat: SeatNo;
  side: Side;
  kind: 'empty' | 'user' | 'guest' | 'bot';
  name?: string;
  rating?: number;
  /** A computer seat: its level, and how it plays where the name says more (`as_hard`…). */
  level?: string;
  level_note?: string;
  left?: boolean;
  /** Hints taken in this game (games against the computer that are not rated). */
  hints?: number;
}

export interface SummarySeat extends Stats {
  seat: SeatNo;
  name: string;
  rating_before?: number;
  rating_after?: number;
  rating_change?: number;
  balance?: number;
  hints?: number;
  /** A computer seat: as in SeatInfo, so that a finished game names it in the page's words. */
  level?: string;
  level_note?: string;
}

export interface Summary {
  winner: SeatNo;
  reason: string;
  turns: number;
  seats: SummarySeat[];
  score?: number;
  kitty?: number;
}

export type TableStatus = 'waiting' | 'playing' | 'finished' | 'closed';

export interface Snapshot {
  id: string;
  rules: string;
  rules_name: string;
  public: boolean;
  rated: boolean;
  status: TableStatus;
  version: number;
  seats: SeatInfo[];
  game: GameState;
  summary: Summary | null;
  /** Pass and play: both seats are this player's. */
  local?: boolean;
  rematch?: Rematch | null;
}

/** After a game between two people: who offered a rematch, who declined, the new table. */
export interface Rematch {
  offers: SeatNo[];
  declined: SeatNo | null;
  table: string | null;
}

export interface Clock {
  seat: SeatNo;
  remaining_ms: number;
  timeout_ms: number;
}

/** One entry of a `table` message's `events` (fields depend on `kind`). */
// The table events and the kinds of move: ./events.ts.
export type { MoveKind, TableEvent, TableEventKind } from './events.ts';

export interface User {
  id: number;
  username: string;
  rating: number;
  games: number;
  wins: number;
  created_at?: number;
  /** GET /api/me only: whether the account has the administrator role. */
  admin?: boolean;
  /** The language the account chose for this client ("" none; docs/server.md "Your account"). */
  language?: string;
}

export interface MatchRow {
  id: string;
  rules: string;
  rated: boolean;
  players: string[];
  winner: number;
  reason: string;
  started_at: number;
  finished_at: number;
  summary: Summary | null;
  you?: number;
  result?: 'win' | 'loss';
  opponent?: string;
  rating_change?: number;
  /** The rule set's name for people (`rules` is its id). */
  rules_name?: string;
  /** For a game ended by leaving, resigning or the clock: the seat that ended it. */
  ended_by?: number;
  /** Each seat's accuracy once the server has reviewed the game (null: no decision), else null. */
  accuracy?: [number | null, number | null] | null;
  accuracy_estimate?: boolean;
}

export interface RecordEvent {
  player: Side;
  throw?: number;
  move?: { from: number; to: number; kind?: string };
  [k: string]: unknown;
}

export interface GameRecord {
  format: string;
  rules: string;
  events: RecordEvent[];
  result?: { final?: string; reason?: string; winner?: Side };
}

/** GET /api/games/<id>/positions (requested from the server; see the replay screen). */
export interface PositionsAnswer {
  positions: { event: number; position: string; counts?: number[][] }[];
}

/** GET /api/games/<id>/analysis: the game review (docs/analysis.md, "JSON"). */
export interface AnalysedMove {
  event: number;
  seat: SeatNo;
  legal: number;
  from?: number;
  to?: number;
  best?: { from: number; to: number; award?: boolean };
  award?: boolean;
  resign?: boolean;
  value: number;
  best_value: number;
  cost: number;
  grade: string;
  /** Light's winning chance after this decision. */
  light?: number;
  estimate?: boolean;
}

export interface AnalysedThrow {
  event: number;
  seat: SeatNo;
  outcome: number;
  luck: number;
  light: number;
  light_expected: number;
}

export interface ThrowRef {
  event: number;
  outcome: number;
  luck: number;
}

export interface AnalysedPlayer {
  seat: SeatNo;
  decisions: number;
  best: number;
  total_cost: number;
  worst_cost: number;
  /** null: no decision with a choice (docs/analysis.md). */
  accuracy?: number | null;
  luck?: number;
  throws?: number;
  luckiest?: ThrowRef | null;
  unluckiest?: ThrowRef | null;
  /** Hints the player took (server reviews; 0 when none). */
  hints?: number;
}

export interface GraphPoint {
  step: number;
  event: number;
  light: number;
  mark?: 'mistake' | 'blunder' | 'luck';
}

export interface AnalysisAnswer {
  estimate?: boolean;
  source?: string;
  /** Why the review is estimated: the server's English words, and their code. */
  note?: string;
  note_code?: string;
  summary?: string;
  moves: AnalysedMove[];
  throws?: AnalysedThrow[];
  players: AnalysedPlayer[];
  decomposition?: {
    start: number;
    result: number;
    light_luck: number;
    dark_luck: number;
    light_lost: number;
    dark_lost: number;
    residual: number;
  };
  key_moves?: { decisions: AnalysedMove[]; throws: AnalysedThrow[] };
  graph?: GraphPoint[];
}

/** GET /api/explore: every throw and legal move of a position with its winning chance. */
export interface ExploredMove {
  from: number;
  to: number;
  /** The decider's winning chance after the move. */
  value: number;
  best: boolean;
  award?: boolean;
  /** The position string the move leads to. */
  position: string;
}

export interface ExploreAnswer {
  position: string;
  rules: string;
  actor: Side;
  /** The actor's winning chance. */
  value: number;
  estimate: boolean;
  throws?: {
    outcome: number;
    probability: number;
    value: number;
    position: string;
    moves: ExploredMove[];
  }[];
  moves?: ExploredMove[];
}

/** A rating at one rule set (GET /api/users/<name>/profile, docs/server.md "Profiles"). */
export interface RuleRating {
  rules: string;
  rules_name: string;
  rating: number;
  games: number;
  wins: number;
  provisional: boolean;
}

export interface ProfileAnswer {
  user: Omit<User, 'id'> & { created_at: number; provisional: boolean };
  ratings: RuleRating[];
  graph: { at: number; rating: number; rules: string }[];
  recent: {
    games: number;
    wins: number;
    best_win: {
      id: string;
      opponent: string;
      rating: number;
      rules: string;
      rules_name: string;
      finished_at: number;
    } | null;
    accuracy: number | null;
    accuracy_games: number;
  };
  games: MatchRow[];
}
