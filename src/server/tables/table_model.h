// TableModel: one table of the platform as plain data and rules, with no I/O: its seats, owner,
// visibility, single-use invite, the ur::Game played at it, a version that grows by one with
// every accepted change, and the ids of the latest client actions.
//
// Every operation validates its caller (an Actor: who is asking) against the seats and the
// engine and either changes the table, bumps the version and returns the events it produced, or
// changes nothing and returns an Error with a code for programs and a message for people.
// Client actions carry the version they were based on and an action id: an action id seen
// before is answered with its first answer and not applied again; a version that is not the
// current one is refused as stale (table_handlers.cpp sends the fresh snapshot with it).
//
// The model is split by concern: table_model.cpp creates tables and seats players,
// table_actions.cpp plays the game (throws, moves, endings, undo, hints, rematches),
// table_record.cpp stores it as a TableRow (storage.h) whose game is the game record's event list
// (engine/game_record.h: one notation for a played game) and table_views.h is what clients see.
// A restart replays the stored events through the checked Game layer and restores the table
// exactly, version included. The model knows nothing of the computer players beyond what the
// service hands it (ComputerName). It is not thread-safe: table_service.h runs each table on a
// strand.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/game.h"
#include "rules/rule_set.h"
#include "server/accounts/identity.h"
#include "server/storage/storage.h"
#include "server/tables/table_events.h"

namespace ur::server {

using json = nlohmann::json;

// Who asks. `key` is stable across reconnects: "u:<user id>" for users, "g:<hash of the guest
// cookie>" for guests (a guest without the cookie gets a key for this connection only).
struct Actor {
  std::string key;
  std::int64_t user_id = 0;  // 0 for guests
  std::string name;
  double rating = 0;
  bool is_user() const { return user_id > 0; }
};
Actor actor_of(const Identity& id, std::uint64_t connection_id);

enum class SeatKind : std::uint8_t { kEmpty, kUser, kGuest, kBot };
enum class TableStatus : std::uint8_t { kWaiting, kPlaying, kFinished, kClosed };
const char* status_name(TableStatus s);
std::optional<TableStatus> parse_status(std::string_view s);
const char* seat_kind_name(SeatKind k);
std::optional<SeatKind> parse_seat_kind(std::string_view s);
// Seat 1 is light, seat 2 dark.
inline int seat_number(Player p) {
  return index_of(p) + 1;
}
inline Player seat_player(int seat) {
  return seat == 1 ? Player::kLight : Player::kDark;
}

struct Seat {
  SeatKind kind = SeatKind::kEmpty;
  std::string key;
  std::int64_t user_id = 0;
  std::string name;
  double rating = 0;  // when they sat down (users)
  std::string level;  // bots: beginner, easy, medium, hard, perfect
  bool left = false;  // left the table (cannot come back)
  bool empty() const { return kind == SeatKind::kEmpty; }
};

struct TableOptions {
  std::string rules = "finkel";
  bool is_public = false;
  bool rated = false;
  int seat = 1;           // the creator's seat (1 light, 2 dark)
  std::string bot_level;  // non-empty: the other seat is this computer player (unrated)
  // Pass and play: both seats belong to the creator (two people at one device), the game starts
  // at once, never public, never rated, no idle clock, and `undo` is allowed. `names` are the two
  // sides' names (empty: "Light" and "Dark").
  bool local = false;
  std::array<std::string, 2> names;
};

// A uniform double in [0, 1): the dice. The server passes a CSPRNG; tests pass a seeded one.
using UnitRandom = std::function<double()>;

// What the model needs to know of the computer players, handed in by the service so that the
// model does not depend on ai/: the name of the computer seat that plays `level` under `rules`,
// or nullopt when there is no such level.
using ComputerName =
    std::function<std::optional<std::string>(const std::string& level, const RuleSet& rules)>;

// A computer seat's name: "Computer (<level>)", or, where the level plays otherwise than its name
// says (the perfect level without a whole solved table), the note's words: `note` is "endgame",
// "learned" or "as_hard" (docs/protocol.md, `seats[].level_note`), "" for none.
std::string computer_seat_name(const std::string& level, std::string_view note);
// The note code of a computer seat's name (computer_seat_name's `note`), "" for a name without one,
// so that a client can name the seat in its own words.
std::string_view computer_note(std::string_view name);

// The rematch after a finished game between two people (TableModel::rematch).
struct Rematch {
  std::array<bool, 2> offers{};  // by seat
  int declined = 0;              // the seat that declined the last offer, 0 for none
  std::string table;             // the rematch's table, once both agreed
  bool any() const { return offers[0] || offers[1] || declined || !table.empty(); }
};

class TableModel {
 public:
  // A table with the creator seated; validates the options (rule set, level, rated needs a
  // user, seat 1 or 2). With a bot the game starts at once; `computers` names its seat.
  static Result<TableModel> create(std::string id, const TableOptions& options,
                                   const Actor& creator, std::int64_t now,
                                   const ComputerName& computers);
  // A matched pair: both seated, the game starts at once.
  static Result<TableModel> create_match(std::string id, std::string rules, bool rated,
                                         const Actor& light, const Actor& dark, std::int64_t now,
                                         bool is_public = false);
  // Rebuilds a stored table (the game is replayed); an error names what is corrupt
  // (table_record.cpp).
  static Result<TableModel> from_row(const TableRow& row);
  // The row to store: the state, and the game record as a new snapshot when one is due (the
  // table was never saved, kSnapshotEvents events were added since the last one, or the game
  // ended) or else only the events the stored row lacks. saved() tells the model that the row
  // it makes now was written, so that the next one appends after it.
  TableRow to_row(std::int64_t now) const;
  void saved();
  MatchRow match_row(std::int64_t now) const;

