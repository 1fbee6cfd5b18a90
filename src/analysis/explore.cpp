#include "analysis/explore.h"

#include "engine/notation.h"

namespace ur::analysis {
namespace {

std::vector<ExploredMove> moves_of(ValueSource& src, const Position& p) {
  const Engine& engine = src.engine();
  MoveList legal;
  engine.legal_moves(p, legal);
  std::vector<ExploredMove> out;
  int best = -1;
  for (const Move& m : legal) {
    Position q = p;
    engine.apply_move(q, m);
    out.push_back({m, src.value(q, p.turn), false});
    if (best < 0 || out.back().value > out[best].value + 1e-12)
      best = static_cast<int>(out.size()) - 1;
  }
  if (best >= 0) out[best].best = true;
  return out;
}

}  // namespace

Exploration explore(ValueSource& src, const Position& p) {
  const Engine& engine = src.engine();
  Exploration x;
  x.position = p;
  x.actor = p.turn;
  x.estimate = !src.exact_at(p);
  x.value = src.value(p, p.turn);
  if (p.is_decision()) {
    x.moves = moves_of(src, p);
  } else if (p.is_chance()) {
    for (const ChanceOutcome& o : engine.chance_outcomes(p)) {
      ExploredThrow t;
      t.outcome = o.outcome;
      t.probability = o.probability;
      t.after = p;
      engine.apply_throw(t.after, o.outcome);
      t.value = src.value(t.after, p.turn);
      if (t.after.is_decision()) t.moves = moves_of(src, t.after);
      x.throws.push_back(std::move(t));
    }
  }
  return x;
}

nlohmann::json exploration_json(
    const Engine& engine, const Exploration& x,
    const std::function<std::string(const Position&, const Move&)>& describe) {
  using json = nlohmann::json;
  auto moves_json = [&](const Position& at, const std::vector<ExploredMove>& moves) {
    json out = json::array();
    for (const ExploredMove& m : moves) {
      json j{{"from", m.move.from}, {"to", m.move.to}, {"value", m.value}, {"best", m.best}};
      if (m.move.kind != MoveKind::kMove) j["award"] = m.move.kind == MoveKind::kAwardYes;
      if (describe) j["text"] = describe(at, m.move);
      out.push_back(std::move(j));
    }
    return out;
  };
  json j{{"position", to_position_string(engine, x.position)},
         {"rules", engine.rules().to_string()},
         {"actor", player_name(x.actor)},
         {"value", x.value},
         {"estimate", x.estimate}};
  if (x.position.is_decision()) j["moves"] = moves_json(x.position, x.moves);
  if (x.position.is_chance()) {
    json throws = json::array();
    for (const ExploredThrow& t : x.throws)
      throws.push_back({{"outcome", t.outcome},
                        {"probability", t.probability},
                        {"value", t.value},
                        {"position", to_position_string(engine, t.after)},
                        {"moves", moves_json(t.after, t.moves)}});
    j["throws"] = std::move(throws);
  }
  return j;
}

}  // namespace ur::analysis
