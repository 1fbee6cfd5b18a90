#include "ai/perfect.h"

#include "ai/expectimax.h"
#include "solver/table_errc.h"

namespace ur::ai {
namespace {

// The hard level's depth: before an endgame table's positions the perfect agent searches as
// hard does, with the table's exact values wherever the search reaches the endgame.
constexpr int kBeforeEndgameDepth = 4;

class PerfectAgent : public Agent {
 public:
  explicit PerfectAgent(solver::SolvedTable solved) : solved_(std::move(solved)) {
    if (solved_.endgame() > 0)
      before_ = std::make_unique<ExpectimaxAgent>(
          ExpectimaxOptions{.depth = kBeforeEndgameDepth,
                            .table = std::make_shared<const solver::SolvedTable>(solved_)});
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
  return std::make_unique<PerfectAgent>(std::move(found.solved));
}

}  // namespace ur::ai
