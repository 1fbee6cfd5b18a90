// `ur fit-eval`: fits a linear evaluation model from self-play games (src/ai/eval_fit.h) and
// prints its weights as the initialiser that src/ai/eval_model.cpp commits.
#include <fmt/format.h>

#include <iostream>

#include "ai/eval_fit.h"
#include "cli/commands.h"

namespace ur::cli {

void add_fit_eval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "fit-eval",
      "Fits the evaluation model of a throw-chain rule set by logistic regression on the "
      "outcomes of greedy self-play games (round 0 with the hand weights, each later round with "
      "the model of the round before) and prints the weights for src/ai/eval_model.cpp. "
      "Deterministic for a seed, whatever the number of threads.");
  static ai::FitConfig config;
  cmd->add_option("--rules,-r", config.rules, "rule set")->capture_default_str();
  cmd->add_option("--games,-n", config.games, "games per round")->capture_default_str();
  cmd->add_option("--rounds", config.rounds, "rounds of play and fit")->capture_default_str();
  cmd->add_option("--sample", config.sample, "share of positions kept")->capture_default_str();
  cmd->add_option("--ridge", config.ridge, "L2 penalty on the weights")->capture_default_str();
  cmd->add_option("--lambda", config.lambda, "TD(lambda) returns after round 0 (1: outcomes)")
      ->capture_default_str();
  cmd->add_option("--threads,-j", config.threads, "worker threads")->capture_default_str();
  cmd->add_option("--seed", config.seed, "random seed")->capture_default_str();
  cmd->callback([] {
    auto progress = [](int round, const ai::FitRound& r) {
      std::cerr << fmt::format(
          "round {}: {} rows, log loss {:.5f}; held out: {} rows, log loss {:.5f} (constant "
          "{:.5f})\n",
          round, r.rows, r.train_loss, r.held_out, r.held_out_loss, r.held_out_base);
    };
    auto outcome = ai::fit_evaluation(config, progress);
    if (auto* e = std::get_if<std::string>(&outcome)) {
      std::cerr << "ur fit-eval: " << *e << "\n";
      exit_status() = 2;
      return;
    }
    const auto& rounds = std::get<std::vector<ai::FitRound>>(outcome);
    std::cout << fmt::format(
        "// ur fit-eval --rules {} --games {} --rounds {} --sample {} --ridge {} --lambda {} "
        "--seed {}\n",
        config.rules, config.games, config.rounds, config.sample, config.ridge, config.lambda,
        config.seed);
    std::cout << ai::format_weights(rounds.back().weights);
  });
}

}  // namespace ur::cli
