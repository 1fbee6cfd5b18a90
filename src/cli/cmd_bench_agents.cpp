// `ur bench agents`: median and p95 decision time per agent, per rule set (bench_agents.h).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include "ai/agent.h"
#include "cli/bench_agents.h"
#include "cli/commands.h"
#include "engine/engine.h"

namespace ur::cli {
namespace {

constexpr int kPositions = 200;
constexpr std::uint64_t kSeed = 20240601;
const char* const kAgents[] = {"random",
                               "greedy",
                               "expectimax(depth=1)",
                               "expectimax(depth=2)",
                               "expectimax(depth=3)",
                               "expectimax(depth=4)"};

// Decision positions with at least two legal moves, sampled from seeded random games: each
// decision of a game is kept with probability 1/4, so positions spread over whole games.
std::vector<Position> fixed_positions(const Engine& engine) {
  std::vector<Position> out;
  Rng rng(kSeed);
  MoveList moves;
  while (static_cast<int>(out.size()) < kPositions) {
    Position p = engine.initial_position();
    while (!p.is_over() && static_cast<int>(out.size()) < kPositions) {
      if (p.is_chance()) {
        const ChanceList outcomes = engine.chance_outcomes(p);
        const bool coin = outcomes.size == 2 && p.phase == Phase::kStart;
        if (!engine.apply_throw(p, coin ? static_cast<int>(rng.below(2)) : engine.sample_throw(rng),
                                moves))
          continue;
      } else {
        engine.legal_moves(p, moves);
      }
      if (moves.size >= 2 && rng.below(4) == 0) out.push_back(p);
      engine.apply_move(p,
                        moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    }
  }
  return out;
}

bool bench_rules(const RuleSet& rules, const std::vector<std::string>& agents) {
  const Engine engine(rules);
  const std::vector<Position> positions = fixed_positions(engine);
  const std::stop_token never;
  std::cout << fmt::format("{} ({} decision positions)\n", rules.to_string(), positions.size());
  std::cout << fmt::format("  {:<24} {:>10} {:>10} {:>10}\n", "agent", "median ms", "p95 ms",
                           "max ms");
  std::vector<std::string> specs = agents;
  if (specs.empty()) specs.assign(std::begin(kAgents), std::end(kAgents));
  for (const std::string& spec : specs) {
    ai::AgentResult made = ai::make_agent(spec, rules, kSeed, &table_store());
    if (auto* e = std::get_if<Error>(&made)) {
      std::cerr << "ur bench agents: " << e->message << "\n";
      return false;
    }
    auto& agent = std::get<std::unique_ptr<ai::Agent>>(made);
    std::vector<double> ms;
    ms.reserve(positions.size());
    for (const Position& p : positions) {
      const auto t0 = std::chrono::steady_clock::now();
      const Move m = agent->choose(engine, p, never);
      const auto t1 = std::chrono::steady_clock::now();
      (void)m;
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::cout << fmt::format("  {:<24} {:>10.3f} {:>10.3f} {:>10.3f}\n", spec, percentile(ms, 0.5),
                             percentile(ms, 0.95), percentile(ms, 1.0));
  }
  return true;
}

}  // namespace

bool run_bench_agents(const std::string& rules, const std::vector<std::string>& agents) {
  if (!rules.empty()) {
    const std::optional<RuleSet> parsed = rules_option("bench agents", rules);
    return parsed && bench_rules(*parsed, agents);
  }
  for (const char* id : {"finkel", "masters", "boxed"})
    if (!bench_rules(rule_set_or_throw(id), agents)) return false;
  return true;
}

}  // namespace ur::cli