  const std::string& id() const { return id_; }
  const std::string& rules() const { return rules_; }
  // A pass-and-play table (TableOptions::local).
  bool local() const { return local_; }
  // Whether a person (a user or a guest) sits at `seat` of a table of two people: presence
  // (docs/protocol.md) is said of them only, never of the computer, a bot or pass and play.
  bool person_at(int seat) const {
    if (seat < 1 || seat > 2 || local_) return false;
    const SeatKind k = seats_[seat - 1].kind;
    return k == SeatKind::kUser || k == SeatKind::kGuest;
  }
  std::int64_t version() const { return version_; }
  TableStatus status() const { return status_; }
  bool is_public() const { return is_public_; }
  bool rated() const { return rated_; }
  const Game& game() const { return game_; }
  const std::array<Seat, 2>& seats() const { return seats_; }
  const std::string& invite() const { return invite_; }  // empty once redeemed
  const std::string& owner() const { return owner_; }
  bool live() const { return status_ == TableStatus::kWaiting || status_ == TableStatus::kPlaying; }
  // 1 or 2 when `key` holds a seat (even one it left), else 0.
  int seat_of(std::string_view key) const;
  // The seat (1 or 2) whose player must act now, 0 when nobody must (not playing).
  int seat_to_act() const;
  bool bot_to_act() const;

  // Joins the open seat with the invite token (single use).
  std::optional<Error> join(const Actor& a, std::string_view invite);
  // Owner only: public tables can be watched by anyone with the link.
  std::optional<Error> set_public(const Actor& a, bool is_public);

  // Game actions. `based_on` is the version the client saw; `action_id` its id for the action.
  // On success `events` receives what happened (table_events.h).
  std::optional<Error> roll(const Actor& a, const UnitRandom& random, TableEvents& events);
  std::optional<Error> move(const Actor& a, int from, int to, MoveKind kind, TableEvents& events);
  std::optional<Error> resign(const Actor& a, TableEvents& events);
  std::optional<Error> leave(const Actor& a, TableEvents& events);
  // Pass and play only: takes back the last decision (a move, or a boxed award or forfeit choice)
  // and every throw after it, so the same throw waits for a decision again. The dice are never
  // thrown again by an undo: a throw with nothing after it stays.
  std::optional<Error> undo(const Actor& a, TableEvents& events);
  // Everyone had gone (TableService's expiry, docs/server.md "Table expiry"): the table closes
  // with a ClosedEvent, abandoned. A game in progress ends without a
  // result (no winner, no match row, no rating), so only a table the idle clock cannot end may
  // be abandoned: waiting, pass and play, against the computer, or with no clock running
  // (`clock_runs` false). Refused with not_playing otherwise.
  std::optional<Error> abandon(bool clock_runs, TableEvents& events);
  // The player to act ran out of time: they lose. Only while playing.
  std::optional<Error> time_out(TableEvents& events);
  // Nobody made the first move of a game between two people: it closes, unrated (table_abort.cpp).
  std::optional<Error> abort_unstarted(TableEvents& events);
  // The computer seat's actions (no actor, no action id).
  std::optional<Error> bot_roll(const UnitRandom& random, TableEvents& events);
  std::optional<Error> bot_move(const Move& m, TableEvents& events);
  // Hints (docs/protocol.md, `hint`): only in unrated games against the computer, to the seated
  // player whose move it is. check_hint says whether `a` may have one now; count_hint records
  // one given (the review says how many each seat used) and bumps the version.
  std::optional<Error> check_hint(const Actor& a) const;
  void count_hint(int seat, TableEvents& events);
  const std::array<int, 2>& hints() const { return hints_; }

