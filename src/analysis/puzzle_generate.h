// Puzzle generation: decision points offered by self-play and by finished games, kept as
// puzzles when the table proves a clear best move that not every level finds.
//
// A position is kept when grade_puzzle() accepts it (exact values, more than one legal move,
// the margin), it is new (deduplicated by its position string, which includes the throw), and
// it is not trivial: easy (greedy) or medium (expectimax(depth=2)) picks another move. The
// self-play games are between the levels beginner, easy and medium, each side drawn in turn,
// so the positions are the ones weak and medium players reach.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "ai/agent.h"
#include "analysis/puzzle.h"
#include "engine/game.h"

namespace ur::analysis {

struct GenerateOptions {
  double margin = kDefaultPuzzleMargin;
  std::uint64_t seed = 1;
};

struct GenerateStats {
  std::uint64_t games = 0;       // self-play games played
  std::uint64_t decisions = 0;   // decision points offered
  std::uint64_t duplicates = 0;  // offered again (same position and throw)
  std::uint64_t no_margin = 0;   // one legal move or a margin below the option
  std::uint64_t trivial = 0;     // easy and medium both find the best move
  std::uint64_t graded = 0;      // new positions graded against the table
  double grade_seconds = 0;      // time in grade_puzzle (table lookups and themes)
};

class PuzzleGenerator {
 public:
  // `source` must be exact (a table) for the engine's rule set.
  PuzzleGenerator(ValueSource& source, GenerateOptions options);

  // Offers one position; true when it became a new puzzle (appended to puzzles()).
  bool offer(const Position& p, const std::string& origin);
  // Offers every decision of a finished (or unfinished) game, as "record".
  void offer_game(const Game& game);
  // Plays self-play games until puzzles() holds `count` or `max_games` games were played.
  void self_play(std::size_t count, std::uint64_t max_games);

  const std::vector<Puzzle>& puzzles() const { return puzzles_; }
  const GenerateStats& stats() const { return stats_; }

 private:
  Move pick(ai::Agent& agent, const Position& p);

  ValueSource& source_;
  GenerateOptions options_;
  std::shared_ptr<const Engine> engine_;
  std::unique_ptr<ai::Agent> beginner_, easy_, medium_;
  std::unordered_set<std::string> seen_;
  std::vector<Puzzle> puzzles_;
  GenerateStats stats_;
};

}  // namespace ur::analysis
