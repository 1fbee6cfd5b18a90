#include "ai/perfect.h"

#include "ai/expectimax.h"
#include "ai/net_agent.h"
#include "solver/table_errc.h"

namespace ur::ai {
namespace {

// Before an endgame table's positions the perfect agent plays what the perfect level plays
// where there is no table at all: the data directory's network at depth 3 where one loads
// (kLearnedLevelSpec: on Murray it beats hard's search, on boxed it is level with it at a
// fraction of its time; docs/ai.md), else the hard level's search; either values every endgame
// position it reaches from the table.
constexpr int kHardDepth = 4;

ExpectimaxOptions before_endgame(const solver::SolvedTable& solved,
                                 std::shared_ptr<const Network> network) {
  return ExpectimaxOptions{.depth = network ? kLearnedLevelDepth : kHardDepth,
                           .network = std::move(network),
                           .table = std::make_shared<const solver::SolvedTable>(solved)};
}

class PerfectAgent : public Agent {
 public:
  PerfectAgent(solver::SolvedTable solved, std::shared_ptr<const Network> network)
      : solved_(std::move(solved)) {
    if (solved_.endgame() > 0)
      before_ = std::make_unique<ExpectimaxAgent>(before_endgame(solved_, std::move(network)));
  }

  std::string name() const override { return "perfect"; }

  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override {
    if (before_ && !solved_.covers(pos)) return before_->choose(engine, pos, stop);
    MoveList moves;
    engine.legal_moves(pos, moves);
    int best = 0;
    double best_value = -1;
    for (int i = 0; i < moves.size; ++i) {
      Position q = pos;
      engine.apply_move(q, moves[i]);
      const double v = value_for(q, pos.turn);
      if (v > best_value + 1e-12) best = i, best_value = v;
    }
    return moves[best];
  }

 private:
  // The winning chance of `mover` in q, a position after a decision.
  double value_for(const Position& q, Player mover) const { return solved_.value(q, mover); }

  solver::SolvedTable solved_;
  std::unique_ptr<ExpectimaxAgent> before_;  // an endgame table: the search before it
};

}  // namespace

Result<std::unique_ptr<Agent>> make_perfect_agent(const RuleSet& rules,
                                                  const std::string& table_path,
                                                  const solver::TableStore* tables) {
  solver::TableLookup found = solver::find_table(tables, rules, table_path);
  if (!found.ready()) return Error{solver::TableErrc::kBadTable, "perfect: " + found.why};
  // An endgame table's agent searches before the endgame with the data directory's network.
  std::shared_ptr<const Network> network =
      found.solved.endgame() > 0 ? data_network(tables, *found.solved.engine) : nullptr;
  return std::make_unique<PerfectAgent>(std::move(found.solved), std::move(network));
}

}  // namespace ur::ai
