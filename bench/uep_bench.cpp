// The cost of UEP (docs/engine_protocol.md): a decision asked of an agent directly, through the
// protocol core in process (UepEngine: parsing, the position string, the search thread), and
// through a real pipe to a `ur engine` child process (ExternalAgent: both ends, the kernel and
// the context switches). Argument 0 is the agent `first` (it does no work, and `ur engine`
// answers it on its reading thread), 1 is `expectimax(depth=1)` (a search: `ur engine` hands it
// to its worker thread); the differences from the direct call are the protocol's own cost. The
// issue's goal is at most 50 µs more than calling the agent directly.
#include <benchmark/benchmark.h>

#include <condition_variable>
#include <mutex>

#include "ai/agent.h"
#include "ai/uep_engine.h"
#include "engine/notation.h"

namespace {

using namespace ur;

constexpr const char* kPosition = "L2/0000005/0000007";  // light to move with 2: two moves
constexpr const char* kAgents[] = {"first", "expectimax(depth=1)"};

void BM_AgentDirect(benchmark::State& state) {
  const Engine engine(rule_set_or_throw("finkel"));
  const Position pos = std::get<Position>(parse_position_string(engine, kPosition));
  const char* spec = kAgents[state.range(0)];
  auto agent = std::get<std::unique_ptr<ai::Agent>>(ai::make_agent(spec, engine.rules(), 1));
  for (auto _ : state) benchmark::DoNotOptimize(agent->choose(engine, pos, {}));
  state.SetLabel(spec);
}
BENCHMARK(BM_AgentDirect)->Arg(0)->Arg(1);

void BM_UepGoInProcess(benchmark::State& state) {
  std::mutex m;
  std::condition_variable cv;
  int bestmoves = 0;
  ai::UepEngine uep(
      [&](const std::string& line) {
        if (line.rfind("bestmove", 0) != 0) return;
        std::lock_guard lock(m);
        ++bestmoves;
        cv.notify_one();
      },
      "bench", "0");
  uep.set_option("Agent", kAgents[state.range(0)]);
  const std::string position = std::string("position ") + kPosition;
  for (auto _ : state) {
    uep.handle(position);
    uep.handle("go");
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return bestmoves > 0; });
    bestmoves = 0;
  }
  state.SetLabel(kAgents[state.range(0)]);
}
BENCHMARK(BM_UepGoInProcess)->Arg(0)->Arg(1);

void BM_UepGoThroughPipe(benchmark::State& state) {
  const RuleSet rules = rule_set_or_throw("finkel");
  const Engine engine(rules);
  const Position pos = std::get<Position>(parse_position_string(engine, kPosition));
  ai::AgentResult made = ai::make_agent(
      std::string("engine:") + UR_BINARY + " engine --agent " + kAgents[state.range(0)], rules, 1);
  if (auto* e = std::get_if<Error>(&made)) {
    state.SkipWithError(e->message.c_str());
    return;
  }
  auto& agent = *std::get<std::unique_ptr<ai::Agent>>(made);
  for (auto _ : state) benchmark::DoNotOptimize(agent.choose(engine, pos, {}));
  if (!agent.failure().empty()) state.SkipWithError(agent.failure().c_str());
  state.SetLabel(kAgents[state.range(0)]);
}
BENCHMARK(BM_UepGoThroughPipe)->Arg(0)->Arg(1);

}  // namespace
