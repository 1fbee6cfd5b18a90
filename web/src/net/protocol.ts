// The WebSocket protocol's messages as the client knows them: every client → server message with
// its fields, the message that answers it, and every server → client message with its fields (a
// union discriminated by `type`). docs/protocol.md is the one description:
// scripts/protocol-doc.test.mjs (run by `npm test`) reads its tables and examples and checks that
// these name exactly the same messages, answers and fields, so a message or field added on one
// side only fails the build. The snapshot carried by `table` and `joined` and the table events are
// in ../logic/types.ts, checked by the same test against the document's example and event list.

import type {
  Clock,
  MoveKind,
  Rematch,
  SeatNo,
  Snapshot,
  TableEvent,
  User,
} from '../logic/types.ts';

/** The fixed quick messages of a table (docs/protocol.md, "quick_message"): codes, not words. */
export type QuickCode = 'good_game' | 'good_luck' | 'well_played' | 'thanks' | 'oops';

/** The fields every table action carries (docs/protocol.md, "Actions"). */
export interface Action {
  table: string;
  version: number;
  action_id: string;
}

/** Each client message's fields, by its `type` (the envelope's `v` and `id` aside). */
export interface ClientMessages {
  hello: Record<string, never>;
  ping: { t?: number };
  create_table: {
    rules?: string;
    public?: boolean;
    rated?: boolean;
    seat?: SeatNo;
    level?: string;
    local?: boolean;
    names?: string[];
  };
  join_table: { table: string; invite: string };
  open_table: { table: string };
  unwatch: { table: string };
  roll: Action;
  move: Action & { from: number; to: number; kind?: MoveKind };
  resign: Action;
  leave: Action;
  undo: Action;
  rematch: { table: string; accept?: boolean };
  set_visibility: { table: string; public: boolean };
  list_tables: { limit?: number; offset?: number };
  hint: { table: string };
  quick_message: { table: string; code: QuickCode };
  find_match: { rules?: string; rated?: boolean };
  cancel_match: Record<string, never>;
  bot_ready: { rules: string[] };
  list_bots: Record<string, never>;
  challenge_bot: { bot: string; rules?: string; seat?: SeatNo; rated?: boolean };
  challenge_player: { to: string; rules?: string; rated?: boolean };
  challenge_answer: { challenge: string; accept: boolean };
  challenge_cancel: { challenge: string };
}

export type ClientType = keyof ClientMessages;

/** The table actions: they carry the drawn version and an action id. */
export type ActionType = 'roll' | 'move' | 'resign' | 'leave' | 'undo';

/** What an action carries besides the fields every action has (`Action`). */
export type ActionFields<T extends ActionType> = Omit<ClientMessages[T], keyof Action>;

/** The message each client message is answered with (docs/protocol.md's "answer" column). */
export interface Replies {
  hello: 'welcome';
  ping: 'pong';
  create_table: 'joined';
  join_table: 'joined';
  open_table: 'joined';
  unwatch: 'ok';
  roll: 'action_ok';
  move: 'action_ok';
  resign: 'action_ok';
  leave: 'action_ok';
  undo: 'action_ok';
  rematch: 'ok';
  set_visibility: 'ok';
  list_tables: 'tables';
  hint: 'hint';
  quick_message: 'ok';
  find_match: 'queued';
  cancel_match: 'ok';
  bot_ready: 'bot_ready';
  list_bots: 'bots';
  challenge_bot: 'match_found';
  challenge_player: 'challenge_sent';
  challenge_answer: 'ok';
  challenge_cancel: 'ok';
}

/** A challenge between two accounts (docs/protocol.md, "Challenges"). */
export interface Challenge {
  id: string;
  from: string;
  from_rating: number;
  to: string;
  rules: string;
  rated: boolean;
  expires_at: number;
  expires_in: number;
}

/**
 * A table's seat, its player's page open or not (`joined.online`, `presence`); null for a seat
 * without a person (the computer's, a bot's, an empty one, pass and play).
 */
type Online = [boolean | null, boolean | null];

/** What `joined` and `match_found` carry: your place at the table and its snapshot. */
interface Joined {
  table: Snapshot;
  you: SeatNo | null;
  role: 'player' | 'spectator';
  owner: boolean;
  invite?: string;
  online: Online;
  spectators: number;
  clock: Clock | null;
}

/** A live public table as `tables` lists it. */
export interface PublicTable {
  id: string;
  rules: string;
  status: string;
  rated: boolean;
  version: number;
  players: (string | null)[];
  updated_at: number;
}

/** A bot online as `bots` lists it. */
export interface BotOnline {
  name: string;
  rules: string[];
  rating: number;
  games: number;
  busy: boolean;
}

/** Each server message's fields, by its `type` (the envelope's `v` and `re` aside). */
export interface ServerMessages {
  welcome: {
    server: string;
    protocol: number;
    connection: number;
    guest: boolean;
    name: string;
    user: User | null;
  };
  pong: { t?: number };
  error: {
    code: string;
    message: string;
    /** A table message's error names the table; `stale_version` brings it as it is now. */
    table?: string;
    snapshot?: Snapshot;
    clock?: Clock | null;
  };
  joined: Joined;
  match_found: Joined;
  table: { table: Snapshot; events: TableEvent[]; clock: Clock | null; spectators: number };
  ok: {
    table?: string;
    code?: QuickCode;
    rematch?: Rematch | null;
    cancelled?: boolean;
    forwarded?: boolean;
  };
  action_ok: {
    table: string;
    action: ActionType;
    action_id: string;
    version: number;
    events?: TableEvent[];
    duplicate?: boolean;
  };
  tables: { tables: PublicTable[]; offset: number; limit: number; next_offset: number | null };
  hint: {
    table: string;
    from: number;
    to: number;
    kind: MoveKind;
    value: number;
    estimate: boolean;
    hints: number;
    version: number;
  };
  quick_message: { table: string; seat: SeatNo; name: string; code: QuickCode };
  presence: { table: string; seat: SeatNo; online: boolean };
  queued: { rules: string; rated: boolean; rating: number };
  spectators: { table: string; count: number };
  table_private: { table: string; message: string };
  bot_ready: { rules: string[]; rating: number };
  bots: { bots: BotOnline[] };
  challenge_sent: { challenge: Challenge };
  challenged: { challenge: Challenge };
  challenge_ended: {
    challenge: string;
    reason: 'accepted' | 'declined' | 'cancelled' | 'expired' | 'failed';
    table?: string;
    message?: string;
  };
}

/** Every type of message the server sends. */
export type ServerType = keyof ServerMessages;

/** One server message of type T, with its envelope. */
export type MessageOf<T extends ServerType> = {
  v: number;
  type: T;
  re?: string | number;
} & ServerMessages[T];

/** Any server message: a union discriminated by `type`, so `if (m.type === 'table')` narrows it. */
export type ServerMessage = { [T in ServerType]: MessageOf<T> }[ServerType];
