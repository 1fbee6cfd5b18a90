// Move analysis: every decision of a game graded against a solved table.
//
// For each move a player chose while awaiting a move (forfeit responses and award decisions
// excepted: solvable rule sets have neither), the winning chance the mover keeps with the move
// played and with the best move, both for the mover and under perfect play from then on. The
// difference is the move's cost in winning chance; `grade()` names it.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/game.h"
#include "solver/state_index.h"
#include "solver/table_file.h"

namespace ur::solver {

struct GradedMove {
  int event = 0;            // index of the move event in game.events()
  Position before{};        // the position the move was chosen in
  Player player{};          // who moved
  int roll = 0;             // the raw throw the move used
  int legal = 0;            // how many legal moves there were
  Move played{};            // the move chosen
  Move best{};              // a move with the highest value (the first in the engine's order)
  double played_value = 0;  // the mover's winning chance after the move played
  double best_value = 0;    // ... after the best move
  double cost() const { return best_value - played_value; }
};

// Named costs: best (< 1e-6; ties and forced moves included), good (< 0.01), inaccuracy
// (< 0.05), mistake (< 0.15), blunder (the rest).
std::string_view grade(double cost);

struct PlayerSummary {
  int decisions = 0;      // graded moves with a choice (more than one legal move)
  int best = 0;           // of them, a best move
  double total_cost = 0;  // sum of costs
  double worst_cost = 0;  // the largest single cost
};

struct Analysis {
  std::vector<GradedMove> moves;  // every graded move in game order (forced ones included)
  PlayerSummary players[2];       // index_of(player)
  double start_value = 0;         // the first player to act's winning chance at the start
};

using AnalysisResult = std::variant<Analysis, std::string>;

// Grades `game` (finished or not) with `table`, which must be the table of the game's rule set
// for `index` (checked: a mismatch is an error message, never a wrong analysis).
AnalysisResult analyse(const Game& game, const StateIndex& index, const Table& table);

}  // namespace ur::solver
