// State index lookups (a benchmark, not a test): rank() of random positions awaiting a throw,
// half of them with dark to move, in the dense encoding (Finkel) and the multiset encoding
// (Murray, the boxed game, and Finkel in the multiset encoding for a like-for-like figure).
#include <benchmark/benchmark.h>

#include <vector>

#include "engine/random.h"
#include "solver/state_index.h"

namespace {

using ur::Engine;
using ur::Position;
using ur::solver::Encoding;
using ur::solver::StateIndex;

void BM_Rank(benchmark::State& state, const char* rules, Encoding encoding) {
  const Engine engine(ur::rule_set_or_throw(rules));
  const StateIndex index = std::get<StateIndex>(StateIndex::create(engine, encoding));
  ur::Rng rng(7);
  std::vector<Position> positions(1 << 16);
  for (Position& p : positions) {
    p = index.unrank(rng.next() % index.size());
    if (rng.bits(1)) {
      std::swap(p.count[0], p.count[1]);
      std::swap(p.pool[0], p.pool[1]);
      p.turn = p.next = ur::Player::kDark;
      engine.refresh_masks(p);
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(index.rank(positions[i]));
    i = (i + 1) & (positions.size() - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_Rank, finkel_dense, "finkel", Encoding::kDense);
BENCHMARK_CAPTURE(BM_Rank, finkel_multiset, "finkel", Encoding::kMultiset);
BENCHMARK_CAPTURE(BM_Rank, murray_multiset, "murray", Encoding::kMultiset);
BENCHMARK_CAPTURE(BM_Rank, boxed_multiset, "boxed", Encoding::kMultiset);

}  // namespace
