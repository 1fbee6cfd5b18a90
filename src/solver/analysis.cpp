#include "solver/analysis.h"

#include <algorithm>

namespace ur::solver {

std::string_view grade(double cost) {
  if (cost < 1e-6) return "best";
  if (cost < 0.01) return "good";
  if (cost < 0.05) return "inaccuracy";
  if (cost < 0.15) return "mistake";
  return "blunder";
}

AnalysisResult analyse(const Game& game, const StateIndex& index, const Table& table) {
  if (table.info().rules != game.rules().to_string())
    return "the table is solved for '" + table.info().rules + "', the game is " +
           game.rules().to_string();
  if (table.info().encoding != index.encoding_id() || table.size() != index.size())
    return "the table's state encoding does not match this build";
  const Engine& engine = game.engine();
  // The mover's winning chance in q, a position reached after the mover's decision.
  auto value_for = [&](const Position& q, Player mover) -> double {
    if (q.is_over()) return q.turn == mover ? 1.0 : 0.0;
    const double v = table.value(index.rank(q));
    return q.turn == mover ? v : 1.0 - v;
  };
  Analysis out;
  // Walk back from the end: undo() gives the position before each event.
  Game g = game;
  std::vector<GradedMove> moves;
  while (!g.events().empty()) {
    const GameEvent ev = g.events().back();
    const int event = static_cast<int>(g.events().size()) - 1;
    g.undo();
    const Position& p = g.position();
    if (ev.type != GameEvent::Type::kMove || p.phase != Phase::kAwaitingMove) continue;
    GradedMove gm;
    gm.event = event;
    gm.before = p;
    gm.player = p.turn;
    gm.roll = p.roll;
    gm.played = ev.move;
    MoveList legal;
    engine.legal_moves(p, legal);
    gm.legal = legal.size;
    gm.best_value = -1;
    bool found = false;
    for (const Move& m : legal) {
      Position q = p;
      engine.apply_move(q, m);
      const double v = value_for(q, p.turn);
      if (v > gm.best_value + 1e-12) gm.best_value = v, gm.best = m;
      if (m == ev.move) gm.played_value = v, found = true;
    }
    if (!found) return "event " + std::to_string(event + 1) + ": the move is not legal";
    moves.push_back(gm);
  }
  std::reverse(moves.begin(), moves.end());
  Position start = g.position();
  if (start.phase == Phase::kAwaitingRoll && !start.is_over())
    out.start_value = table.value(index.rank(start));
  for (const GradedMove& m : moves) {
    if (m.legal < 2) continue;
    PlayerSummary& s = out.players[index_of(m.player)];
    ++s.decisions;
    const double c = std::max(0.0, m.cost());
    if (c < 1e-6) ++s.best;
    s.total_cost += c;
    s.worst_cost = std::max(s.worst_cost, c);
  }
  out.moves = std::move(moves);
  return out;
}

}  // namespace ur::solver
