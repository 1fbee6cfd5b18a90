// Puzzles: decision points whose best move is proven by a solved table to beat every other by
// a clear margin (docs/puzzles.md).
//
// grade_puzzle() is the whole test of one position, table lookups only: the position awaits a
// move for a throw, it has more than one legal move, every move's exact winning chance comes
// from the table, and the best beats the second best by at least the margin. The themes of
// puzzle_themes.h say what the best move does. How hard it is (the share of weak and medium
// players who miss it) needs those players' searches and is filled in by the generator
// (puzzle_generate.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/puzzle_themes.h"
#include "analysis/value_source.h"

namespace ur::analysis {

// The margin a best move must have over every other move, in winning chance (0.05 = 5 points).
inline constexpr double kDefaultPuzzleMargin = 0.05;

struct PuzzleMove {
  Move move{};
  double value = 0;  // the mover's exact winning chance after it
};

// Which levels miss the best move (docs/puzzles.md, "Difficulty").
struct PuzzleMisses {
  double beginner = 0;  // random: the chance a uniform pick is not the best, 1 - 1/moves
  bool easy = false;    // greedy picks another move
  bool medium = false;  // expectimax(depth=2) picks another move
};

struct Puzzle {
  Position position{};            // awaits position.turn's move for the throw position.roll
  std::vector<PuzzleMove> moves;  // every legal move, in the engine's order
  int best = 0;                   // index into moves
  double margin = 0;              // best's chance minus the second best's
  ThemeSet themes = 0;
  PuzzleMisses misses{};
  double difficulty = 0;             // 0..1: the mean of the three misses
  std::string origin = "self-play";  // or "record"
};

// Every legal move at p (a position awaiting a move) with the mover's winning chance after it
// from `source`, exact or estimated, in the engine's order; `best` is the first of the highest.
// A game's mistakes (the server's "learn from your mistakes") are answered with it.
struct RankedMoves {
  std::vector<PuzzleMove> moves;
  int best = 0;
};
RankedMoves rank_moves(ValueSource& source, const Position& p);

// The puzzle at `p`, or nullopt when p is not one: not awaiting a move, a single legal move, a
// margin below `min_margin`, or values that are not exact (`source` must be a table).
std::optional<Puzzle> grade_puzzle(ValueSource& source, const Position& p,
                                   double min_margin = kDefaultPuzzleMargin);

// The difficulty from the misses: (beginner + easy + medium) / 3.
double puzzle_difficulty(const PuzzleMisses& m);

// A stable id of a puzzle: 16 hex digits of FNV-1a over the rule set and the position string.
std::string puzzle_id(const std::string& rules, const std::string& position);

// The stored form (one line of `ur puzzles generate`'s output; docs/puzzles.md, "File").
nlohmann::json puzzle_json(const Engine& engine, const Puzzle& p);

}  // namespace ur::analysis
