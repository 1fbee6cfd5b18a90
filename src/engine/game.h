// Game: the checked layer over Engine, for input from people, files and sockets.
//
// A Game owns a position, the history of every event (throws, decisions, resignations), an
// undo stack, per-player statistics (throws, captures, rosettes landed, pieces borne off) and
// the betting ledger of rule sets that have one. Every call that takes input from outside
// validates it and returns a Status with a message a person understands; nothing is applied
// unless it is legal. Games are cheap to copy (the Engine is shared).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace ur {

struct [[nodiscard]] Status {
  std::string error;
  bool ok() const { return error.empty(); }
  static Status fail(std::string why) { return Status{std::move(why)}; }
};

struct PlayerStats {
  int throws = 0;
  int moves = 0;
  int passes = 0;  // throws that left nothing to decide
  int captures = 0;
  int rosettes = 0;  // rosette landings
  int borne_off = 0;
  int bounces = 0;   // boxed: the mover sent back by a stack
  int forfeits = 0;  // boxed: forfeit responses this player made
};

enum class EndReason : std::uint8_t { kNone, kBoreOff, kResign, kTimeout, kLeft };
const char* end_reason_name(EndReason r);

struct GameEvent {
  enum class Type : std::uint8_t { kThrow, kMove, kResign } type;
  Player player;        // who threw, decided or resigned
  int outcome = 0;      // kThrow: the raw throw k (coin call: 0 light, 1 dark)
  Move move{};          // kMove
  bool passed = false;  // kThrow: the throw left nothing to decide
};

class Game {
 public:
  explicit Game(std::shared_ptr<const Engine> engine);
  // Builds the engine from a rule-set string; throws std::invalid_argument on a bad string.
  explicit Game(std::string_view rules);
  // A game that starts from a given position (analysis, tests).
  Game(std::shared_ptr<const Engine> engine, const Position& start);

  const Engine& engine() const { return *engine_; }
  std::shared_ptr<const Engine> engine_ptr() const { return engine_; }
  const RuleSet& rules() const { return engine_->rules(); }
  const Position& position() const { return pos_; }
  const Position& start_position() const { return start_; }

  bool is_over() const { return reason_ != EndReason::kNone; }
  std::optional<Player> winner() const;
  EndReason end_reason() const { return reason_; }
  int win_score() const;  // scored rule sets: the score of the win, else 0

  bool awaiting_throw() const { return !is_over() && pos_.is_chance(); }
  bool awaiting_decision() const { return !is_over() && pos_.is_decision(); }
  Player to_act() const { return pos_.turn; }
  ChanceList chance_outcomes() const;
  MoveList legal_moves() const;

  Status apply_throw(int outcome);      // checked: the game must await a throw
  int roll(Rng& rng);                   // samples a throw and applies it; returns it
  Status apply_move(const Move& m);     // checked against legal_moves()
  Status apply_move(int from, int to);  // the move of legal_moves() with these indices
  // What the last successful apply_move did (captures, double, bounce, pending award...).
  const MoveEffects& last_effects() const { return last_effects_; }
  Status resign(Player p);                     // immediate loss for p
  Status end_by(Player loser, EndReason why);  // timeout / leaving (platform rules)
  bool undo();                                 // undoes the last event; false when none

  const std::vector<GameEvent>& events() const { return events_; }
  const PlayerStats& stats(Player p) const { return stats_[index_of(p)]; }
  int turn_number() const { return turns_; }  // turns begun (a turn passes to the other side)

  // Betting ledger (stake and fines, docs/rules.md §5.7): the kitty and each player's balance.
  int kitty() const { return kitty_; }
  int balance(Player p) const { return balance_[index_of(p)]; }

 private:
  struct Snapshot {
    Position pos;
    std::array<PlayerStats, 2> stats;
    int kitty;
    std::array<int, 2> balance;
    EndReason reason;
    Player winner;
    int turns;
  };
  void push_snapshot();
  void after_change(Player previous_turn);
  void settle_if_over();

  std::shared_ptr<const Engine> engine_;
  Position start_;
  Position pos_;
  std::vector<GameEvent> events_;
  std::vector<Snapshot> undo_;
  std::array<PlayerStats, 2> stats_{};
  int kitty_ = 0;
  std::array<int, 2> balance_{};
  MoveEffects last_effects_{};
  EndReason reason_ = EndReason::kNone;
  Player winner_ = Player::kLight;
  int turns_ = 1;
};

}  // namespace ur
