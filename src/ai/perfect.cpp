#include "ai/perfect.h"

#include <filesystem>
#include <map>
#include <mutex>

namespace ur::ai {
namespace {

class PerfectAgent : public Agent {
 public:
  explicit PerfectAgent(SolvedTable solved) : solved_(std::move(solved)) {}

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
  double value_for(const Position& q, Player mover) const {
    if (q.is_over()) return q.turn == mover ? 1.0 : 0.0;
    if (q.phase != Phase::kAwaitingRoll) return 0.5;  // not in solvable rule sets
    const double v = solved_.table->value(solved_.index->rank(q));
    return q.turn == mover ? v : 1.0 - v;
  }

  SolvedTable solved_;
};

}  // namespace

std::variant<SolvedTable, std::string> solved_table(const RuleSet& rules,
                                                    const std::string& table_path) {
  const std::string name = rules.to_string();
  const std::string path = table_path.empty() ? solver::default_table_path(name) : table_path;
  // Each table is opened, verified and indexed once; every agent, thread and request shares it.
  static std::mutex mu;
  static std::map<std::string, SolvedTable> open;
  const std::string key = path + "\n" + name;
  {
    std::lock_guard lock(mu);
    if (auto it = open.find(key); it != open.end()) return it->second;
  }
  auto engine = std::make_shared<const Engine>(rules);
  solver::StateIndexResult ir = solver::StateIndex::create(*engine);
  if (auto* e = std::get_if<std::string>(&ir)) return *e;
  auto index =
      std::make_shared<const solver::StateIndex>(std::get<solver::StateIndex>(std::move(ir)));
  if (!std::filesystem::exists(path))
    return "no table available for " + name + " (looked for " + path +
           "; make one with `ur solve --rules '" + name + "'`)";
  std::lock_guard lock(mu);
  if (auto it = open.find(key); it != open.end()) return it->second;
  solver::TableResult r = solver::Table::open(path, name, index->encoding_id());
  if (auto* e = std::get_if<std::string>(&r)) return *e;
  SolvedTable solved{std::get<std::shared_ptr<const solver::Table>>(r), std::move(index),
                     std::move(engine)};
  open[key] = solved;
  return solved;
}

bool perfect_available(const RuleSet& rules) {
  return std::holds_alternative<SolvedTable>(solved_table(rules));
}

std::variant<std::unique_ptr<Agent>, std::string> make_perfect_agent(
    const RuleSet& rules, const std::string& table_path) {
  auto solved = solved_table(rules, table_path);
  if (auto* e = std::get_if<std::string>(&solved)) return "perfect: " + *e;
  return std::make_unique<PerfectAgent>(std::get<SolvedTable>(std::move(solved)));
}

}  // namespace ur::ai
