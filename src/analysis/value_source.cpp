#include "analysis/value_source.h"

#include "ai/net_agent.h"
#include "ai/network.h"

#include <algorithm>
#include <cassert>

namespace ur::analysis {

double ValueSource::value(const Position& p, Player pov) {
  if (p.is_over()) return p.turn == pov ? 1.0 : 0.0;
  if (p.is_chance()) return chance_value(p, pov);
  MoveList moves;
  engine_->legal_moves(p, moves);
  assert(!moves.empty());
  // The side to decide takes its best move; its chance is pov's, or pov's complement.
  double best = -1;
  for (const Move& m : moves) {
    Position q = p;
    engine_->apply_move(q, m);
    best = std::max(best, value(q, p.turn));
  }
  return p.turn == pov ? best : 1.0 - best;
}

namespace {

class TableSource final : public ValueSource {
 public:
  TableSource(std::shared_ptr<const Engine> engine, std::shared_ptr<const solver::Table> table,
              std::shared_ptr<const solver::StateIndex> index)
      : ValueSource(std::move(engine)), table_(std::move(table)), index_(std::move(index)) {}

  double chance_value(const Position& q, Player pov) override {
    if (q.phase == Phase::kAwaitingRoll) {
      const double v = table_->value(index_->rank(q));
      return q.turn == pov ? v : 1.0 - v;
    }
    const double light = roll_off(q);
    return pov == Player::kLight ? light : 1.0 - light;
  }
  bool exact() const override { return true; }
  std::string name() const override { return "table"; }

 private:
  // Light's value at a start (roll-off or coin call) as a + c * V(start): a tie of the
  // roll-off goes back to the start, so the start's value solves V = a + c V.
  struct Linear {
    double a = 0, c = 0;
  };
  Linear expand(const Position& q) {
    Linear out;
    for (const ChanceOutcome& o : engine_->chance_outcomes(q)) {
      Position child = q;
      engine_->apply_throw(child, o.outcome);
      if (child.phase == Phase::kStart) {
        out.c += o.probability;
      } else if (child.phase == Phase::kRollOff) {
        const Linear inner = expand(child);
        out.a += o.probability * inner.a;
        out.c += o.probability * inner.c;
      } else {
        out.a += o.probability * value(child, Player::kLight);
      }
    }
    return out;
  }
  double roll_off(const Position& q) {
    Position start = q;
    start.phase = Phase::kStart;
    start.turn = start.next = Player::kLight;
    start.roll = 0;
    const Linear s = expand(start);
    const double v_start = s.c < 1.0 ? s.a / (1.0 - s.c) : 0.5;
    if (q.phase == Phase::kStart) return v_start;
    const Linear r = expand(q);
    return r.a + r.c * v_start;
  }

  std::shared_ptr<const solver::Table> table_;
  std::shared_ptr<const solver::StateIndex> index_;
};

struct PositionHash {
  std::size_t operator()(const Position& p) const { return ai::position_hash(p); }
};

class SearchSource final : public ValueSource {
 public:
  SearchSource(std::shared_ptr<const Engine> engine, int depth,
               std::shared_ptr<const ai::Network> network = nullptr,
               std::shared_ptr<const solver::SolvedTable> table = nullptr)
      : ValueSource(std::move(engine)),
        depth_(depth),
        learned_(network != nullptr),
        search_(ai::ExpectimaxOptions{
            .depth = depth, .tt_bits = 16, .network = network, .table = std::move(table)}) {}

  double chance_value(const Position& q, Player pov) override {
    auto it = cache_.find(q);
    if (it == cache_.end()) {
      const double light = search_.value(*engine_, q, depth_, Player::kLight).value_or(0.5);
      // A probability, whatever the search's arithmetic: every chance, luck and loss of a
      // review is a difference of two of these, so each stays within [-1, 1].
      it = cache_.emplace(q, std::clamp(light, 0.0, 1.0)).first;
    }
    return pov == Player::kLight ? it->second : 1.0 - it->second;
  }
  bool exact() const override { return false; }
  std::string name() const override {
    return (learned_ ? "net(depth=" : "expectimax(depth=") + std::to_string(depth_) + ")";
  }

