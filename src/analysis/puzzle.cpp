#include "analysis/puzzle.h"

#include <fmt/format.h>

#include "engine/notation.h"

namespace ur::analysis {

RankedMoves rank_moves(ValueSource& source, const Position& p) {
  const Engine& engine = source.engine();
  MoveList legal;
  engine.legal_moves(p, legal);
  RankedMoves out;
  out.moves.reserve(legal.size);
  for (const Move& m : legal) {
    Position q = p;
    engine.apply_move(q, m);
    out.moves.push_back({m, source.value(q, p.turn)});
    if (out.moves.back().value > out.moves[out.best].value)
      out.best = static_cast<int>(out.moves.size()) - 1;
  }
  return out;
}

std::optional<Puzzle> grade_puzzle(ValueSource& source, const Position& p, double min_margin) {
  if (p.phase != Phase::kAwaitingMove || !source.exact()) return std::nullopt;
  RankedMoves ranked = rank_moves(source, p);
  if (ranked.moves.size() < 2) return std::nullopt;
  Puzzle z;
  z.position = p;
  z.moves = std::move(ranked.moves);
  z.best = ranked.best;
  double second = -1;
  for (int i = 0; i < static_cast<int>(z.moves.size()); ++i)
    if (i != z.best) second = std::max(second, z.moves[i].value);
  z.margin = z.moves[z.best].value - second;
  if (z.margin < min_margin) return std::nullopt;
  z.themes = puzzle_themes(source.engine(), p, z.moves[z.best].move);
  z.misses.beginner = 1.0 - 1.0 / static_cast<double>(z.moves.size());
  return z;
}

double puzzle_difficulty(const PuzzleMisses& m) {
  return (m.beginner + (m.easy ? 1.0 : 0.0) + (m.medium ? 1.0 : 0.0)) / 3.0;
}

std::string puzzle_id(const std::string& rules, const std::string& position) {
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&h](const std::string& s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
  };
  mix(rules);
  mix(" ");
  mix(position);
  return fmt::format("{:016x}", h);
}

nlohmann::json puzzle_json(const Engine& engine, const Puzzle& z) {
  using json = nlohmann::json;
  const std::string rules = engine.rules().to_string();
  const std::string position = to_position_string(engine, z.position);
  json moves = json::array();
  for (const PuzzleMove& m : z.moves)
    moves.push_back({{"move", move_text(m.move)}, {"value", m.value}});
  return json{
      {"id", puzzle_id(rules, position)},
      {"rules", rules},
      {"position", position},
      {"throw", z.position.roll},
      {"moves", std::move(moves)},
      {"best", move_text(z.moves[z.best].move)},
      {"margin", z.margin},
      {"themes", theme_names(z.themes)},
      {"difficulty", z.difficulty},
      {"misses",
       {{"beginner", z.misses.beginner}, {"easy", z.misses.easy}, {"medium", z.misses.medium}}},
      {"origin", z.origin}};
}

}  // namespace ur::analysis
