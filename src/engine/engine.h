// Engine: a rule set flattened into flat tables, with move generation and the turn logic.
//
// Built once per rule set (microseconds) and then shared read-only by every game, search and
// solver thread. The hot path (legal_moves, apply_throw, apply_move) reads only the arrays
// below, never the RuleSet, and never allocates. It is unchecked: callers pass moves that the
// engine generated and outcomes that chance_outcomes() listed (asserted in debug builds);
// Game (game.h) is the checked layer for input from outside.
//
// Chance is explicit: a Position whose is_chance() holds waits for a throw (or the coin call)
// and chance_outcomes() gives {outcome, probability}; otherwise it waits for a decision among
// legal_moves(). A throw that leaves nothing to decide (a null throw, no legal move) passes on
// at once inside apply_throw, so a decision node always has at least one move.
#pragma once

#include <array>
#include <cstdint>

#include "engine/position.h"
#include "engine/random.h"
#include "rules/rule_set.h"

namespace ur {

struct ChanceOutcome {
  int outcome;  // the raw throw k; for the coin call 0 = light starts, 1 = dark
  double probability;
};

struct ChanceList {
  std::array<ChanceOutcome, kMaxDice + 1> items{};
  int size = 0;
  const ChanceOutcome* begin() const { return items.data(); }
  const ChanceOutcome* end() const { return items.data() + size; }
};

// What one decision did, for statistics and the betting ledger. A double's second move and
// everything in a forfeit response count for the player whose counter moved.
struct MoveEffects {
  std::uint8_t captures = 0;
  std::uint8_t rosettes = 0;  // rosette landings
  std::uint8_t borne_off = 0;
  std::uint8_t bounces = 0;
  bool doubled = false;  // a double-move award was carried out
  bool forfeit = false;  // a forfeit response is now pending
  bool award = false;    // a rosette award decision is now pending
  bool extra = false;    // a landing granted another throw (rosette_extra)
  bool won = false;
};

// Landing-square flags in the per-index tables.
namespace land_flag {
inline constexpr std::uint8_t kRosette = 1;
inline constexpr std::uint8_t kSafe = 2;
inline constexpr std::uint8_t kCapture = 4;
inline constexpr std::uint8_t kDouble = 8;
inline constexpr std::uint8_t kForfeit = 16;
inline constexpr std::uint8_t kAward = 32;
inline constexpr std::uint8_t kExtra = 64;  // landing here grants a throw (rosette_extra)
}  // namespace land_flag

class Engine {
 public:
  explicit Engine(const RuleSet& rules);

  const RuleSet& rules() const { return rules_; }
  int path_length() const { return n_; }
  int off_index() const { return n_ + 1; }
  int pieces() const { return pieces_; }
  bool has_staging() const { return staging_; }

  Position initial_position() const;

  // --- chance nodes -----------------------------------------------------------------------
  ChanceList chance_outcomes(const Position& p) const;
  // Applies a throw (or the coin call). Returns true when a decision now waits, and fills
  // `moves` with it; false when the throw passed on (null throw, no legal move, chain end).
  bool apply_throw(Position& p, int outcome, MoveList& moves) const;
  void apply_throw(Position& p, int outcome) const {
    MoveList m;
    apply_throw(p, outcome, m);
  }
  int sample_throw(Rng& rng) const;  // a raw throw k with the dice's probabilities

  // --- decision nodes ---------------------------------------------------------------------
  void legal_moves(const Position& p, MoveList& out) const;
  // The moves a throw k would allow p.turn in p (p awaiting that player's throw), without
  // applying it: empty for a null throw or a throw that ends the turn.
  void moves_for_throw(const Position& p, int k, MoveList& out) const;
  MoveEffects apply_move(Position& p, Move m) const;

  // --- facts about a position -------------------------------------------------------------
  int move_value(int k) const { return move_[k]; }  // squares a raw throw k moves
  bool throw_ends_turn(int k) const { return ends_turn_[k]; }
  int borne_off(const Position& p, Player pl) const { return p.count[index_of(pl)][n_ + 1]; }
  int waiting(const Position& p, Player pl) const;  // not entered (staging: the pool)
  Cell cell_at(Player pl, int index) const { return cell_[index_of(pl)][index]; }
  std::uint8_t landing(Player pl, int index) const { return land_[index_of(pl)][index]; }
  // The win's score over the loser's pieces (scored rule sets), else 0.
  int win_score(const Position& p, Player winner) const;
  // Checks every invariant of a position: counts, masks, phase; "" when fine.
  std::string check(const Position& p) const;
  // Rebuilds occ, block and view from count (after editing a position by hand).
  void refresh_masks(Position& p) const;

  // Random playouts for benchmarks: plays `games` games to the end; returns throws made.
  std::uint64_t random_games(Rng& rng, std::uint64_t games) const;

 private:
  void generate(const Position& p, int m, int k, bool forfeit, MoveList& out) const;
  void generate_general(const Position& p, int m, int k, bool forfeit, MoveList& out) const;
  void generate_simple(const Position& p, int m, int k, MoveList& out) const;
  MoveEffects apply_simple(Position& p, Move m) const;
  void remove_piece(Position& p, int pl, int index) const;
  void add_piece(Position& p, int pl, int index) const;
  void send_home(Position& p, int pl) const;
  // Moves one piece and applies hit, bounce and the square's effects; returns flags.
  void move_piece(Position& p, int pl, int from, int to, int value, bool in_forfeit,
                  MoveEffects& fx) const;
  void square_effects(Position& p, int pl, int to, int value, bool in_forfeit,
                      MoveEffects& fx) const;
  void continue_after(Position& p, Player actor, Player next, MoveEffects& fx) const;
  bool pending_decision(Position& p, Player actor, Player next, MoveEffects& fx) const;
  void pass_turn(Position& p, Player to) const;

  RuleSet rules_;
  int n_ = 14;
  int pieces_ = 7;
  bool staging_ = false;
  bool stacking_ = false;
  bool bounce_ = false;
  bool chain_ = false;
  bool capture_extra_ = false;
  bool simple_ = false;  // the common family: see generate_simple()
  bool fair_ = true;     // p_marked == 0.5: throws are popcounts of random bits
  EntryTarget entry_ = EntryTarget::kMoveValue;
  int entry_index_ = 1;
  int dice_ = 4;
  std::array<std::int8_t, kMaxDice + 1> move_{};
  std::array<bool, kMaxDice + 1> ends_turn_{};
  std::array<bool, kMaxDice + 1> extra_throw_{};
  std::array<bool, kMaxDice + 1> may_enter_{};
  std::array<double, kMaxDice + 1> prob_{};
  std::array<std::array<std::uint8_t, kMaxIndex>, 2> land_{};
  std::array<std::uint32_t, 2> blocked_bits_{};  // path indices where an enemy cannot be hit
  std::array<std::uint32_t, 2> extra_bits_{};    // path indices whose landing grants a throw
  std::array<std::array<std::uint32_t, kMaxIndex>, 2> same_cell_{};  // own indices, same square
  std::array<std::array<std::uint32_t, kMaxIndex>, 2> opp_view_{};   // enemy indices, same square
  std::array<std::array<std::uint8_t, kMaxIndex>, 2> move_flags_{};  // move_flag bits of t
  std::array<std::array<Cell, kMaxIndex>, 2> cell_{};
  std::array<std::array<std::int8_t, kMaxIndex>, 2> score_{};
  // For player p and cell c: the (up to two) path indices of p on c, -1 when none.
  std::array<std::array<std::array<std::int8_t, 2>, kCells>, 2> index_at_{};
};

}  // namespace ur
