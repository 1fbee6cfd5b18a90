#include "engine/perft.h"

namespace ur {
namespace {

std::uint64_t resolve(const Engine& e, const Position& p, int depth);

std::uint64_t perft_chance(const Engine& e, const Position& p, int depth) {
  if (depth == 0 || p.is_over()) return 1;
  std::uint64_t total = 0;
  for (const ChanceOutcome& c : e.chance_outcomes(p)) {
    Position q = p;
    MoveList moves;
    e.apply_throw(q, c.outcome, moves);
    total += resolve(e, q, depth - 1);
  }
  return total;
}

// Plays out the decisions of the current ply, then descends to the next throw.
std::uint64_t resolve(const Engine& e, const Position& p, int depth) {
  if (!p.is_decision()) return perft_chance(e, p, depth);
  MoveList moves;
  e.legal_moves(p, moves);
  std::uint64_t total = 0;
  for (const Move& m : moves) {
    Position q = p;
    e.apply_move(q, m);
    total += resolve(e, q, depth);
  }
  return total;
}

}  // namespace

std::uint64_t perft(const Engine& e, const Position& p, int depth) {
  return resolve(e, p, depth);
}

}  // namespace ur
