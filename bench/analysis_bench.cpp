// The game review's costs (a benchmark, not a test; docs/analysis.md, docs/benchmarks.md):
//   BM_ReviewFinkelTable     a 150-decision Finkel game reviewed with the solved table
//                            (data/tables/finkel.urt or $UR_DATA_DIR; skipped without it):
//                            target <= 20 ms
//   BM_ReviewBoxedEstimate   a whole boxed game estimated by search on one thread: <= 2 s
//   BM_ReviewSvg             the graph of the Finkel game as SVG (its size is a counter)
// The games are random against random from fixed seeds, so every run reviews the same games.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "ai/agent.h"
#include "analysis/review.h"
#include "analysis/review_svg.h"
#include "rules/presets.h"
#include "solver/table_store.h"

namespace {

using namespace ur;

int decisions(const Game& g) {
  int n = 0;
  for (const GameEvent& e : g.events()) n += e.type == GameEvent::Type::kMove;
  return n;
}

// The first game from seed 1 on with at least `min_decisions` decisions (random play).
Game long_game(const std::string& rules, int min_decisions) {
  auto engine = std::make_shared<const Engine>(rule_set_or_throw(rules));
  for (std::uint64_t seed = 1;; ++seed) {
    auto agent =
        std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("random", engine->rules(), seed));
    Game g(engine);
    Rng dice(seed);
    while (!g.is_over()) {
      if (g.awaiting_throw())
        g.roll(dice);
      else
        (void)g.apply_move(agent->choose(*engine, g.position(), {}));
    }
    if (decisions(g) >= min_decisions) return g;
  }
}

void BM_ReviewFinkelTable(benchmark::State& state) {
  static const Game game = long_game("finkel", 150);
  // The benchmark program is a top: it reads the data directory as `ur` does (UR_DATA_DIR).
  const char* env = std::getenv("UR_DATA_DIR");
  static const solver::TableStore tables(env && *env ? env : "data");
  analysis::OpenedSource src = analysis::open_source(game.rules(), &tables);
  if (src.table != solver::TableState::kReady) {
    state.SkipWithError("no Finkel table: ur solve --rules finkel");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(analysis::review(game, *src.source));
  state.counters["decisions"] = decisions(game);
  state.counters["events"] = static_cast<double>(game.events().size());
}
BENCHMARK(BM_ReviewFinkelTable)->Unit(benchmark::kMillisecond);

void BM_ReviewBoxedEstimate(benchmark::State& state) {
  static const Game game = long_game("boxed", 1);
  for (auto _ : state) {
    // A fresh source each time: its cache would make the second review free.
    auto src = analysis::search_source(game.engine_ptr());
    benchmark::DoNotOptimize(analysis::review(game, *src));
  }
  state.counters["decisions"] = decisions(game);
  state.counters["events"] = static_cast<double>(game.events().size());
}
BENCHMARK(BM_ReviewBoxedEstimate)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ReviewSvg(benchmark::State& state) {
  static const Game game = long_game("finkel", 150);
  auto src = analysis::search_source(game.engine_ptr(), 1);
  const analysis::Review r = std::get<analysis::Review>(analysis::review(game, *src));
  std::size_t bytes = 0;
  for (auto _ : state) bytes = analysis::review_svg(r).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ReviewSvg)->Unit(benchmark::kMicrosecond);

}  // namespace
