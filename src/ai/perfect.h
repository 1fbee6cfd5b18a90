// The perfect player: plays the move with the highest solved winning chance, read from the
// lookup table the solver wrote for the rule set (src/solver/, `ur solve`).
//
// Where the table comes from: the spec's table= parameter (a file), else the data directory's
// table of the rule set; both through the process's solver::TableStore, which opens, verifies
// and indexes each table once and shares it, read-only and mmapped, with every agent and
// thread. With an endgame table (the seven-counter Murray and boxed games: each side at most k
// pieces left) it plays exactly inside the endgame and before it searches as the perfect level
// does without a table (the data directory's network at depth 3 where one loads, else as the
// hard level), the search valuing every endgame position it reaches from the table. Where no table
// exists `perfect` says so and the "perfect" difficulty level falls back to the strongest
// search.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "ai/agent.h"
#include "solver/table_store.h"

namespace ur::ai {

// The perfect agent for `rules` from `table_path` (empty: the store's table of `rules`), or why
// not. Without a store only a table_path can be played from (it is then opened uncached).
Result<std::unique_ptr<Agent>> make_perfect_agent(const RuleSet& rules,
                                                  const std::string& table_path,
                                                  const solver::TableStore* tables);

}  // namespace ur::ai
