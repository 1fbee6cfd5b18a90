// The `net` agent: expectimax (expectimax.h) with a trained value network (network.h) at its
// leaves instead of the hand-tuned evaluation.
//
//   net                       depth 1 (the network's choice after one ply), the data directory's
//                             network of the rule set: DATA_DIR/networks/<rules>.urn
//   net(depth=2,time_ms=T)    a deeper search, with a deadline as for expectimax (time_ms
//                             alone deepens until the time is spent)
//   net(file=F)               the network of file F
//
// The file must have been trained for the rule set played (network.h checks the rule-set string
// and the input encoding); without one, `net` says where it looked.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "ai/agent.h"

namespace ur::ai {

struct Network;  // network.h (Eigen), kept out of this header

// Where the data directory of `tables` keeps the network of `rules`: DATA_DIR/networks/<name>.urn,
// the name as for tables; "" without a store.
std::string network_path(const solver::TableStore* tables, const std::string& rules);
// The file name of the network of `rules` (its rule-set string with every character other than
// letters, digits and '-' made '_').
std::string network_file_name(const std::string& rules);

// What the perfect level plays where `tables` has no solved table of a rule set but a network
// that loads for it: a depth-3 search (docs/ai.md: it beats depth 1 and stays far under 2 ms).
inline constexpr const char* kLearnedLevelSpec = "net(depth=3)";
// Its depth, for the perfect agent's search before an endgame table (perfect.cpp).
inline constexpr int kLearnedLevelDepth = 3;

// What the hard level plays on a rule set whose network is measured stronger than hard's
// search at a fraction of its cost (learned_hard): docs/ai.md, "`hard` and the network".
inline constexpr const char* kLearnedHardSpec = "net(depth=2)";
// Those rule sets, by their rule-set string: Finkel (net(depth=2) against expectimax(depth=4):
// 60.68%, 4,000 games, at 0.025 ms a decision against 0.49) and Masters (57.90%, 2,000 games,
// 0.020 ms against 0.678). On boxed the network plays level with hard and on Blitz only just
// ahead of it (52.80%, 2,000 games), so hard stays the search there.
bool learned_hard(const RuleSet& rules);

// The network of `engine`'s rule set in the data directory of `tables`, when one loads (else
// null: none there, or one that is damaged or made for another rule set).
std::shared_ptr<const Network> data_network(const solver::TableStore* tables, const Engine& engine);

// Whether the data directory of `tables` holds a network that loads for `rules`.
bool has_network(const solver::TableStore* tables, const RuleSet& rules);

// The net agent of a parsed spec's parameters (depth, time_ms, file).
AgentResult make_net_agent(const std::map<std::string, std::string, std::less<>>& params,
                           const RuleSet& rules, const solver::TableStore* tables);

}  // namespace ur::ai
