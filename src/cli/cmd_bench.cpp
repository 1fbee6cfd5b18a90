// `ur bench [--rules R]`: random-vs-random games on one thread, games/s and throws/s.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <vector>

#include "cli/bench_agents.h"
#include "cli/commands.h"
#include "engine/engine.h"
#include "rules/presets.h"
#include "solver/state_index.h"
#include "solver/table_file.h"

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

// Random state queries against a mmapped table: rank a position, read its value. The
// positions are drawn up front (uniform indices, decoded) so the timing is the lookup alone.
bool bench_table(const std::string& path, std::uint64_t queries, std::uint64_t seed) {
  solver::TableResult tr = solver::Table::open(path);
  if (auto* e = std::get_if<Error>(&tr)) {
    std::cerr << "ur bench table: " << e->message << "\n";
    return false;
  }
  const auto& table = *std::get<std::shared_ptr<const solver::Table>>(tr);
  const Engine engine(rule_set_or_throw(table.info().rules));
  auto ir = solver::StateIndex::for_table(engine, table.info().encoding);
  if (auto* e = std::get_if<Error>(&ir)) {
    std::cerr << "ur bench table: " << e->message << "\n";
    return false;
  }
  const auto& index = std::get<solver::StateIndex>(ir);
  if (index.encoding_id() != table.info().encoding) {
    std::cerr << "ur bench table: the table's encoding does not match this build\n";
    return false;
  }
  Rng rng(seed);
  std::vector<Position> positions(std::min<std::uint64_t>(queries, 1 << 20));
  for (Position& p : positions) {
    p = index.unrank(rng.next() % index.size());
    if (rng.bits(1)) {  // half of them with dark to move
      std::swap(p.count[0], p.count[1]);
      std::swap(p.pool[0], p.pool[1]);
      p.turn = p.next = Player::kDark;
      engine.refresh_masks(p);
    }
  }
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  // In batches: rank a batch, prefetch its values, then read them, so that the memory
  // latency of one lookup overlaps the others (the way a search or an analysis queries).
  constexpr std::uint64_t kBatch = 16;
  double sum = 0;
  std::uint64_t idx[kBatch];
  for (std::uint64_t q = 0; q < queries; q += kBatch) {
    const std::uint64_t n = std::min(kBatch, queries - q);
    for (std::uint64_t i = 0; i < n; ++i) {
      idx[i] = index.rank(positions[(q + i) % positions.size()]);
      table.prefetch(idx[i]);
    }
    for (std::uint64_t i = 0; i < n; ++i) sum += table.value(idx[i]);
  }
  const double secs = std::chrono::duration<double>(clock::now() - start).count();
  std::cout << fmt::format(
      "{}: {} random state queries in {:.3f} s: {:.0f} queries/s "
      "(mean value {:.4f})\n",
      table.info().rules, queries, secs, queries / secs, sum / queries);
  return true;
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
  static std::vector<std::string> agent_specs;
  agents->add_option("--rules,-r", agents_rules, "one rule set (default: finkel, masters, boxed)");
  agents->add_option("--agent,-a", agent_specs,
                     "an agent spec to time, e.g. 'net(depth=3)' (repeatable; default: random, "
                     "greedy, expectimax depth 1 to 4)");
  agents->callback([] {
    if (!run_bench_agents(agents_rules, agent_specs)) exit_status() = 2;
  });
  auto* table = cmd->add_subcommand(
      "table", "Random state queries per second from a mmapped table (rank + lookup)");
  static std::string table_path;
  static std::uint64_t queries = 20'000'000;
  table->add_option("file", table_path, "table file")->required();
  table->add_option("--queries", queries, "how many queries")->capture_default_str();
  table->callback([] {
    if (!bench_table(table_path, queries, seed)) exit_status() = 2;
  });
  cmd->callback([cmd] {
    if (cmd->got_subcommand("agents") || cmd->got_subcommand("table")) return;
    if (!rules.empty()) {
      if (const std::optional<RuleSet> parsed = rules_option("bench", rules))
        bench_one(*parsed, seconds, seed);
      return;
    }
    for (const PresetInfo& p : preset_list()) bench_one(*find_preset(p.id), seconds, seed);
  });
}

}  // namespace ur::cli
