// Engine, chance: the outcomes of a chance node with their probabilities, sampling a throw, and
// the random playouts of the throughput benchmark (`ur bench`).
#include <bit>

#include "engine/engine.h"

namespace ur {

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
