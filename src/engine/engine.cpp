// Engine, the set-up: flattening a RuleSet into the tables of engine.h, the start position, the
// outcomes of a chance node, and the facts and checks about a position. Throws, moves and the
// common family's move generation are in engine_moves.cpp; the general move generator (staging,
// stacking, bounces, forfeits) in engine_generate.cpp.
#include "engine/engine.h"

#include <bit>
#include <string>

namespace ur {

Engine::Engine(const RuleSet& rules) : rules_(rules) {
  n_ = rules.path_length();
  pieces_ = rules.pieces;
  staging_ = rules.entry == EntryTarget::kStaging;
  stacking_ = rules.stacking;
  bounce_ = rules.bounce;
  chain_ = rules.turn_mode == TurnMode::kThrowChain;
  capture_extra_ = rules.capture_extra;
  entry_ = rules.entry;
  entry_index_ = rules.entry_index;
  dice_ = rules.dice.dice;
  fair_ = rules.dice.p_marked == 0.5;
  simple_ = !staging_ && !stacking_ && !chain_ && entry_ == EntryTarget::kMoveValue &&
            !rules.doubles && rules.forfeits == RuleSet::Forfeits::kNone && !rules.rosette_award;
  for (int k = 0; k <= dice_; ++k) {
    const ThrowOutcome& o = rules.dice.by_k[k];
    move_[k] = static_cast<std::int8_t>(o.move);
    ends_turn_[k] = o.ends_turn;
    extra_throw_[k] = o.extra_throw;
    may_enter_[k] = o.may_enter;
    prob_[k] = rules.dice.probability(k);
  }
  for (auto& per_player : index_at_)
    for (auto& pair : per_player) pair = {-1, -1};
  for (int pl = 0; pl < 2; ++pl) {
    cell_[pl].fill(kNoCell);
    for (int i = 1; i <= n_; ++i) {
      Cell c = rules.path.cells[pl][i - 1];
      cell_[pl][i] = c;
      const SquareRule* sq = rules.square(c);
      std::uint8_t f = 0;
      if (sq) {
        if (sq->rosette) f |= land_flag::kRosette;
        if (sq->rosette && rules.rosette_extra) f |= land_flag::kExtra;
        if (sq->safe) f |= land_flag::kSafe;
        if (sq->capture) f |= land_flag::kCapture;
        if (sq->special == Special::kDoubleMove) f |= land_flag::kDouble;
        if (sq->special == Special::kForfeit) f |= land_flag::kForfeit;
        if (sq->rosette_enters_counter) f |= land_flag::kAward;
        score_[pl][i] = static_cast<std::int8_t>(sq->score_value);
      }
      land_[pl][i] = f;
      if (f & land_flag::kExtra) extra_bits_[pl] |= 1u << i;
      if ((f & land_flag::kSafe) || !(f & land_flag::kCapture)) blocked_bits_[pl] |= 1u << i;
      move_flags_[pl][i] =
          static_cast<std::uint8_t>(((f & land_flag::kRosette) ? move_flag::kRosette : 0) |
                                    ((f & land_flag::kDouble) ? move_flag::kDouble : 0) |
                                    ((f & land_flag::kForfeit) ? move_flag::kForfeit : 0));
      auto& slot = index_at_[pl][c];
      (slot[0] < 0 ? slot[0] : slot[1]) = static_cast<std::int8_t>(i);
    }
  }
  for (int pl = 0; pl < 2; ++pl)
    for (int i = 1; i <= n_; ++i)
      for (int j = 1; j <= n_; ++j) {
        if (cell_[pl][j] == cell_[pl][i]) same_cell_[pl][i] |= 1u << j;
        if (cell_[1 - pl][j] == cell_[pl][i]) opp_view_[pl][i] |= 1u << j;
      }
}

Position Engine::initial_position() const {
  Position p;
  for (int pl = 0; pl < 2; ++pl) {
    if (staging_)
      p.pool[pl] = static_cast<std::uint8_t>(pieces_);
    else
      p.count[pl][0] = static_cast<std::uint8_t>(pieces_);
  }
  refresh_masks(p);
  switch (rules_.start) {
    case StartPolicy::kLight:
      p.phase = Phase::kAwaitingRoll;
      p.turn = Player::kLight;
      break;
    case StartPolicy::kDark:
      p.phase = Phase::kAwaitingRoll;
      p.turn = Player::kDark;
      break;
    case StartPolicy::kRollOff:
    case StartPolicy::kCoinCall:
      p.phase = Phase::kStart;
      p.turn = Player::kLight;
      break;
  }
  p.next = p.turn;
  return p;
}

void Engine::refresh_masks(Position& p) const {
  for (int pl = 0; pl < 2; ++pl) {
    p.occ[pl] = p.block[pl] = p.view[pl] = 0;
  }
  for (int pl = 0; pl < 2; ++pl)
    for (int i = 0; i <= n_; ++i) {
      if (p.count[pl][i] == 0) continue;
      p.occ[pl] |= 1u << i;
      if (i == 0) continue;
      p.block[pl] |= same_cell_[pl][i];
      p.view[1 - pl] |= opp_view_[pl][i];
    }
}

int Engine::waiting(const Position& p, Player pl) const {
  return staging_ ? p.pool[index_of(pl)] : p.count[index_of(pl)][0];
}

ChanceList Engine::chance_outcomes(const Position& p) const {
  ChanceList out;
  if (p.phase == Phase::kStart && rules_.start == StartPolicy::kCoinCall) {
    out.items[0] = {0, 0.5};
    out.items[1] = {1, 0.5};
    out.size = 2;
    return out;
  }
  if (!p.is_chance()) return out;
  for (int k = 0; k <= dice_; ++k)
    if (prob_[k] > 0) out.items[out.size++] = {k, prob_[k]};
  return out;
}

int Engine::win_score(const Position& p, Player winner) const {
  if (!rules_.scored_win) return 0;
  const int lo = index_of(other(winner));
  int score = 0;
  if (staging_) {
    score += rules_.score_not_entered * p.pool[lo];
    score += rules_.score_staged * p.count[lo][0];
  } else {
    score += rules_.score_not_entered * p.count[lo][0];
  }
  for (int i = 1; i <= n_; ++i) score += score_[lo][i] * p.count[lo][i];
  return score;
}

std::string Engine::check(const Position& p) const {
  for (int pl = 0; pl < 2; ++pl) {
    int total = p.pool[pl];
    for (int i = 0; i <= n_ + 1; ++i) total += p.count[pl][i];
    for (int i = n_ + 2; i < kMaxIndex; ++i)
      if (p.count[pl][i]) return "a piece beyond bear-off";
    if (total != pieces_)
      return std::string(player_name(static_cast<Player>(pl))) + " has " + std::to_string(total) +
             " pieces, the rules say " + std::to_string(pieces_);
    if (!staging_ && p.pool[pl]) return "a staging pool in a rule set without staging";
    for (int i = 1; i <= n_ && !stacking_; ++i)
      if (p.count[pl][i] > 1) return "two pieces of one colour on one square";
  }
  Position q = p;
  refresh_masks(q);
  if (q.occ != p.occ || q.block != p.block || q.view != p.view)
    return "occupancy masks disagree with the counts";
  // view[light] marks light's path indices whose square holds a dark piece.
  if (const std::uint32_t both = p.occ[0] & p.view[0] & ~1u; both != 0)
    return "light and dark share square " + cell_name(cell_[0][std::countr_zero(both)]);
  if (!stacking_)
    for (int pl = 0; pl < 2; ++pl)
      for (int i = 1; i <= n_; ++i)
        if (p.count[pl][i] && (p.occ[pl] & same_cell_[pl][i] & ~(1u << i)))
          return "two pieces of one colour on one square";
  const bool done0 = p.count[0][n_ + 1] == pieces_, done1 = p.count[1][n_ + 1] == pieces_;
  if (done0 && done1) return "both players have borne off every piece";
  if ((done0 || done1) != (p.phase == Phase::kGameOver))
    return done0 || done1 ? "a finished game not marked over" : "game over without a winner";
  if (p.phase == Phase::kGameOver && !(p.turn == Player::kLight ? done0 : done1))
    return "the winner has not borne off every piece";
  if (p.phase == Phase::kAwaitingMove && (p.roll < 0 || p.roll > dice_))
    return "a throw outside the dice";
  return "";
}

}  // namespace ur
