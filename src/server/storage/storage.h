// Storage: the server's persistent state behind a small interface with two backends, SQLite (the
// default: one file, WAL; sqlite_storage.h) and PostgreSQL (pg_storage.h), so that the handlers
// never know which one they talk to.
//
// Contract for every backend: each write is one transaction (all or nothing); the schema is brought
// up to date by numbered migration steps recorded in `schema_version` when the storage is opened,
// and opening twice is a no-op; usernames are unique case-insensitively (they are ASCII by the
// validation rules of accounts.h). Expected outcomes (name taken, no such session) are return
// values; a failure of the database itself throws StorageError, which handlers turn into a 500.
// Implementations are safe to call from several threads.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "server/storage/account_store.h"

namespace ur::server {

struct User {
  std::int64_t id = 0;
  std::string username;  // as registered (case kept)
  std::string password_hash;
  std::int64_t created_at = 0;  // unix seconds
  double rating = 1200;
  int games = 0;
  int wins = 0;
  // The language the account chose for the web client ("de"; migration 14), "" when none.
  std::string language;
};

// A user's rating at one rule set (migration 9, docs/server.md "Profiles and ratings per rule
// set"): rated as its own pool, as lichess rates each variant, from kInitialRating.
struct RuleRating {
  std::string rules;  // the canonical rule set
  double rating = 1200;
  int games = 0;
  int wins = 0;
};

struct SessionRecord {
  std::string id;  // 128-bit random token, 32 lowercase hex digits
  std::int64_t user_id = 0;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
};

// One table as stored: the columns the lobby queries, the state as JSON (table_model.h) and the
// game record's events, kept apart from the state so that an accepted action writes only what it
// adds (migration 7; docs/server.md, "Storage"): the row holds the events up to its last snapshot
// and `table_events` one row per later version with that version's new events.
struct TableRow {
  std::string id;      // 16 lowercase hex digits
  std::string rules;   // canonical rule-set string
  std::string status;  // "waiting" | "playing" | "finished" | "closed"
  bool is_public = false;
  bool rated = false;
  std::int64_t version = 0;
  std::string state;  // JSON: seats, invite, recent action ids (rows before migration 7: + events)
  std::int64_t created_at = 0;
  std::int64_t updated_at = 0;
  // Who created it, written once when the row is inserted (later saves leave them): the owner's
  // actor key, their user id (0 for a guest) and, for a guest, the address they came from. The
  // caps on open tables count by these (docs/security.md).
  std::string owner_key;
  std::int64_t owner_user = 0;
  std::string owner_addr;
  // Ownership in a cluster (migrations 6 and 8; docs/scaling.md, "Table leases"). Read from the
  // row; save_table writes only clock_deadline, the lease columns change through the lease calls.
  std::string owner_node{};         // the node holding the table ("" = nobody yet)
  std::int64_t lease_until = 0;     // unix ms: the holder's node lease (0 = none), read only
  std::int64_t epoch = 0;           // +1 on every takeover: the fencing token of server actions
  std::int64_t clock_deadline = 0;  // unix ms when the player to act runs out of time; 0 = none
  // Game record events (engine/game_record.h) as JSON objects joined by commas. Read: `events`
  // is the snapshot's, `new_events` those appended after it, in version order. Written: with
  // `snapshot`, `events` replaces the snapshot and the appended rows are deleted; without it,
  // the snapshot is left alone and `new_events` (this version's, if any) is appended.
  std::string events{};
  std::string new_events{};
  bool snapshot = true;
};

// A lease a node holds: the table and the epoch it holds it at.
struct TableLease {
  std::string table_id;
  std::int64_t epoch = 0;
};

// save_table and finish_game without an epoch condition (a player's action: docs/scaling.md).
inline constexpr std::int64_t kAnyEpoch = -1;

// An account becomes established (its waiting tables lead the lobby) with its first rated game or
// a day after it registered.
inline constexpr std::int64_t kEstablishedAfterSeconds = 24 * 3600;

// A page of the lobby: public tables that are waiting or playing.
struct LobbyQuery {
  int limit = 50;
  int offset = 0;
  std::int64_t now = 0;  // unix seconds: an account older than a day is established
};

// One finished game. Seat index 0 is seat 1 (light), 1 is seat 2 (dark).
struct MatchRow {
  std::string id;  // the table's id: one game per table
  std::string rules;
  bool rated = false;
  std::array<std::int64_t, 2> user_ids{};  // 0 = a guest or a bot
  std::array<std::string, 2> names;
  int winner = 0;                         // 1 or 2
  std::string reason;                     // "bore-off", "resign", "timeout", "left"
  std::array<double, 2> rating_before{};  // rated games only (else 0)
  std::array<double, 2> rating_after{};
  std::string summary;  // JSON (table.h)
  std::string record;   // the engine's JSON game record
  std::int64_t started_at = 0;
  std::int64_t finished_at = 0;
};

// The stored review of a finished game (docs/analysis.md, "Stored reviews"): written off the I/O
// threads when the game ends (or on the first request for an older game), read by GET
// /api/games/<id>/analysis and, without `review`, by the match history for the accuracies.
struct ReviewRow {
  std::string match_id;
  bool estimate = false;             // estimated by search (no table when it was made)
  std::array<double, 2> accuracy{};  // seat 1's and seat 2's, 0..100
  std::string review;                // the analysis JSON; empty from review_summaries
  std::int64_t created_at = 0;
};

// An account's place in the bot pool (docs/server.md, "Bot accounts"): every rated game with a bot
// account in a seat is rated here, on both sides, and leaves the ordinary rating, games and wins
// untouched. `is_bot` is set by the owner; `has_token` says a bot token is active (only a hash of
// it is stored).
struct BotStatus {
  bool is_bot = false;
  bool has_token = false;
  double rating = 1200;
  int games = 0;
  int wins = 0;
};

// A puzzle as stored (migration 11; docs/puzzles.md, "Storage"): the fields of the generator's
// file, and its Glicko-2 rating, moved by every rated attempt.
struct PuzzleRow {
  std::string id;  // analysis::puzzle_id: 16 lowercase hex digits
  std::string rules;
  std::string position;  // awaits the mover's move for throw_k
  int throw_k = 0;
  std::string moves;   // JSON: every legal move with its exact chance, as in the file
  std::string best;    // the best move's text ("6->10")
  std::string themes;  // the theme names, each followed by a comma and the first preceded by one
  double difficulty = 0;
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
  int attempts = 0;  // rated attempts
  int solved = 0;    // of which right
  std::int64_t created_at = 0;
};

// An account's puzzle rating (Glicko-2); a player with no rated attempt has the new solver's.
struct PuzzleRating {
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
  int attempts = 0;
  int solved = 0;
};

// The next puzzle for a player: of `rules`, with `theme` ("" any), never one the account
// (user_id > 0) attempted, the nearest to the aim (above or below). The aim is `rating`, or with
// `own_rating` the account's puzzle rating (the new solver's when it has none) plus `offset`,
// read in the same statement that chooses the puzzle.
struct PuzzleQuery {
  std::int64_t user_id = 0;
  std::string rules;
  std::string theme;
  double rating = 1500;
  bool own_rating = false;
  double offset = 0;
};

// The result of an account's attempt: `rated` false when the account had attempted the puzzle
// before (a replay changes nothing); the ratings before and after otherwise.
struct AttemptOutcome {
  bool rated = false;
  PuzzleRating before;
  PuzzleRating after;
  double puzzle_before = 0;
  double puzzle_after = 0;
};

// One attempt of an account's puzzle history (GET /api/puzzles/me), newest first.
struct PuzzleAttemptRow {
  std::string puzzle_id;
  std::string rules;
  std::string move;
  bool solved = false;
  double rating_before = 0;  // the account's puzzle rating before and after the attempt
  double rating_after = 0;
  std::int64_t created_at = 0;
};

class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Storage {
 public:
  virtual ~Storage() = default;

