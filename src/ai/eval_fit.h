// Fitting an evaluation model (eval_model.h) from self-play: `ur fit-eval`.
//
// Each round plays `games` seeded games of greedy against itself, both sides choosing by the
// evaluation of the round (round 0: the hand-weighted one; each later round: the model fitted
// by the round before), and keeps a sample of the positions greedy and the search evaluate:
// awaiting a throw, an award or a forfeit response. Each kept position is a row of
// Evaluator::features() labelled 1 when the owner of the chain under way went on to win. A
// logistic regression (Newton's method with a small ridge) fits the model; the games whose
// index is a multiple of 10 are held out to report its log loss on unseen games. The games are
// seeded per index and the rows are gathered in game order, so the weights depend only on the
// configuration, not on the number of threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace ur::ai {

struct FitConfig {
  std::string rules = "boxed";
  int games = 20'000;    // per round
  int rounds = 3;        // round 0 plays with the hand weights, later ones with the last model
  double sample = 0.25;  // the share of positions kept as rows
  double ridge = 1.0;    // L2 penalty on the weights (in rows; the intercept is free)
  double lambda = 1.0;   // TD(lambda) returns from round 1 on; 1: the game's outcome
  std::uint64_t seed = 1;
  int threads = 1;
};

struct FitRound {
  std::vector<double> weights;
  std::size_t rows = 0;        // training rows
  std::size_t held_out = 0;    // rows of the held-out games
  double train_loss = 0;       // mean log loss (nats) on the training rows
  double held_out_loss = 0;    // ... on the held-out rows
  double held_out_base = 0;    // ... of the best constant on the held-out rows
};

using FitProgress = std::function<void(int round, const FitRound& result)>;

// The rounds' results, or an error message (an unknown rule set, one without throw chains).
std::variant<std::vector<FitRound>, std::string> fit_evaluation(const FitConfig& config,
                                                                const FitProgress& progress = {});

// The weights as the body of a C++ array initialiser, eight to a line.
std::string format_weights(const std::vector<double>& weights);

}  // namespace ur::ai
