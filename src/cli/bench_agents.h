// `ur bench agents`: decision time of each agent over a fixed set of positions per preset.
#pragma once

#include <string>
#include <vector>

namespace ur::cli {

// Times every agent of the benchmark list on 200 decision positions per rule set (reached by
// seeded random play, so the same on every machine) and prints median and p95 in ms.
// `rules` empty: finkel, masters and boxed. Returns false (after a message on stderr) for a
// bad rule-set string.
// `agents`: the specs to time (empty: the built-in list of random, greedy and expectimax).
bool run_bench_agents(const std::string& rules, const std::vector<std::string>& agents);

}  // namespace ur::cli
