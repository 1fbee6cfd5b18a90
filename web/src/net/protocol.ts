// The WebSocket protocol's messages as the client knows them: every client → server message with
// its fields, and the type of every server → client message. docs/protocol.md is the one
// description: scripts/protocol-doc.test.mjs (run by `npm test`) reads its tables and checks that
// these name exactly the same messages and fields, so a message or field added on one side only
// fails the build. The snapshot carried by `table` and `joined` is in ../logic/types.ts, checked
// by the same test against the document's example.

import type { MoveKind, SeatNo } from '../logic/types.ts';

/** The fixed quick messages of a table (docs/protocol.md, "quick_message"): codes, not words. */
export type QuickCode = 'good_game' | 'good_luck' | 'well_played' | 'thanks' | 'oops';

/** The fields every table action carries (docs/protocol.md, "Actions"). */
interface Action {
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

/** Every type of message the server sends. */
export type ServerType =
  | 'welcome'
  | 'pong'
  | 'error'
  | 'joined'
  | 'table'
  | 'ok'
  | 'action_ok'
  | 'tables'
  | 'hint'
  | 'quick_message'
  | 'presence'
  | 'queued'
  | 'match_found'
  | 'spectators'
  | 'table_private'
  | 'bot_ready'
  | 'bots'
  | 'challenge_sent'
  | 'challenged'
  | 'challenge_ended';