 private:
  int depth_;
  bool learned_;
  ai::ExpectimaxAgent search_;
  std::unordered_map<Position, double, PositionHash> cache_;
};

// An endgame table inside it, the search (reading the table at its leaves) before it.
class EndgameSource final : public ValueSource {
 public:
  EndgameSource(const solver::SolvedTable& solved, int depth,
                std::shared_ptr<const ai::Network> network)
      : ValueSource(solved.engine),
        table_(std::make_shared<const solver::SolvedTable>(solved)),
        search_(solved.engine, depth, std::move(network), table_) {}

  double chance_value(const Position& q, Player pov) override {
    if (q.phase == Phase::kAwaitingRoll && table_->covers(q)) return table_->value(q, pov);
    return search_.chance_value(q, pov);
  }
  bool exact() const override { return false; }
  bool exact_at(const Position& q) const override { return table_->covers(q); }
  std::string name() const override {
    return "endgame(k=" + std::to_string(table_->endgame()) + ")+" + search_.name();
  }

 private:
  std::shared_ptr<const solver::SolvedTable> table_;
  SearchSource search_;
};

}  // namespace

std::unique_ptr<ValueSource> endgame_source(const solver::SolvedTable& solved, int depth,
                                            const solver::TableStore* tables) {
  if (depth <= 0) depth = default_search_depth(*solved.engine);
  return std::make_unique<EndgameSource>(solved, depth, ai::data_network(tables, *solved.engine));
}

std::unique_ptr<ValueSource> table_source(std::shared_ptr<const Engine> engine,
                                          std::shared_ptr<const solver::Table> table,
                                          std::shared_ptr<const solver::StateIndex> index) {
  return std::make_unique<TableSource>(std::move(engine), std::move(table), std::move(index));
}

int default_search_depth(const Engine& engine) {
  // Depth 2 everywhere: on throw chains (bell, boxed) it counts half plies and sees the rest of
  // the chain under way; a whole boxed game then reviews in 0.1-0.6 s of one core, Murray in
  // about 0.5 s, and depth 3 would take 10-40 s (docs/analysis.md has the timings).
  (void)engine;
  return 2;
}

std::unique_ptr<ValueSource> search_source(std::shared_ptr<const Engine> engine, int depth) {
  if (depth <= 0) depth = default_search_depth(*engine);
  return std::make_unique<SearchSource>(std::move(engine), depth);
}

std::unique_ptr<ValueSource> estimate_source(std::shared_ptr<const Engine> engine,
                                             const solver::TableStore* tables, int depth) {
  // The data directory's network (when one loads) estimates at the search's leaves instead of
  // the hand evaluation.
  if (auto net = ai::data_network(tables, *engine)) {
    const int d = depth > 0 ? depth : default_search_depth(*engine);
    return std::make_unique<SearchSource>(std::move(engine), d, std::move(net));
  }
  return search_source(std::move(engine), depth);
}

OpenedSource open_source(const RuleSet& rules, const solver::TableStore* tables,
                         const std::string& table_path, int depth) {
  OpenedSource out;
  solver::TableLookup found = solver::find_table(tables, rules, table_path);
  out.table = found.state;
  if (found.ready() && found.solved.endgame() > 0) {
    out.source = endgame_source(found.solved, depth, tables);
    return out;
  }
  if (found.ready()) {
    out.source = table_source(found.solved.engine, found.solved.table, found.solved.index);
    return out;
  }
  out.why = std::move(found.why);
  out.source = estimate_source(std::make_shared<const Engine>(rules), tables, depth);
  return out;
}

}  // namespace ur::analysis
