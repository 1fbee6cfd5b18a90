// Grades and accuracy: words and a 0-100 score for the winning chance a player's decisions
// gave up against best play.
//
// A decision's loss is the best move's winning chance minus the played move's (0..1). Grades:
//
//   forced      one legal move: nothing to decide (never counted in accuracy)
//   best        loss < 1e-6 (ties included)
//   good        loss < 0.01
//   inaccuracy  loss < 0.05
//   mistake     loss < 0.15
//   blunder     the rest
//
// Accuracy over a player's decisions with a choice, losses L_i in winning-chance points
// (percent, 0..100):
//
//   accuracy = 100 * exp(-kAccuracyRate * mean(L_i))
//
// so 100 exactly for a player who never lost a point, and each point lost on average a move
// costs about kAccuracyRate of what is left. The rate is calibrated on Finkel so that random
// play scores below 50 and the computer players order themselves (docs/analysis.md has the
// ladder and how it was measured).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace ur::analysis {

enum class Grade : std::uint8_t { kForced, kBest, kGood, kInaccuracy, kMistake, kBlunder };
inline constexpr int kGradeCount = 6;

inline constexpr double kBestBelow = 1e-6;
inline constexpr double kGoodBelow = 0.01;
inline constexpr double kInaccuracyBelow = 0.05;
inline constexpr double kMistakeBelow = 0.15;
inline constexpr double kAccuracyRate = 0.5;

// The grade of a decision among `legal` moves that lost `loss`.
Grade grade_of(double loss, int legal);
std::string_view grade_name(Grade g);

// Accuracy (0..100) of decisions with a choice that lost `losses` (0..1 each); 100 for none.
double accuracy(std::span<const double> losses);

}  // namespace ur::analysis
