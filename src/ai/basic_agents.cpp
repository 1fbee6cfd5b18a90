#include "ai/basic_agents.h"

#include <array>
#include <cassert>

namespace ur::ai {

Move RandomAgent::choose(const Engine& engine, const Position& pos, const StopToken&) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  assert(!moves.empty());
  return moves[static_cast<int>(rng_.below(static_cast<std::uint32_t>(moves.size)))];
}

Move FirstAgent::choose(const Engine& engine, const Position& pos, const StopToken&) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  assert(!moves.empty());
  return moves[0];
}

Move GreedyAgent::choose(const Engine& engine, const Position& pos, const StopToken&) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  assert(!moves.empty());
  if (moves.size == 1) return moves[0];
  const Evaluator eval(engine, weights_);
  std::array<int, MoveList::kCapacity> best{};
  int n_best = 0;
  double best_score = 0;
  for (int i = 0; i < moves.size; ++i) {
    Position q = pos;
    engine.apply_move(q, moves[i]);
    // Compare score differences, not probabilities: the logistic would squash large
    // leads into ties.
    const double s =
        q.is_over() ? (q.turn == pos.turn ? 1e9 : -1e9) : eval.score_difference(q, pos.turn);
    if (n_best == 0 || s > best_score + 1e-12) {
      best_score = s;
      n_best = 0;
      best[n_best++] = i;
    } else if (s > best_score - 1e-12) {
      best[n_best++] = i;
    }
  }
  return moves
      [best[n_best == 1 ? 0 : static_cast<int>(rng_.below(static_cast<std::uint32_t>(n_best)))]];
}

}  // namespace ur::ai
