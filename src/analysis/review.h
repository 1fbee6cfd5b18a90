// Game review: every chance and every decision of a game, valued, so that skill and luck
// separate.
//
// Walking the game from its start, each event is a step:
//   throw     (the throws of a turn, of a chain, the roll-off and the coin call) from the
//             thrower's side: the chance after this throw, with the best decision that follows
//             or the pass, minus the average of that over every throw from the same position,
//             weighted by the dice: the throw's luck
//   decision  (moves, the boxed game's award and forfeit responses) from the decider's side:
//             the best move's chance minus the played move's: the chance lost
//   resign    (a resignation, a timeout, leaving): the resigner loses what he still had
// Light's winning chance then moves only through these, so a game decomposes as
//
//   result - start = light's luck - dark's luck - light's lost + dark's lost + residual
//
// where the residual is the gap between a position's value and the average over its throws
// (the Bellman residual): the table's rounding, about 1e-6 a throw, or for estimates the
// search's inconsistency (reported, never hidden). Accuracy (accuracy.h) summarises the
// chance lost; grades name each decision's loss. Values come from a ValueSource: exact from a
// solved table, estimated by search otherwise (Review::estimate).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analysis/accuracy.h"
#include "analysis/value_source.h"
#include "engine/game.h"

namespace ur::analysis {

enum class StepKind : std::uint8_t { kThrow, kDecision, kResign };

struct Step {
  StepKind kind = StepKind::kThrow;
  int event = 0;        // index in game.events()
  Player player{};      // who threw, decided or resigned
  Position before{};    // the position of the event
  double light_before;  // light's winning chance before the step (a throw: the average)
  double light_after;   // light's winning chance after it
  // Throws.
  int outcome = 0;  // the raw throw (the coin call: 0 light starts, 1 dark)
  double luck = 0;  // thrower's side: chance after the throw - average over all throws
  // Decisions (the values are the decider's chances).
  int legal = 0;
  Move played{}, best{};  // best: the first move of the highest value in the engine's order
  double played_value = 0, best_value = 0;
  double lost = 0;  // best_value - played_value (never negative); a resignation: all it had
  Grade grade = Grade::kForced;
  // Whether the step's values are exact (a whole table; with an endgame table, a step inside
  // the endgame) rather than estimated.
  bool exact = false;
};

struct PlayerReview {
  double luck = 0;    // sum of the luck of his throws
  double lost = 0;    // sum of the chance lost by his decisions (resignation included)
  int throws = 0;     // throws counted for luck
  int decisions = 0;  // decisions with a choice (more than one legal move)
  int best = 0;       // of them, a best move
  double worst = 0;   // the largest single loss of a decision
  // accuracy.h; none without a decision with a choice (a 100 would read as a perfect game).
  std::optional<double> accuracy;
  int luckiest = -1;  // step index of his luckiest throw, -1 without a throw
  int unluckiest = -1;
  std::array<int, kGradeCount> grades{};  // decisions by grade
};

struct Review {
  std::vector<Step> steps;
  std::array<PlayerReview, 2> players;  // index_of(player)
  double start_value = 0.5;             // light's chance at the start
  double result = 0.5;      // light's: 1 won, 0 lost; an unfinished game: the chance at its end
  double residual = 0;      // result - start - (the four sums above)
  bool estimate = false;    // some values are estimates (Step::exact says which)
  int exact_decisions = 0;  // decisions with a choice graded from exact values
  std::string source;       // ValueSource::name()
  std::vector<int> key_decisions;  // step indices: the decisions that cost most, largest first
  std::vector<int> key_throws;     // step indices: the throws that swung the game most
};

using ReviewResult = Result<Review>;

// Reviews `game` (finished or not) with values from `source`, which must be built for the
// game's rule set (an error message otherwise).
ReviewResult review(const Game& game, ValueSource& source);

// How many key decisions and throws a review names, and the smallest loss or swing that counts.
inline constexpr int kKeySteps = 3;
inline constexpr double kKeyMinimum = 0.02;

// "Light won: +31.0% from the dice, −9.0% from mistakes; Dark −4.0%", from the winner's side
// (light's while the game is unfinished).
std::string summary_line(const Review& r);

}  // namespace ur::analysis