  // A rematch, after a finished game between two people: `accept` true offers it (or accepts the
  // other player's offer), false declines (and withdraws every offer). Offering twice changes
  // nothing (no events). When both seats have offered, rematch_agreed() is true and the caller
  // makes the new table (colours swapped: rematch_players()) and records it with start_rematch.
  std::optional<Error> rematch(const Actor& a, bool accept, TableEvents& events);
  bool rematch_agreed() const {
    return rematch_.offers[0] && rematch_.offers[1] && rematch_.table.empty();
  }
  const Rematch& rematch_state() const { return rematch_; }
  // The new table's light and dark players: the old dark and light ones, with their ratings
  // after a rated game.
  std::array<Actor, 2> rematch_players() const;
  void start_rematch(const std::string& table_id, TableEvents& events);

  // Duplicate and stale detection for client actions. check_action returns the first answer of
  // a repeated action id (answer it, do not apply), or an error for a stale version.
  struct ActionCheck {
    std::optional<json> duplicate;
    std::optional<Error> error;
  };
  ActionCheck check_action(const Actor& a, std::string_view action_id, std::int64_t based_on) const;
  void remember_action(const Actor& a, std::string action_id, json answer);

  // Fills the ratings of a finished rated game into the summary (after Storage::finish_game).
  void set_ratings(const std::array<double, 2>& before, const std::array<double, 2>& after);
  bool has_ratings() const { return has_ratings_; }
  const std::array<double, 2>& ratings_before() const { return rating_before_; }
  const std::array<double, 2>& ratings_after() const { return rating_after_; }
  std::int64_t finished_at() const { return finished_at_; }

 private:
  TableModel(std::string id, const RuleSet& rules);
  TableModel(std::string id, Game game);
  std::optional<Error> check_seated_turn(const Actor& a, bool want_throw) const;
  void throw_dice(const UnitRandom& random, TableEvents& events);
  void apply_checked_move(const Move& m, TableEvents& events);
  void after_game_change(TableEvents& events);
  void finish(TableEvents& events);
  void bump() { ++version_; }

  std::string id_;
  std::string rules_;
  bool is_public_ = false;
  bool rated_ = false;
  bool local_ = false;
  std::string owner_;
  std::array<Seat, 2> seats_{};
  std::string invite_;
  TableStatus status_ = TableStatus::kWaiting;
  std::int64_t version_ = 1;
  Game game_;
  std::int64_t created_at_ = 0;
  std::int64_t started_at_ = 0;
  std::int64_t finished_at_ = 0;
  std::array<double, 2> rating_before_{};
  std::array<double, 2> rating_after_{};
  bool has_ratings_ = false;
  std::array<int, 2> hints_{};  // hints given to each seat
  Rematch rematch_;
  struct RecentAction {
    std::string key;
    std::string id;
    json answer;
  };
  std::deque<RecentAction> recent_;  // the last kRecentActions client actions
  // The game's events in the game record's JSON form, comma-separated, appended as the game goes
  // so that saving after every action does not rebuild a growing array (table_record.cpp).
  std::string record_;
  std::size_t recorded_ = 0;  // events of game_ already in record_
  void record_new_events();
  // What the stored row holds of record_: the events in its snapshot, and the bytes of record_
  // stored in all (snapshot and appended). kNoSnapshot when that is not known — the table was
  // never saved, was loaded from a row of the older form, or undo rewrote its record — and the
  // next row is a snapshot.
  static constexpr std::size_t kNoSnapshot = static_cast<std::size_t>(-1);
  std::size_t snapshot_events_ = kNoSnapshot;
  std::size_t stored_bytes_ = 0;
  bool snapshot_due() const;
};

inline constexpr std::size_t kRecentActions = 32;
// A stored game's record is rewritten whole once this many events were appended after its last
// snapshot (and when it ends). A Finkel game is about 150 events: two snapshots on the way and
// one at the end, whose bytes spread over 64 events cost about as much as the events themselves
// (docs/scaling.md), while a load reads at most ~64 appended rows.
inline constexpr std::size_t kSnapshotEvents = 64;

// Table ids are 16 lowercase hex digits (64 random bits).
bool is_table_id(std::string_view s);

// The client's game actions (docs/protocol.md, "Actions"), each a message type of its own: the
// dispatcher routes each type to its handler once, and the handler knows its action from then on.
enum class TableAction : std::uint8_t { kRoll, kMove, kResign, kLeave, kUndo };
inline constexpr std::array kTableActions{TableAction::kRoll, TableAction::kMove,
                                          TableAction::kResign, TableAction::kLeave,
                                          TableAction::kUndo};
// The action's message type: "roll", "move", "resign", "leave", "undo".
const char* action_name(TableAction a);

// "move", "award_yes", "award_no"; nullopt for anything else.
std::optional<MoveKind> parse_move_kind(std::string_view s);
const char* move_kind_name(MoveKind k);

}  // namespace ur::server
