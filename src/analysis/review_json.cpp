#include "analysis/review_json.h"

namespace ur::analysis {
namespace {

using json = nlohmann::json;

json move_json(const Move& m) {
  json j{{"from", m.from}, {"to", m.to}};
  if (m.kind != MoveKind::kMove) j["award"] = m.kind == MoveKind::kAwardYes;
  return j;
}

json decision_json(const Step& s, bool estimate, const MoveDescriber& describe) {
  json j{{"event", s.event},
         {"seat", seat_of(s.player)},
         {"player", player_name(s.player)},
         {"legal", s.legal},
         {"from", s.played.from},
         {"to", s.played.to},
         {"best", move_json(s.best)},
         {"value", s.played_value},
         {"best_value", s.best_value},
         {"cost", s.lost},
         {"grade", grade_name(s.grade)},
         {"light", s.light_after},
         {"estimate", estimate}};
  if (s.kind == StepKind::kResign) {
    j["resign"] = true;
    j["grade"] = "resigned";
    j.erase("best");
  } else if (s.played.kind != MoveKind::kMove) {
    j["award"] = s.played.kind == MoveKind::kAwardYes;
  }
  if (s.before.phase == Phase::kAwaitingMove) j["roll"] = s.before.roll;
  if (describe && s.kind == StepKind::kDecision) {
    j["played_text"] = describe(s.before, s.played);
    j["best_text"] = describe(s.before, s.best);
  }
  return j;
}

json throw_json(const Step& s, bool estimate) {
  return {{"event", s.event},
          {"seat", seat_of(s.player)},
          {"player", player_name(s.player)},
          {"outcome", s.outcome},
          {"luck", s.luck},
          {"light", s.light_after},
          {"light_expected", s.light_before},
          {"estimate", estimate}};
}

json player_json(const Review& r, Player p) {
  const PlayerReview& pr = r.players[index_of(p)];
  json grades;
  for (int g = 0; g < kGradeCount; ++g) grades[grade_name(static_cast<Grade>(g))] = pr.grades[g];
  auto throw_ref = [&](int step) -> json {
    if (step < 0) return nullptr;
    return {{"event", r.steps[step].event},
            {"outcome", r.steps[step].outcome},
            {"luck", r.steps[step].luck}};
  };
  return {{"seat", seat_of(p)},
          {"player", player_name(p)},
          {"decisions", pr.decisions},
          {"best", pr.best},
          {"total_cost", pr.lost},
          {"worst_cost", pr.worst},
          {"accuracy", pr.accuracy ? json(*pr.accuracy) : json(nullptr)},
          {"luck", pr.luck},
          {"throws", pr.throws},
          {"grades", std::move(grades)},
          {"luckiest", throw_ref(pr.luckiest)},
          {"unluckiest", throw_ref(pr.unluckiest)},
          {"estimate", r.estimate}};
}

}  // namespace

nlohmann::json review_json(const Review& r, const MoveDescriber& describe) {
  json moves = json::array(), throws = json::array(), graph = json::array();
  graph.push_back({{"step", 0}, {"event", -1}, {"light", r.start_value}});
  for (int i = 0; i < static_cast<int>(r.steps.size()); ++i) {
    const Step& s = r.steps[i];
    if (s.kind == StepKind::kThrow)
      throws.push_back(throw_json(s, r.estimate && !s.exact));
    else
      moves.push_back(decision_json(s, r.estimate && !s.exact, describe));
    json point{{"step", i + 1}, {"event", s.event}, {"light", s.light_after}};
    if (s.kind == StepKind::kDecision && s.grade >= Grade::kMistake)
      point["mark"] = grade_name(s.grade);
    graph.push_back(std::move(point));
  }
  for (int i : r.key_throws) graph[i + 1]["mark"] = "luck";
  json key_decisions = json::array(), key_throws = json::array();
  for (int i : r.key_decisions)
    key_decisions.push_back(decision_json(r.steps[i], r.estimate && !r.steps[i].exact, describe));
  for (int i : r.key_throws)
    key_throws.push_back(throw_json(r.steps[i], r.estimate && !r.steps[i].exact));
  const PlayerReview& l = r.players[0];
  const PlayerReview& d = r.players[1];
  json decomposition{{"start", r.start_value}, {"result", r.result},   {"light_luck", l.luck},
                     {"dark_luck", d.luck},    {"light_lost", l.lost}, {"dark_lost", d.lost},
                     {"residual", r.residual}};
  return {
      {"estimate", r.estimate},
      {"exact_decisions", r.exact_decisions},
      {"source", r.source},
      {"summary", summary_line(r)},
      {"start_value", r.start_value},
      {"result", r.result},
      {"moves", std::move(moves)},
      {"throws", std::move(throws)},
      {"players", json::array({player_json(r, Player::kLight), player_json(r, Player::kDark)})},
      {"decomposition", std::move(decomposition)},
      {"key_moves", {{"decisions", std::move(key_decisions)}, {"throws", std::move(key_throws)}}},
      {"graph", std::move(graph)}};
}

}  // namespace ur::analysis