  virtual std::string backend() const = 0;        // "sqlite" or "postgresql"
  virtual int schema_version() = 0;               // the newest migration applied
  virtual int latest_schema_version() const = 0;  // the newest this build knows
  virtual bool healthy() = 0;                     // a trivial query succeeds
  // How many calls the backend runs at once: its connections (SQLite's one; PostgreSQL's pool).
  // With one, the server calls it inline rather than from a storage thread (on_storage).
  virtual int connections() const = 0;

  // nullopt when the name is taken (case-insensitively).
  virtual std::optional<User> create_user(std::string_view username, std::string_view password_hash,
                                          std::int64_t now) = 0;
  virtual std::optional<User> find_user_by_name(std::string_view username) = 0;
  virtual std::optional<User> find_user_by_id(std::int64_t id) = 0;

  virtual void create_session(const SessionRecord& session) = 0;
  // The user of an unexpired session, if any.
  virtual std::optional<User> user_for_session(std::string_view session_id, std::int64_t now) = 0;
  virtual bool delete_session(std::string_view session_id) = 0;
  virtual int delete_expired_sessions(std::int64_t now) = 0;

  // Tables. save_table writes the row when the stored version is `expected_version` (-1: the
  // row must not exist yet) and, unless it is kAnyEpoch, the stored epoch is `expected_epoch`;
  // it returns false without writing otherwise: a second node, a stale cache or an old owner
  // that lost its lease can never overwrite a newer state.
  virtual bool save_table(const TableRow& table, std::int64_t expected_version,
                          std::int64_t expected_epoch = kAnyEpoch) = 0;
  virtual std::optional<TableRow> find_table(std::string_view id) = 0;
  virtual std::vector<TableRow> live_tables() = 0;  // "waiting" or "playing": restored at start
  // The lobby, in one order on every backend: first the tables waiting for a player whose
  // owner is an established account (at least one rated game, or registered a day ago), then
  // the other waiting tables, then the games in progress; newest change first inside each group,
  // ties broken by id.
  virtual std::vector<TableRow> public_tables(const LobbyQuery& query) = 0;
  // Waiting tables created by this owner: by `owner_key` for an account (owner_user > 0), else
  // by `owner_addr` (every guest at that address).
  virtual int open_tables_of(const TableRow& owner) = 0;

