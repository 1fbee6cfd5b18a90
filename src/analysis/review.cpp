#include "analysis/review.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ur::analysis {
namespace {

double for_light(Player p, double v) {
  return p == Player::kLight ? v : 1.0 - v;
}

Step throw_step(ValueSource& src, const Position& p, int event, int outcome) {
  const Engine& engine = src.engine();
  Step s;
  s.kind = StepKind::kThrow;
  s.event = event;
  s.player = p.turn;
  s.before = p;
  s.outcome = outcome;
  double expected = 0, after = 0;
  for (const ChanceOutcome& o : engine.chance_outcomes(p)) {
    Position child = p;
    engine.apply_throw(child, o.outcome);
    const double v = src.value(child, p.turn);
    expected += o.probability * v;
    if (o.outcome == outcome) after = v;
  }
  s.luck = after - expected;
  s.exact = src.exact_at(p);
  s.light_before = for_light(p.turn, expected);
  s.light_after = for_light(p.turn, after);
  return s;
}

Step decision_step(ValueSource& src, const Position& p, int event, const Move& played) {
  const Engine& engine = src.engine();
  Step s;
  s.kind = StepKind::kDecision;
  s.event = event;
  s.player = p.turn;
  s.before = p;
  s.played = played;
  MoveList moves;
  engine.legal_moves(p, moves);
  s.legal = moves.size;
  s.best_value = s.played_value = -1;  // -1 left in played_value: `played` is not legal
  for (const Move& m : moves) {
    Position q = p;
    engine.apply_move(q, m);
    const double v = src.value(q, p.turn);
    // The first move of the highest value, as the perfect player picks it (ties: 1e-12).
    if (v > s.best_value + 1e-12) s.best_value = v, s.best = m;
    if (m == played) s.played_value = v;
  }
  s.lost = std::max(0.0, s.best_value - s.played_value);
  s.grade = grade_of(s.lost, s.legal);
  s.exact = src.exact_at(p);
  s.light_before = for_light(p.turn, s.best_value);
  s.light_after = for_light(p.turn, s.played_value);
  return s;
}

void summarise_players(Review& r) {
  std::array<std::vector<double>, 2> losses;
  for (int i = 0; i < static_cast<int>(r.steps.size()); ++i) {
    const Step& s = r.steps[i];
    PlayerReview& pr = r.players[index_of(s.player)];
    if (s.kind == StepKind::kThrow) {
      ++pr.throws;
      pr.luck += s.luck;
      if (pr.luckiest < 0 || s.luck > r.steps[pr.luckiest].luck) pr.luckiest = i;
      if (pr.unluckiest < 0 || s.luck < r.steps[pr.unluckiest].luck) pr.unluckiest = i;
      continue;
    }
    pr.lost += s.lost;
    if (s.kind != StepKind::kDecision) continue;
    ++pr.grades[static_cast<int>(s.grade)];
    if (s.legal < 2) continue;
    ++pr.decisions;
    if (s.exact) ++r.exact_decisions;
    if (s.grade == Grade::kBest) ++pr.best;
    pr.worst = std::max(pr.worst, s.lost);
    losses[index_of(s.player)].push_back(s.lost);
  }
  for (int i = 0; i < 2; ++i)
    if (!losses[i].empty()) r.players[i].accuracy = accuracy(losses[i]);
}

// The steps of `kind` whose `size` is largest (at least kKeyMinimum), largest first.
template <typename Size>
std::vector<int> key_steps(const Review& r, StepKind kind, Size size) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(r.steps.size()); ++i)
    if (r.steps[i].kind == kind && size(r.steps[i]) >= kKeyMinimum) out.push_back(i);
  std::stable_sort(out.begin(), out.end(),
                   [&](int a, int b) { return size(r.steps[a]) > size(r.steps[b]); });
  if (out.size() > kKeySteps) out.resize(kKeySteps);
  return out;
}

}  // namespace

ReviewResult review(const Game& game, ValueSource& src) {
  const Engine& engine = src.engine();
  if (engine.rules().to_string() != game.rules().to_string())
    return Error{Errc::kBadRecord, "the values are for " + engine.rules().to_string() +
                                       ", the game is " + game.rules().to_string()};
  Review r;
  r.estimate = !src.exact();
  r.source = src.name();
  Position p = game.start_position();
  r.start_value = src.value(p, Player::kLight);
  const std::vector<GameEvent>& events = game.events();
  for (int i = 0; i < static_cast<int>(events.size()); ++i) {
    const GameEvent& ev = events[i];
    if (ev.type == GameEvent::Type::kResign) {
      Step s;
      s.kind = StepKind::kResign;
      s.event = i;
      s.player = ev.player;
      s.before = p;
      s.lost = src.value(p, ev.player);
      s.light_before = for_light(ev.player, s.lost);
      s.light_after = for_light(ev.player, 0.0);
      r.steps.push_back(s);
      break;
    }
    if (ev.type == GameEvent::Type::kThrow) {
      if (!p.is_chance())
        return Error{Errc::kBadRecord, "event " + std::to_string(i + 1) + ": a throw out of turn"};
      r.steps.push_back(throw_step(src, p, i, ev.outcome));
      engine.apply_throw(p, ev.outcome);
    } else {
      if (!p.is_decision())
        return Error{Errc::kBadRecord, "event " + std::to_string(i + 1) + ": a move out of turn"};
      Step s = decision_step(src, p, i, ev.move);
      if (s.played_value < 0 || s.best_value < 0)
        return Error{Errc::kBadRecord,
                     "event " + std::to_string(i + 1) + ": the move is not legal"};
      r.steps.push_back(s);
      engine.apply_move(p, ev.move);
    }
  }
  r.result =
      game.is_over() ? (game.winner() == Player::kLight ? 1.0 : 0.0) : src.value(p, Player::kLight);
  summarise_players(r);
  const PlayerReview& l = r.players[0];
  const PlayerReview& d = r.players[1];
  r.residual = r.result - r.start_value - (l.luck - d.luck - l.lost + d.lost);
  r.key_decisions = key_steps(r, StepKind::kDecision, [](const Step& s) { return s.lost; });
  r.key_throws = key_steps(r, StepKind::kThrow, [](const Step& s) { return std::abs(s.luck); });
  return r;
}

std::string summary_line(const Review& r) {
  const bool over = r.result == 0.0 || r.result == 1.0;
  const Player side = over && r.result == 0.0 ? Player::kDark : Player::kLight;
  const Player foe = other(side);
  const PlayerReview& me = r.players[index_of(side)];
  const PlayerReview& them = r.players[index_of(foe)];
  const double dice = me.luck - them.luck;
  auto pct = [](double v) {
    // A true minus sign; "+0.0%" for a zero so the sign is always shown.
    return fmt::format("{}{:.1f}%", v < -0.0005 ? "\u2212" : "+", std::abs(100.0 * v));
  };
  std::string head = over ? fmt::format("{} won", side == Player::kLight ? "Light" : "Dark")
                          : fmt::format("Light {:.1f}%", 100.0 * r.result);
  return fmt::format("{}: {} from the dice, {} from mistakes; {} {}{}", head, pct(dice),
                     pct(-me.lost), foe == Player::kLight ? "Light" : "Dark", pct(-them.lost),
                     r.estimate ? " (estimate)" : "");
}

}  // namespace ur::analysis
