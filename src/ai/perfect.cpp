#include "ai/perfect.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "solver/state_index.h"
#include "solver/table_file.h"

namespace ur::ai {
namespace {

// Opens each table once; later agents share the mapping.
std::variant<std::shared_ptr<const solver::Table>, std::string> shared_table(
    const std::string& path, const std::string& rules, const std::string& encoding) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const solver::Table>> open;
  std::lock_guard lock(mu);
  const std::string key = path + "\n" + rules;
  if (auto it = open.find(key); it != open.end()) return it->second;
  solver::TableResult r = solver::Table::open(path, rules, encoding);
  if (auto* e = std::get_if<std::string>(&r)) return *e;
  auto table = std::get<std::shared_ptr<const solver::Table>>(r);
  open[key] = table;
  return table;
}

class PerfectAgent : public Agent {
 public:
  PerfectAgent(std::unique_ptr<Engine> engine, solver::StateIndex index,
               std::shared_ptr<const solver::Table> table, std::string path)
      : engine_(std::move(engine)),
        index_(std::move(index)),
        table_(std::move(table)),
        path_(std::move(path)) {}

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
    const double v = table_->value(index_.rank(q));
    return q.turn == mover ? v : 1.0 - v;
  }

  std::unique_ptr<Engine> engine_;  // owns the tables the index points into
  solver::StateIndex index_;
  std::shared_ptr<const solver::Table> table_;
  std::string path_;
};

}  // namespace

std::variant<SolvedTable, std::string> solved_table(const RuleSet& rules) {
  auto engine = std::make_shared<const Engine>(rules);
  solver::StateIndexResult ir = solver::StateIndex::create(*engine);
  if (auto* e = std::get_if<std::string>(&ir)) return *e;
  auto index =
      std::make_shared<const solver::StateIndex>(std::get<solver::StateIndex>(std::move(ir)));
  const std::string name = rules.to_string();
  const std::string path = solver::default_table_path(name);
  if (!std::filesystem::exists(path)) return "no table available for " + name;
  auto t = shared_table(path, name, index->encoding_id());
  if (auto* e = std::get_if<std::string>(&t)) return *e;
  return SolvedTable{std::get<std::shared_ptr<const solver::Table>>(t), index, engine};
}

bool perfect_available(const RuleSet& rules) {
  return std::holds_alternative<std::unique_ptr<Agent>>(make_perfect_agent(rules, ""));
}

std::variant<std::unique_ptr<Agent>, std::string> make_perfect_agent(
    const RuleSet& rules, const std::string& table_path) {
  auto engine = std::make_unique<Engine>(rules);
  solver::StateIndexResult ir = solver::StateIndex::create(*engine);
  if (auto* e = std::get_if<std::string>(&ir)) return "perfect: " + *e;
  solver::StateIndex index = std::get<solver::StateIndex>(std::move(ir));
  const std::string name = rules.to_string();
  const std::string path = table_path.empty() ? solver::default_table_path(name) : table_path;
  if (!std::filesystem::exists(path))
    return "perfect: no table available for " + name + " (looked for " + path +
           "; make one with `ur solve --rules '" + name + "'`)";
  auto t = shared_table(path, name, index.encoding_id());
  if (auto* e = std::get_if<std::string>(&t)) return "perfect: " + *e;
  return std::make_unique<PerfectAgent>(std::move(engine), std::move(index),
                                        std::get<std::shared_ptr<const solver::Table>>(t), path);
}

}  // namespace ur::ai