  // Ends a game in one transaction: saves the table row (as save_table, false on a version or
  // epoch conflict and nothing written), inserts the match and, when it is rated, computes both Elo
  // updates from the ratings stored now (elo.h) and writes them with the games and wins counts.
  // `match` receives the ratings before and after.
  virtual bool finish_game(const TableRow& table, std::int64_t expected_version, MatchRow& match,
                           std::int64_t expected_epoch = kAnyEpoch) = 0;
  virtual std::optional<MatchRow> find_match(std::string_view id) = 0;
  // Newest first (ties by id). The next page starts after the cursor (before, before_id): the
  // finished_at and id of the last match of the previous page; before = 0 starts at the newest;
  // an empty before_id leaves out every match finished at `before`.
  virtual std::vector<MatchRow> user_matches(std::int64_t user_id, int limit, std::int64_t before,
                                             std::string_view before_id = {}) = 0;
  // Users with at least one rated game, best rating first; banned and deleted accounts left out.
  virtual std::vector<User> leaderboard(int limit) = 0;
  // The user's rating at each rule set they played a rated game at (finish_game keeps them
  // beside the overall rating; bot-pool games leave them alone), most games first.
  virtual std::vector<RuleRating> rule_ratings(std::int64_t user_id) = 0;

  // Reviews (migration 4). save_review inserts or replaces the review of a stored match.
  virtual void save_review(const ReviewRow& review) = 0;
  virtual std::optional<ReviewRow> find_review(std::string_view match_id) = 0;
  // The reviews of these matches that exist, without their JSON (for a page of the history).
  virtual std::vector<ReviewRow> review_summaries(const std::vector<std::string>& match_ids) = 0;

