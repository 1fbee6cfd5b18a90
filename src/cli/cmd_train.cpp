// `ur train --rules R`: a value network learned by self-play TD(λ) (ai/net_train.h), written as
// a network file (docs/network_format.md) that the `net` agent plays.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "ai/net_agent.h"
#include "ai/net_train.h"
#include "cli/commands.h"
#include "solver/table_store.h"

namespace ur::cli {
namespace {

struct TrainArgs {
  std::string rules = "finkel";
  std::string out;
  std::uint64_t games = 20000;
  double minutes = 0;
  int hidden = 64;
  std::uint64_t seed = 1;
  float lambda = 0.7f;
  float learning_rate = 0.3f;
  float decay_games = 4000;
  int threads = 2;
  std::uint64_t checkpoint_every = 1000;
  std::uint64_t eval_every = 2000;
  int eval_games = 400;
  int max_throws = 0;
  int target_depth = 0;
  bool resume = false;
};

void print_progress(const ai::TrainProgress& p) {
  std::string vs = p.eval_games > 0
                       ? fmt::format("vs greedy {:.1f}% ({} games)", 100 * p.win_rate, p.eval_games)
                       : std::string("vs greedy: not yet measured");
  std::cerr << fmt::format("games {}/{}  {:.0f} games/s  {}  elapsed {:.0f} s  left {:.0f} s\n",
                           p.games, p.total, p.games_per_second, vs, p.seconds, p.eta_seconds);
}

// The network to train: the checkpoint at `out` with --resume, else a new one.
std::optional<ai::Network> start_network(const TrainArgs& args, const Engine& engine,
                                         const std::string& out) {
  if (!args.resume) return ai::make_network(engine, args.hidden, args.seed);
  Result<ai::Network> loaded = ai::load_network_for(out, engine);
  if (auto* e = std::get_if<Error>(&loaded)) {
    std::cerr << "ur train: cannot resume: " << e->message << "\n";
    exit_status() = 1;
    return std::nullopt;
  }
  ai::Network& net = std::get<ai::Network>(loaded);
  std::cerr << fmt::format(
      "ur train: resuming {} at game {} (seed {}, {} hidden units, lambda {}, learning rate {}, "
      "decay {} games)\n",
      out, net.info.games, net.info.seed, net.hidden(), net.info.lambda, net.info.learning_rate,
      net.info.decay_games);
  return std::move(net);
}

void run_train(const TrainArgs& args) {
  const std::optional<RuleSet> parsed = rules_option("train", args.rules);
  if (!parsed) return;
  const Engine engine(*parsed);
  const std::string rules = engine.rules().to_string();
  const std::string out = args.out.empty() ? ai::network_path(&table_store(), rules) : args.out;
  std::optional<ai::Network> net = start_network(args, engine, out);
  if (!net) return;
  std::error_code ec;
  if (std::filesystem::path(out).has_parent_path())
    std::filesystem::create_directories(std::filesystem::path(out).parent_path(), ec);
  ai::TrainOptions options;
  options.games = args.games;
  options.seconds = args.minutes * 60;
  options.threads = args.threads;
  // A resumed run goes on with its own step sizes, so that it reaches the same network.
  options.lambda = args.resume ? net->info.lambda : args.lambda;
  options.learning_rate = args.resume ? net->info.learning_rate : args.learning_rate;
  options.decay_games = args.resume ? net->info.decay_games : args.decay_games;
  options.max_throws = args.max_throws;
  options.target_depth = args.target_depth;
  options.checkpoint_every = args.checkpoint_every;
  options.eval_every = args.eval_every;
  options.eval_games = args.eval_games;
  options.checkpoint = [&out](const ai::Network& n) { return ai::write_network(out, n); };
  // A line a second at most (a round of a small rule set takes milliseconds), and the last.
  double printed = -1;
  const std::string error = ai::train(engine, *net, options, [&](const ai::TrainProgress& p) {
    if (p.seconds - printed < 1 && p.games < p.total) return;
    printed = p.seconds;
    print_progress(p);
  });
  if (!error.empty()) {
    std::cerr << "ur train: " << error << "\n";
    exit_status() = 1;
    return;
  }
  std::cout << fmt::format("{}: {} games of self-play, seed {}, {} hidden units -> {}\n", rules,
                           net->info.games, net->info.seed, net->hidden(), out);
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "train", "Learn a value network for a rule set by self-play TD(lambda), for the net agent");
  static TrainArgs args;
  add_rules_and_out(*cmd, args.rules, args.out,
                    "network file (default $UR_DATA_DIR/networks/<rules>.urn, data dir ./data)");
  cmd->add_option("--games,-g", args.games, "self-play games to reach in all")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000}))
      ->capture_default_str();
  cmd->add_option("--minutes", args.minutes, "stop after this much time (0: none)")
      ->check(CLI::Range(0.0, 100000.0))
      ->capture_default_str();
  cmd->add_option("--hidden", args.hidden, "hidden units")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--seed", args.seed, "seed: the same seed and games give the same network")
      ->capture_default_str();
  cmd->add_option("--lambda", args.lambda, "TD(lambda)")
      ->check(CLI::Range(0.0f, 1.0f))
      ->capture_default_str();
  cmd->add_option("--learning-rate", args.learning_rate, "step size")
      ->check(CLI::Range(0.0001f, 10.0f))
      ->capture_default_str();
  cmd->add_option("--decay-games", args.decay_games,
                  "the step size falls as rate x D / (D + games); 0: constant")
      ->check(CLI::Range(0.0f, 1e9f))
      ->capture_default_str();
  cmd->add_option("--threads,-t", args.threads, "threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--checkpoint-every", args.checkpoint_every,
                  "write the network every N games (0: only at the end)")
      ->capture_default_str();
  cmd->add_option("--eval-every", args.eval_every,
                  "measure the win rate against greedy every N games (0: never)")
      ->capture_default_str();
  cmd->add_option("--eval-games", args.eval_games, "games of each measurement")
      ->check(CLI::Range(2, 1'000'000))
      ->capture_default_str();
  cmd->add_option("--max-throws", args.max_throws,
                  "end a self-play game after N throws, scored by progress (0: play it out)")
      ->check(CLI::Range(0, 20000))
      ->capture_default_str();
  cmd->add_option("--target-depth", args.target_depth,
                  "value each training position by an expectimax search of this depth over the "
                  "network instead of the network alone (0: the network)")
      ->check(CLI::Range(0, 4))
      ->capture_default_str();
  cmd->add_flag("--resume", args.resume,
                "go on from the network file --out (its seed, size and step sizes)");
  cmd->callback([] { run_train(args); });
}

}  // namespace ur::cli
