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
      cell_bit_[pl][i] = 1ULL << c;
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
      auto& slot = index_at_[pl][c];
      (slot[0] < 0 ? slot[0] : slot[1]) = static_cast<std::int8_t>(i);
    }
  }
}

Position Engine::initial_position() const {
  Position p;
  for (int pl = 0; pl < 2; ++pl) {
    if (staging_) p.pool[pl] = static_cast<std::uint8_t>(pieces_);
    else p.count[pl][0] = static_cast<std::uint8_t>(pieces_);
  }
  refresh_masks(p);
  switch (rules_.start) {
    case StartPolicy::kLight: p.phase = Phase::kAwaitingRoll; p.turn = Player::kLight; break;
    case StartPolicy::kDark: p.phase = Phase::kAwaitingRoll; p.turn = Player::kDark; break;
    case StartPolicy::kRollOff:
    case StartPolicy::kCoinCall: p.phase = Phase::kStart; p.turn = Player::kLight; break;
  }
  p.next = p.turn;
  return p;
}

void Engine::refresh_masks(Position& p) const {
  for (int pl = 0; pl < 2; ++pl) {
    p.occ[pl] = 0;
    p.cells[pl] = 0;
    for (int i = 0; i <= n_; ++i) {
      if (p.count[pl][i] == 0) continue;
      p.occ[pl] |= 1u << i;
      p.cells[pl] |= cell_bit_[pl][i];
    }
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

int Engine::sample_throw(Rng& rng) const {
  if (fair_) return std::popcount(rng.bits(dice_));
  int k = 0;
  for (int d = 0; d < dice_; ++d) k += rng.uniform() < rules_.dice.p_marked;
  return k;
}

void Engine::pass_turn(Position& p, Player to) const {
  p.phase = Phase::kAwaitingRoll;
  p.turn = to;
  p.next = to;
  p.roll = 0;
}

bool Engine::apply_throw(Position& p, int k, MoveList& moves) const {
  moves.size = 0;
  if (p.phase == Phase::kStart) {
    if (rules_.start == StartPolicy::kCoinCall) {
      pass_turn(p, k == 0 ? Player::kLight : Player::kDark);
      return false;
    }
    p.phase = Phase::kRollOff;  // light has thrown; dark throws next
    p.roll = static_cast<std::int8_t>(k);
    p.turn = Player::kDark;
    return false;
  }
  if (p.phase == Phase::kRollOff) {
    int light = move_[p.roll], dark = move_[k];
    if (light == dark) {  // a tie is thrown again
      p.phase = Phase::kStart;
      p.turn = Player::kLight;
      p.roll = 0;
      return false;
    }
    Player winner = light > dark ? Player::kLight : Player::kDark;
    int winning_throw = light > dark ? p.roll : k;
    pass_turn(p, winner);
    if (!rules_.use_opening_roll) return false;
    k = winning_throw;  // the winner's throw is his first throw: fall through
  }
  assert(p.phase == Phase::kAwaitingRoll);
  const Player me = p.turn;
  if (chain_ ? ends_turn_[k] : move_[k] == 0) {
    pass_turn(p, other(me));
    return false;
  }
  if (move_[k] == 0) {  // a null throw that does not end a chain: throw again
    pass_turn(p, me);
    return false;
  }
  generate(p, move_[k], k, false, moves);
  if (moves.size == 0) {
    // No legal move: a chain goes on, a single throw passes.
    pass_turn(p, chain_ || extra_throw_[k] ? me : other(me));
    return false;
  }
  p.phase = Phase::kAwaitingMove;
  p.roll = static_cast<std::int8_t>(k);
  return true;
}

void Engine::legal_moves(const Position& p, MoveList& out) const {
  out.size = 0;
  switch (p.phase) {
    case Phase::kAwaitingMove: generate(p, move_[p.roll], p.roll, false, out); break;
    case Phase::kAwaitingForfeit: generate(p, rules_.forfeit_move, -1, true, out); break;
    case Phase::kAwaitingAward:
      out.push({kPool, 0, 0, MoveKind::kAwardYes});
      out.push({kPool, kPool, 0, MoveKind::kAwardNo});
      break;
    default: break;
  }
}

void Engine::moves_for_throw(const Position& p, int k, MoveList& out) const {
  out.size = 0;
  if (k < 0 || k > dice_ || move_[k] == 0 || (chain_ && ends_turn_[k])) return;
  generate(p, move_[k], k, false, out);
}

void Engine::generate(const Position& p, int m, int k, bool forfeit, MoveList& out) const {
  const int me = index_of(p.turn), op = 1 - me;
  const int off = n_ + 1;
  std::uint32_t mask = p.occ[me];
  if (staging_) {
    if (!forfeit && p.pool[me] > 0 && may_enter_[k])
      out.push({kPool, 0, move_flag::kEnter, MoveKind::kMove});
  } else if (forfeit || !may_enter_[k]) {
    mask &= ~1u;  // pieces not yet entered cannot move
  }
  const std::uint64_t own = p.cells[me], enemy = p.cells[op];
  while (mask) {
    const int i = std::countr_zero(mask);
    mask &= mask - 1;
    std::uint8_t flags = 0;
    int t = i + m;
    if (i == 0 && !staging_) {
      flags = move_flag::kEnter;
      if (entry_ == EntryTarget::kFixedIndex) t = entry_index_;
    }
    if (t >= off) {
      if (t == off) out.push({static_cast<std::int8_t>(i), static_cast<std::int8_t>(off),
                              static_cast<std::uint8_t>(flags | move_flag::kScores),
                              MoveKind::kMove});
      continue;
    }
    const std::uint64_t bit = cell_bit_[me][t];
    if (!stacking_ && (own & bit)) continue;
    const std::uint8_t land = land_[me][t];
    if (enemy & bit) {
      if (land & (land_flag::kSafe)) continue;
      if (!(land & land_flag::kCapture)) continue;
      if (stacking_) {
        int j = index_at_[op][cell_[me][t]][0];
        if (p.count[op][j] >= 2) {
          if (!bounce_) continue;
          flags |= move_flag::kBounce;
        } else {
          flags |= move_flag::kCapture;
        }
      } else {
        flags |= move_flag::kCapture;
      }
    }
    if (land & land_flag::kRosette) flags |= move_flag::kRosette;
    if (land & land_flag::kDouble) flags |= move_flag::kDouble;
    if (land & land_flag::kForfeit) flags |= move_flag::kForfeit;
    out.push({static_cast<std::int8_t>(i), static_cast<std::int8_t>(t), flags, MoveKind::kMove});
  }
}

void Engine::remove_piece(Position& p, int pl, int index) const {
  if (--p.count[pl][index] == 0 && index <= n_) {
    p.occ[pl] &= ~(1u << index);
    p.cells[pl] &= ~cell_bit_[pl][index];
  }
}

void Engine::add_piece(Position& p, int pl, int index) const {
  if (p.count[pl][index]++ == 0 && index <= n_) {
    p.occ[pl] |= 1u << index;
    p.cells[pl] |= cell_bit_[pl][index];
  }
}

void Engine::send_home(Position& p, int pl) const {
  if (staging_) ++p.pool[pl];
  else add_piece(p, pl, 0);
}

void Engine::move_piece(Position& p, int pl, int from, int to, int value, bool in_forfeit,
                        MoveEffects& fx) const {
  const int op = 1 - pl;
  const int off = n_ + 1;
  if (from == kPool) --p.pool[pl];
  else remove_piece(p, pl, from);
  if (to == off) {
    add_piece(p, pl, off);
    ++fx.borne_off;
    return;
  }
  if (to == 0) {  // onto S
    add_piece(p, pl, 0);
    return;
  }
  const Cell c = cell_[pl][to];
  if (p.cells[op] & cell_bit_[pl][to]) {
    const auto& idx = index_at_[op][c];
    const int j = (idx[0] >= 0 && p.count[op][idx[0]] > 0) ? idx[0] : idx[1];
    assert(j >= 0 && p.count[op][j] > 0);
    if (p.count[op][j] >= 2) {  // bounce: the mover goes back, its landing does nothing
      send_home(p, pl);
      ++fx.bounces;
      return;
    }
    remove_piece(p, op, j);
    send_home(p, op);
    ++fx.captures;
  }
  add_piece(p, pl, to);
  const std::uint8_t land = land_[pl][to];
  if (land & land_flag::kRosette) ++fx.rosettes;
  if (land & land_flag::kExtra) fx.extra = true;
  if (land & land_flag::kAward) fx.award = true;
  if ((land & land_flag::kDouble) && !fx.doubled) {
    // The same counter moves the same score again, if it can.
    fx.doubled = true;
    const int t2 = to + value;
    if (t2 > off) return;
    if (t2 < off) {
      const std::uint64_t bit = cell_bit_[pl][t2];
      const std::uint8_t land2 = land_[pl][t2];
      if (!stacking_ && (p.cells[pl] & bit)) return;
      if (p.cells[op] & bit) {
        if (land2 & land_flag::kSafe) return;
        if (!(land2 & land_flag::kCapture)) return;
        if (!bounce_ && stacking_ && p.count[op][index_at_[op][cell_[pl][t2]][0]] >= 2) return;
      }
    }
    move_piece(p, pl, to, t2, value, in_forfeit, fx);
    return;
  }
  if ((land & land_flag::kForfeit) && !in_forfeit) fx.forfeit = true;
}

MoveEffects Engine::apply_move(Position& p, Move m) const {
  MoveEffects fx;
  const Player actor = p.turn;
  const int me = index_of(actor);
  switch (p.phase) {
    case Phase::kAwaitingAward:
      if (m.kind == MoveKind::kAwardYes && p.pool[me] > 0) {
        --p.pool[me];
        add_piece(p, me, 0);
      }
      pass_turn(p, p.next);
      return fx;
    case Phase::kAwaitingMove: {
      const int k = p.roll;
      move_piece(p, me, m.from, m.to, move_[k], false, fx);
      const bool again = extra_throw_[k] || fx.extra || (capture_extra_ && fx.captures);
      continue_after(p, actor, again ? actor : other(actor), fx);
      return fx;
    }
    case Phase::kAwaitingForfeit: {
      move_piece(p, me, m.from, m.to, rules_.forfeit_move, true, fx);
      fx.forfeit = false;
      continue_after(p, actor, p.next, fx);
      return fx;
    }
    default: assert(false && "apply_move on a position that awaits no decision"); return fx;
  }
}

void Engine::continue_after(Position& p, Player actor, Player next, MoveEffects& fx) const {
  const int me = index_of(actor);
  if (p.count[me][n_ + 1] == pieces_) {  // the win is immediate; pending effects lapse
    p.phase = Phase::kGameOver;
    p.turn = actor;
    p.next = actor;
    p.roll = 0;
    fx.won = true;
    return;
  }
  p.roll = 0;
  if (fx.forfeit) {
    // The opponent moves a counter forfeit_move squares, if he has a legal one.
    Position q = p;
    q.turn = other(actor);
    MoveList moves;
    generate(q, rules_.forfeit_move, -1, true, moves);
    if (moves.size > 0) {
      p.phase = Phase::kAwaitingForfeit;
      p.turn = other(actor);
      p.next = next;
      return;
    }
  }
  if (fx.award && p.pool[me] > 0) {
    p.phase = Phase::kAwaitingAward;
    p.turn = actor;
    p.next = next;
    return;
  }
  pass_turn(p, next);
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
  if (q.occ != p.occ || q.cells != p.cells) return "occupancy masks disagree with the counts";
  for (int i = 1; i <= n_; ++i)
    for (int j = 1; j <= n_; ++j) {
      if (!p.count[0][i] || !p.count[1][j] || cell_[0][i] != cell_[1][j]) continue;
      return "light and dark share square " + cell_name(cell_[0][i]);
    }
  if (!stacking_)
    for (int pl = 0; pl < 2; ++pl)
      if (std::popcount(p.cells[pl]) != std::popcount(p.occ[pl] & ~1u))
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

std::uint64_t Engine::random_games(Rng& rng, std::uint64_t games) const {
  std::uint64_t throws = 0;
  MoveList moves;
  for (std::uint64_t g = 0; g < games; ++g) {
    Position p = initial_position();
    while (p.phase != Phase::kGameOver) {
      if (p.is_chance()) {
        ++throws;
        if (!apply_throw(p, p.phase == Phase::kStart && rules_.start == StartPolicy::kCoinCall
                                ? static_cast<int>(rng.bits(1))
                                : sample_throw(rng),
                         moves))
          continue;
      } else {
        legal_moves(p, moves);
      }
      apply_move(p, moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    }
  }
  return throws;
}

}  // namespace ur
