#include "ai/perfect.h"

namespace ur::ai {
namespace {

class PerfectAgent : public Agent {
 public:
  explicit PerfectAgent(solver::SolvedTable solved) : solved_(std::move(solved)) {}

  std::string name() const override { return "perfect"; }

  Move choose(const Engine& engine, const Position& pos, const StopToken&) override {
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
};

}  // namespace

Result<std::unique_ptr<Agent>> make_perfect_agent(const RuleSet& rules,
                                                  const std::string& table_path,
                                                  const solver::TableStore* tables) {
  solver::TableLookup found = solver::find_table(tables, rules, table_path);
  if (!found.ready()) return Error{Errc::kBadTable, "perfect: " + found.why};
  return std::make_unique<PerfectAgent>(std::move(found.solved));
}

}  // namespace ur::ai
