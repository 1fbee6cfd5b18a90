// `ur bench [--rules R]`: random-vs-random games on one thread, games/s and throws/s.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "cli/bench_agents.h"
#include "cli/commands.h"
#include "engine/engine.h"
#include "rules/presets.h"

namespace ur::cli {
namespace {

std::uint64_t fixed_games = 0;

void bench_one(const RuleSet& rules, double seconds, std::uint64_t seed) {
  Engine eng(rules);
  Rng rng(seed);
  using clock = std::chrono::steady_clock;
  // Calibrate on a short run, then time batches until the budget is spent.
  std::uint64_t games = 0, throws = 0;
  std::uint64_t batch = 64;
  const auto start = clock::now();
  double elapsed = 0;
  if (fixed_games > 0) {  // a fixed amount of work: for instruction counts (callgrind)
    throws = eng.random_games(rng, fixed_games);
    games = fixed_games;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  }
  while (fixed_games == 0 && elapsed < seconds) {
    throws += eng.random_games(rng, batch);
    games += batch;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (elapsed < seconds / 20) batch *= 2;
  }
  std::cout << fmt::format("{:<16} {:>12.0f} games/s {:>14.0f} throws/s {:>8.1f} throws/game\n",
                           rules.to_string(), games / elapsed, throws / elapsed,
                           static_cast<double>(throws) / games);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("bench",
                         "Benchmarks. Default: random-vs-random games on one thread, games/s and "
                         "throws/s (a throw and its decision, or its pass) for every preset");
  static std::string rules;
  static double seconds = 1.0;
  static std::uint64_t seed = 1;
  cmd->add_option("--rules,-r", rules, "one rule set only");
  cmd->add_option("--seconds,-s", seconds, "time per rule set")->capture_default_str();
  cmd->add_option("--seed", seed, "random seed")->capture_default_str();
  cmd->add_option("--games", fixed_games, "play exactly this many games instead of timing");
  auto* agents = cmd->add_subcommand(
      "agents", "Decision time per agent (median, p95) over 200 fixed positions per preset");
  static std::string agents_rules;
  agents->add_option("--rules,-r", agents_rules, "one rule set (default: finkel, masters, boxed)");
  agents->callback([] {
    if (!run_bench_agents(agents_rules)) exit_status() = 2;
  });
  cmd->callback([cmd] {
    if (cmd->got_subcommand("agents")) return;
    if (!rules.empty()) {
      RuleSetResult r = parse_rule_set(rules);
      if (auto* e = std::get_if<RuleSetError>(&r)) {
        std::cerr << "ur bench: " << e->message << "\n";
        exit_status() = 2;
        return;
      }
      bench_one(std::get<RuleSet>(r), seconds, seed);
      return;
    }
    for (const PresetInfo& p : preset_list()) bench_one(*find_preset(p.id), seconds, seed);
  });
}

}  // namespace ur::cli
