// Value sources: where the review's winning chances come from.
//
// A ValueSource answers one question: the winning chance of a player at a position awaiting a
// throw (or at the end), under best play by both sides from there. Two answers exist:
//
//   table   a solved table (src/solver/): exact, up to the table's rounding; the roll-off
//           start, which the table does not hold, is expanded over its throws exactly (a tie
//           is thrown again: V = sum p_i V_i / (1 - p_tie))
//   search  expectimax (src/ai/expectimax.h) at a fixed depth: an estimate, for the rule sets
//           without a table (murray, boxed, parameterised ones) or when the table is refused
//   endgame an endgame table (each side at most k pieces left): exact inside it, the search's
//           estimate before it, with the table's values wherever the search reaches it
//
// Decision nodes are not asked of the source: value() takes the best of their moves for the
// side that decides, so "the value after a throw" means "with the best decision that follows".
// The search source caches its answers per position; a search depends only on the position and
// the depth, so a review's numbers depend only on the game.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "ai/expectimax.h"
#include "ai/transposition.h"
#include "solver/table_store.h"

namespace ur::analysis {

class ValueSource {
 public:
  virtual ~ValueSource() = default;
  // The winning chance of `pov` at q; q awaits a throw (any chance phase) and is not over.
  virtual double chance_value(const Position& q, Player pov) = 0;
  // True for a solved table; false for a search estimate (or an endgame table's source, which
  // is exact only at the positions exact_at names).
  virtual bool exact() const = 0;
  // Whether value(q) is exact: everywhere for a whole table, inside the endgame for an endgame
  // table's source, nowhere for a search.
  virtual bool exact_at(const Position& q) const {
    (void)q;
    return exact();
  }
  // What the values come from, for people: "table", "expectimax(depth=2)".
  virtual std::string name() const = 0;
  const Engine& engine() const { return *engine_; }

  // The winning chance of `pov` at any position: 1 or 0 at the end, the source's at a chance
  // node, the best move's for the side to decide at a decision node.
  double value(const Position& p, Player pov);

 protected:
  explicit ValueSource(std::shared_ptr<const Engine> engine) : engine_(std::move(engine)) {}
  std::shared_ptr<const Engine> engine_;
};

// Exact values from a solved table of the engine's rule set (the caller has checked that the
// table and index belong to it, e.g. through solver::TableStore).
std::unique_ptr<ValueSource> table_source(std::shared_ptr<const Engine> engine,
                                          std::shared_ptr<const solver::Table> table,
                                          std::shared_ptr<const solver::StateIndex> index);

// Exact values inside an endgame table (solved.endgame() > 0), estimates from expectimax at
// `depth` plies before it, the search reading the table wherever it reaches the endgame and
// valuing its other leaves with the network of `tables`' data directory when one loads for the
// rule set, else with the hand evaluation.
std::unique_ptr<ValueSource> endgame_source(const solver::SolvedTable& solved, int depth = 0,
                                            const solver::TableStore* tables = nullptr);

// Estimates from expectimax at `depth` plies (0: the default depth for the rule set, chosen so
// that a whole game reviews in about a second on one core; docs/analysis.md).
std::unique_ptr<ValueSource> search_source(std::shared_ptr<const Engine> engine, int depth = 0);

// The estimate where no table answers: expectimax at `depth` plies with the network of
// `tables`' data directory at its leaves when one loads for the engine's rule set, else with
// the hand evaluation (search_source). What open_source falls back to.
std::unique_ptr<ValueSource> estimate_source(std::shared_ptr<const Engine> engine,
                                             const solver::TableStore* tables, int depth = 0);

// The default estimate depth for a rule set.
int default_search_depth(const Engine& engine);

// The best source for a rule set: its solved table when one opens and passes its checks (the
// file at `table_path` when one is named, else the table of `rules` in `tables`, null: none),
// else estimates (estimate_source) at `depth`, with why the table was not used.
using TableState = solver::TableState;
struct OpenedSource {
  std::unique_ptr<ValueSource> source;
  TableState table = TableState::kReady;
  std::string why;  // kRefused and kMissing: the loader's message (it may name the file)
};
OpenedSource open_source(const RuleSet& rules, const solver::TableStore* tables,
                         const std::string& table_path = "", int depth = 0);

}  // namespace ur::analysis