  // Table leases (migrations 6 and 8; docs/scaling.md, "Table leases"): which node runs a live
  // table's timers. A node holds one lease, its `nodes` row, renewed once a period; a live table
  // names its holder (`owner_node`) and the epoch it holds it at, and is the holder's while the
  // holder's lease runs. Times are unix ms of the calling node.
  //
  // claim_table takes one waiting or playing table when it has no holder, or is this node's, or
  // its holder's lease ran out before `now_ms`, and returns the epoch it holds it at (+1 when
  // it changed hands); nullopt when a live node holds it, the table is not live, or this node's
  // own lease is not live at `now_ms` (renew first).
  virtual std::optional<std::int64_t> claim_table(std::string_view id, std::string_view node,
                                                  std::int64_t now_ms) = 0;
  // Extends `node`'s lease to `until_ms` (one row, created if missing) and returns the live
  // tables it holds: a table missing from the answer was taken over (or its game ended). A time
  // in the past hands every table back to the next sweep of another node.
  virtual std::vector<TableLease> renew_leases(std::string_view node, std::int64_t until_ms) = 0;
  // Takes live tables whose holder's lease ran out before `now_ms` (or that nobody holds), each
  // at epoch + 1, and returns them: of each such holder a fair share, its live tables divided by
  // the nodes alive, at most `limit` in all; the taker's own lease is extended to `until_ms`
  // when it takes any. A holder left with no live table is forgotten. Two nodes taking at once
  // never take the same table (PostgreSQL: FOR UPDATE SKIP LOCKED), and a holder renewing while
  // a taker reads it as expired waits for the takeover, whose tables its answer then lacks.
  virtual std::vector<TableLease> take_expired_leases(std::string_view node, std::int64_t now_ms,
                                                      std::int64_t until_ms, int limit) = 0;
  // Stores the deadline of a game's first move, timed from the moment the player's page opened
  // the table (not with a commit: no version changes), when the table is still at `version`
  // and no deadline is stored yet; false otherwise (the stored one, if any, stands).
  virtual bool start_clock(std::string_view id, std::int64_t version, std::int64_t deadline_ms) = 0;

  // Bot accounts. set_bot marks (or unmarks) the account and replaces its token hash; an empty
  // hash revokes the token. user_for_bot_token finds the bot account whose active token has this
  // hash. A rated game with a bot in a seat is rated in the bot pool by finish_game.
  virtual BotStatus bot_status(std::int64_t user_id) = 0;
  virtual void set_bot(std::int64_t user_id, bool is_bot, std::string_view token_hash) = 0;
  virtual std::optional<User> user_for_bot_token(std::string_view token_hash) = 0;

  // Accounts people manage, moderation and follows (migrations 10 and 12; account_store.h).
  virtual AccountStore& accounts() = 0;

  // Puzzles (migration 11; docs/puzzles.md). add_puzzles inserts those whose id is new and
  // returns how many it inserted. record_attempt, for an account, rates the attempt of a stored
  // puzzle once: in one transaction it locks the puzzle's row, then the account's rating row,
  // inserts the attempt (nothing more when one exists) and moves both ratings (glicko2.h), so
  // attempts recorded at once on several nodes never lose an update; nullopt for an unknown
  // puzzle. daily_puzzle is the first puzzle of `rules` whose id is at least `key` (wrapping).
  virtual int add_puzzles(const std::vector<PuzzleRow>& puzzles, std::int64_t now) = 0;
  virtual std::optional<PuzzleRow> find_puzzle(std::string_view id) = 0;
  virtual std::optional<PuzzleRow> next_puzzle(const PuzzleQuery& query) = 0;
  virtual std::optional<PuzzleRow> daily_puzzle(std::string_view rules, std::string_view key) = 0;
  virtual std::int64_t count_puzzles(std::string_view rules) = 0;
  virtual bool has_puzzles(std::string_view rules) = 0;
  virtual PuzzleRating puzzle_rating(std::int64_t user_id) = 0;
  // The account's latest `limit` attempts, newest first.
  virtual std::vector<PuzzleAttemptRow> puzzle_history(std::int64_t user_id, int limit) = 0;
  virtual std::optional<AttemptOutcome> record_attempt(std::int64_t user_id,
                                                       std::string_view puzzle_id,
                                                       std::string_view move, bool solved,
                                                       std::int64_t now) = 0;
};

struct OpenStorageResult {
  std::unique_ptr<Storage> storage;  // null on error
  std::string error;
};

// `url` is "postgresql://..." or "postgres://..." (a libpq connection URI), "sqlite:PATH" or a
// plain path (SQLite; the parent directory must exist). The error never contains a password.
// `connections`: PostgreSQL's pool size (pg_storage.h); SQLite keeps its one connection.
OpenStorageResult open_storage(const std::string& url, int connections = 1);

}  // namespace ur::server
