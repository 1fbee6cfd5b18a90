// Engine, the hot path: sampling and applying throws, the common family's move generation, and
// applying moves. They read only the flat tables built in engine.cpp and never allocate; the
// helpers are `inline` members of this one file so that the compiler folds them into apply_throw
// and apply_move, and the random playouts of `ur bench` live here to measure exactly that.
#include <bit>
#include <string>

#include "engine/engine.h"

namespace ur {

int Engine::sample_throw(Rng& rng) const {
  if (fair_) return std::popcount(rng.bits(dice_));
  int k = 0;
  for (int d = 0; d < dice_; ++d) k += rng.uniform() < rules_.dice.p_marked;
  return k;
}

inline void Engine::pass_turn(Position& p, Player to) const {
  p.phase = Phase::kAwaitingRoll;
  p.turn = to;
  p.next = to;
  p.roll = 0;
}

// The common family (Finkel, Masters, Blitz, Aseb, the Regency single-throw sets): no staging,
// no stacking, entry at the move value, no special squares. A piece waiting at index 0 then
// moves exactly like a piece on the board, so every candidate goes through one mask.
inline void Engine::generate_simple(const Position& p, int m, int k, MoveList& out) const {
  const int me = index_of(p.turn);
  const int off = n_ + 1;
  std::uint32_t src = p.occ[me] & ((2u << (off - m)) - 1) & (may_enter_[k] ? ~0u : ~1u);
  const bool bears_off = (src >> (off - m)) & 1u;
  src &= ~(1u << (off - m));
  const std::uint32_t enemy = p.view[me];
  std::uint32_t legal = (src << m) & ~p.block[me] & ~(enemy & blocked_bits_[me]);
  const std::uint32_t hits = legal & enemy;
  int n = out.size;
  while (legal) {
    const int t = std::countr_zero(legal);
    legal &= legal - 1;
    const int from = t - m;
    out.items[n++] = {static_cast<std::int8_t>(from), static_cast<std::int8_t>(t),
                      static_cast<std::uint8_t>(move_flags_[me][t] | ((hits >> t) & 1u) |
                                                (from == 0 ? move_flag::kEnter : 0)),
                      MoveKind::kMove};
  }
  if (bears_off)
    out.items[n++] = {
        static_cast<std::int8_t>(off - m), static_cast<std::int8_t>(off),
        static_cast<std::uint8_t>(move_flag::kScores | (off == m ? move_flag::kEnter : 0)),
        MoveKind::kMove};
  out.size = n;
}

// The common family stays inline in this file; the rest goes to engine_generate.cpp.
inline void Engine::generate(const Position& p, int m, int k, bool forfeit, MoveList& out) const {
  if (simple_ && !forfeit && m <= n_ + 1)
    generate_simple(p, m, k, out);
  else
    generate_general(p, m, k, forfeit, out);
}

bool Engine::apply_throw(Position& p, int k, MoveList& moves) const {
  moves.size = 0;
  if (simple_ && p.phase == Phase::kAwaitingRoll) {
    if (move_[k] != 0) generate_simple(p, move_[k], k, moves);
    if (moves.size == 0) {
      pass_turn(p, other(p.turn));
      return false;
    }
    p.phase = Phase::kAwaitingMove;
    p.roll = static_cast<std::int8_t>(k);
    return true;
  }
  if (p.phase == Phase::kStart) {
    if (rules_.start == StartPolicy::kCoinCall) {
      pass_turn(p, k == 0 ? Player::kLight : Player::kDark);
      return false;
    }
    p.phase = Phase::kRollOff;  // light has thrown; dark throws next
    p.roll = static_cast<std::int8_t>(k);
    p.turn = p.next = Player::kDark;
    return false;
  }
  if (p.phase == Phase::kRollOff) {
    int light = move_[p.roll], dark = move_[k];
    if (light == dark) {  // a tie is thrown again
      p.phase = Phase::kStart;
      p.turn = p.next = Player::kLight;
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
    case Phase::kAwaitingMove:
      generate(p, move_[p.roll], p.roll, false, out);
      break;
    case Phase::kAwaitingForfeit:
      generate(p, rules_.forfeit_move, -1, true, out);
      break;
    case Phase::kAwaitingAward:
      out.push({kPool, 0, 0, MoveKind::kAwardYes});
      out.push({kPool, kPool, 0, MoveKind::kAwardNo});
      break;
    default:
      break;
  }
}

void Engine::moves_for_throw(const Position& p, int k, MoveList& out) const {
  out.size = 0;
  if (k < 0 || k > dice_ || move_[k] == 0 || (chain_ && ends_turn_[k])) return;
  generate(p, move_[k], k, false, out);
}

inline void Engine::remove_piece(Position& p, int pl, int index) const {
  if (--p.count[pl][index] == 0 && index <= n_) {
    p.occ[pl] &= ~(1u << index);
    p.block[pl] &= ~same_cell_[pl][index];
    p.view[1 - pl] &= ~opp_view_[pl][index];
  }
}

inline void Engine::add_piece(Position& p, int pl, int index) const {
  if (p.count[pl][index]++ == 0 && index <= n_) {
    p.occ[pl] |= 1u << index;
    p.block[pl] |= same_cell_[pl][index];
    p.view[1 - pl] |= opp_view_[pl][index];
  }
}

inline void Engine::send_home(Position& p, int pl) const {
  if (staging_)
    ++p.pool[pl];
  else
    add_piece(p, pl, 0);
}

void Engine::move_piece(Position& p, int pl, int from, int to, int value, bool in_forfeit,
                        MoveEffects& fx) const {
  const int op = 1 - pl;
  const int off = n_ + 1;
  if (from == kPool)
    --p.pool[pl];
  else
    remove_piece(p, pl, from);
  if (to >= off || to == 0) {  // bear off, or step onto S
    add_piece(p, pl, to);
    fx.borne_off += to == off;
    return;
  }
  if (p.view[pl] & (1u << to)) {
    const auto& idx = index_at_[op][cell_[pl][to]];
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
  if (land & land_flag::kRosette) {
    ++fx.rosettes;
    fx.extra |= (land & land_flag::kExtra) != 0;
  }
  if (land & (land_flag::kAward | land_flag::kDouble | land_flag::kForfeit))
    square_effects(p, pl, to, value, in_forfeit, fx);
}

void Engine::square_effects(Position& p, int pl, int to, int value, bool in_forfeit,
                            MoveEffects& fx) const {
  const int op = 1 - pl;
  const int off = n_ + 1;
  const std::uint8_t land = land_[pl][to];
  if (land & land_flag::kAward) fx.award = true;
  if ((land & land_flag::kDouble) && !fx.doubled) {
    // The same counter moves the same score again, if it can.
    fx.doubled = true;
    const int t2 = to + value;
    if (t2 > off) return;
    if (t2 < off) {
      const std::uint32_t bit = 1u << t2;
      if (!stacking_ && (p.block[pl] & bit)) return;
      if (p.view[pl] & bit) {
        if (blocked_bits_[pl] & bit) return;
        if (!bounce_ && stacking_ && p.count[op][index_at_[op][cell_[pl][t2]][0]] >= 2) return;
      }
    }
    move_piece(p, pl, to, t2, value, in_forfeit, fx);
    return;
  }
  if ((land & land_flag::kForfeit) && !in_forfeit) fx.forfeit = true;
}

// apply_move for the common family (see generate_simple): no award, no forfeit, no double.
inline MoveEffects Engine::apply_simple(Position& p, Move m) const {
  MoveEffects fx;
  const int me = index_of(p.turn), op = 1 - me;
  const int off = n_ + 1;
  remove_piece(p, me, m.from);
  if (m.to == off) {
    ++p.count[me][off];
    fx.borne_off = 1;
    if (p.count[me][off] == pieces_) [[unlikely]] {
      p.phase = Phase::kGameOver;
      p.next = p.turn;
      p.roll = 0;
      fx.won = true;
      return fx;
    }
  } else {
    if (p.view[me] & (1u << m.to)) {
      const auto& idx = index_at_[op][cell_[me][m.to]];
      const int j = (idx[0] >= 0 && p.count[op][idx[0]] > 0) ? idx[0] : idx[1];
      remove_piece(p, op, j);
      add_piece(p, op, 0);
      fx.captures = 1;
    }
    add_piece(p, me, m.to);
    fx.rosettes = (land_[me][m.to] & land_flag::kRosette) != 0;
    fx.extra = (extra_bits_[me] >> m.to) & 1u;
  }
  const bool again = fx.extra || (capture_extra_ && fx.captures);
  pass_turn(p, again ? p.turn : other(p.turn));
  return fx;
}

MoveEffects Engine::apply_move(Position& p, Move m) const {
  if (simple_ && p.phase == Phase::kAwaitingMove) return apply_simple(p, m);
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
    default:
      assert(false && "apply_move on a position that awaits no decision");
      return fx;
  }
}

void Engine::continue_after(Position& p, Player actor, Player next, MoveEffects& fx) const {
  const int me = index_of(actor);
  if (p.count[me][n_ + 1] == pieces_) [[unlikely]] {
    // The win is immediate; pending effects lapse.
    p.phase = Phase::kGameOver;
    p.turn = actor;
    p.next = actor;
    p.roll = 0;
    fx.won = true;
    return;
  }
  if ((fx.forfeit || fx.award) && pending_decision(p, actor, next, fx)) return;
  pass_turn(p, next);
}

bool Engine::pending_decision(Position& p, Player actor, Player next, MoveEffects& fx) const {
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
      return true;
    }
    fx.forfeit = false;
  }
  if (fx.award && p.pool[index_of(actor)] > 0) {
    p.phase = Phase::kAwaitingAward;
    p.turn = actor;
    p.next = next;
    return true;
  }
  return false;
}

std::uint64_t Engine::random_games(Rng& rng, std::uint64_t games) const {
  std::uint64_t throws = 0;
  MoveList moves;
  for (std::uint64_t g = 0; g < games; ++g) {
    Position p = initial_position();
    while (p.phase != Phase::kGameOver) {
      if (p.is_chance()) {
        ++throws;
        if (!apply_throw(p,
                         p.phase == Phase::kStart && rules_.start == StartPolicy::kCoinCall
                             ? static_cast<int>(rng.bits(1))
                             : sample_throw(rng),
                         moves))
          continue;
      } else {
        legal_moves(p, moves);
      }
      // 16 random bits scaled to the list: bias below 0.05%, plenty for a benchmark.
      apply_move(
          p,
          moves[static_cast<int>((rng.bits(16) * static_cast<std::uint32_t>(moves.size)) >> 16)]);
    }
  }
  return throws;
}

}  // namespace ur
