// Google Benchmark for the engine's hot path, per preset: move generation at decision nodes
// (legal_moves) and for a throw (moves_for_throw), a throw followed by its move
// (apply_throw + apply_move), and whole random playouts. Every benchmark reports items/s.
//
// The positions are a fixed sample reached by seeded random play, so runs compare like with
// like across commits and machines; they are built before the timed loop.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/random.h"
#include "rules/presets.h"
#include "rules/rule_set.h"

namespace ur {
namespace {

constexpr std::size_t kSampleSize = 4096;
constexpr std::uint64_t kSeed = 0xBE7C4;

struct Sample {
  std::vector<Position> decisions;  // positions that await a decision
  std::vector<Position> throws;     // positions that await a player's throw (not the start)
};

// Plays seeded random games and keeps every third node of each kind until both sets are full.
Sample collect(const Engine& e) {
  Sample s;
  Rng rng(kSeed);
  MoveList moves;
  std::uint64_t node = 0;
  while (s.decisions.size() < kSampleSize || s.throws.size() < kSampleSize) {
    Position p = e.initial_position();
    while (!p.is_over()) {
      const bool keep = ++node % 3 == 0;
      if (p.is_chance()) {
        if (keep && p.phase == Phase::kAwaitingRoll && s.throws.size() < kSampleSize)
          s.throws.push_back(p);
        const int k = p.phase == Phase::kStart && e.rules().start == StartPolicy::kCoinCall
                          ? static_cast<int>(rng.bits(1))
                          : e.sample_throw(rng);
        if (!e.apply_throw(p, k, moves)) continue;
      } else {
        e.legal_moves(p, moves);
      }
      if (keep && s.decisions.size() < kSampleSize) s.decisions.push_back(p);
      e.apply_move(p, moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    }
  }
  return s;
}

void legal_moves_bench(benchmark::State& state, const RuleSet& rules) {
  const Engine e(rules);
  const Sample s = collect(e);
  MoveList moves;
  std::size_t i = 0;
  std::uint64_t generated = 0;
  for (auto _ : state) {
    e.legal_moves(s.decisions[i], moves);
    generated += static_cast<std::uint64_t>(moves.size);
    benchmark::DoNotOptimize(moves);
    if (++i == s.decisions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/call"] =
      benchmark::Counter(static_cast<double>(generated) / static_cast<double>(state.iterations()));
}

void moves_for_throw_bench(benchmark::State& state, const RuleSet& rules) {
  const Engine e(rules);
  const Sample s = collect(e);
  const int outcomes = e.rules().dice.dice + 1;
  MoveList moves;
  std::size_t i = 0;
  for (auto _ : state) {
    for (int k = 0; k < outcomes; ++k) {
      e.moves_for_throw(s.throws[i], k, moves);
      benchmark::DoNotOptimize(moves);
    }
    if (++i == s.throws.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations() * outcomes);
}

void apply_throw_move_bench(benchmark::State& state, const RuleSet& rules) {
  const Engine e(rules);
  const Sample s = collect(e);
  // Pre-drawn throws and move choices keep the random generator out of the timed loop.
  Rng rng(kSeed + 1);
  std::vector<int> ks(s.throws.size());
  std::vector<std::uint32_t> picks(s.throws.size());
  for (std::size_t j = 0; j < ks.size(); ++j) {
    ks[j] = e.sample_throw(rng);
    picks[j] = rng.below(1u << 16);
  }
  MoveList moves;
  std::size_t i = 0;
  for (auto _ : state) {
    Position p = s.throws[i];
    if (e.apply_throw(p, ks[i], moves))
      e.apply_move(p, moves[static_cast<int>(picks[i] % static_cast<std::uint32_t>(moves.size))]);
    benchmark::DoNotOptimize(p);
    if (++i == s.throws.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void random_playout_bench(benchmark::State& state, const RuleSet& rules) {
  const Engine e(rules);
  Rng rng(kSeed);
  std::uint64_t throws = 0;
  for (auto _ : state) throws += e.random_games(rng, 1);
  state.SetItemsProcessed(static_cast<std::int64_t>(throws));  // items = throws
  state.counters["games/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["throws/game"] =
      benchmark::Counter(static_cast<double>(throws) / static_cast<double>(state.iterations()));
}

// One benchmark of each kind per preset, named "legal_moves/finkel" and so on.
bool register_all() {
  for (const PresetInfo& info : preset_list()) {
    const RuleSet* rules = find_preset(info.id);
    if (rules == nullptr) continue;
    benchmark::RegisterBenchmark(("legal_moves/" + info.id).c_str(), legal_moves_bench, *rules);
    benchmark::RegisterBenchmark(("moves_for_throw/" + info.id).c_str(), moves_for_throw_bench,
                                 *rules);
    benchmark::RegisterBenchmark(("apply_throw_move/" + info.id).c_str(), apply_throw_move_bench,
                                 *rules);
    benchmark::RegisterBenchmark(("random_playout/" + info.id).c_str(), random_playout_bench,
                                 *rules);
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = register_all();

}  // namespace
}  // namespace ur
