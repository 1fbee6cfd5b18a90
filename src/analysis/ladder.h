// The accuracy ladder: how accuracy (accuracy.h) ranks the computer players.
//
// Each agent plays games against itself (both seats, so positions come from its own kind of
// play); every game is reviewed and each side's accuracy counts once. The mean over the games
// must order the players by strength (random < greedy < expectimax(depth=1) <
// expectimax(depth=3) < perfect = 100): that is what calibrates kAccuracyRate
// (docs/analysis.md), and the unit tests check it on a small solved preset.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "analysis/accuracy.h"
#include "analysis/value_source.h"

namespace ur::analysis {

struct LadderEntry {
  std::string agent;
  int games = 0;
  double accuracy = 0;     // mean over every side of every game
  double accuracy_sd = 0;  // its standard deviation over the sides
  double mean_loss = 0;    // chance lost per decision with a choice, pooled
  // Its 95% interval: mean_loss ± loss_ci95, from the spread of the games' losses (a game's
  // decisions are not independent, so the game is the sample: the ratio estimator's error).
  double loss_ci95 = 0;
  double mean_luck = 0;  // luck per throw, pooled (about 0)
  int decisions = 0;     // decisions with a choice, both sides of every game
};

// Plays `games` self-play games of `agent_spec` (ai::make_agent, with the perfect player's
// `tables`) from `seed` on; the dice are seeded per game, so the same arguments give the same
// figures.
Result<LadderEntry> self_play_accuracy(std::shared_ptr<const Engine> engine, ValueSource& source,
                                       std::string_view agent_spec, int games, std::uint64_t seed,
                                       const solver::TableStore* tables = nullptr);

// How far estimates are from the truth: the same self-play games reviewed by both sources.
struct EstimateCheck {
  int games = 0;
  int decisions = 0;  // decisions with a choice
  // confusion[exact][estimated]: decisions with a choice by their two grades (Grade's order).
  std::array<std::array<int, kGradeCount>, kGradeCount> confusion{};
  // Of the decisions, those graded the same by both: the confusion's diagonal.
  int same_grade() const {
    int same = 0;
    for (int g = 0; g < kGradeCount; ++g) same += confusion[g][g];
    return same;
  }
  int steps = 0;
  double mean_error = 0;  // |light's chance after a step, estimated - exact|, mean over steps
  double max_error = 0;
  // Per side of a game with a decision with a choice: |accuracy estimated - exact|, mean.
  double accuracy_error = 0;
  // Chance lost per decision with a choice, pooled: exact and estimated.
  double loss_exact = 0, loss_estimate = 0;
  double estimate_seconds = 0;  // the estimate's review time, all games
};
Result<EstimateCheck> check_estimate(std::shared_ptr<const Engine> engine, ValueSource& exact,
                                     ValueSource& estimate, std::string_view agent_spec, int games,
                                     std::uint64_t seed,
                                     const solver::TableStore* tables = nullptr);

}  // namespace ur::analysis
