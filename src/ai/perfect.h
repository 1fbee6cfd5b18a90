// The perfect player: plays the move with the highest solved winning chance, read from the
// lookup table the solver wrote for the rule set (src/solver/, `ur solve`).
//
// Where the table lives: the spec's table= parameter, else solver::default_table_path(rules)
// (under $UR_DATA_DIR/tables, default ./data/tables). Tables are opened once per path and
// shared, read-only and mmapped, by every agent and thread. Where no table exists, or the rule
// set cannot be solved (boxed, Murray), `perfect` says so and the "perfect" difficulty level
// falls back to the strongest search.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "ai/agent.h"
#include "solver/state_index.h"
#include "solver/table_file.h"

namespace ur::ai {

// Whether a verified table exists for `rules` at its default path.
bool perfect_available(const RuleSet& rules);

// The verified table of `rules` at `table_path` (empty: the default path) and the index it is
// read with, opened once and shared by every agent, thread and request; or why there is none.
struct SolvedTable {
  std::shared_ptr<const solver::Table> table;
  std::shared_ptr<const solver::StateIndex> index;
  std::shared_ptr<const Engine> engine;  // the index points into its tables
};
std::variant<SolvedTable, std::string> solved_table(const RuleSet& rules,
                                                    const std::string& table_path = "");

// The perfect agent for `rules` from `table_path` (empty: the default path), or why not.
std::variant<std::unique_ptr<Agent>, std::string> make_perfect_agent(const RuleSet& rules,
                                                                     const std::string& table_path);

}  // namespace ur::ai
