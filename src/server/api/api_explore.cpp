// GET /api/explore?rules=R&position=P: the explorer of the game review (analysis/explore.h) for
// any position string — every throw and every legal move with its winning chance, exact from the
// server's solved table or estimated by search (marked), and the position each move leads to, so
// that a client without a rules engine can play moves on it freely and go back.
#include "analysis/explore.h"

#include "engine/notation.h"
#include "server/api/api.h"
#include "server/log.h"
#include "server/protocol/http_util.h"

namespace ur::server {

using json = nlohmann::json;

std::pair<http::status, json> explore_answer(const solver::TableStore& tables,
                                             std::string_view rules_text,
                                             std::string_view position_text) {
  auto bad = [](ErrorCode code, std::string message) {
    return std::pair{http_status(code), error_body(code, message)};
  };
  auto parsed = parse_rule_set(rules_text.empty() ? "finkel" : rules_text);
  if (auto* e = std::get_if<Error>(&parsed)) return bad(Errc::kBadRules, "rules: " + e->reason);
  const Engine engine(std::get<RuleSet>(parsed));
  Position start = engine.initial_position();
  if (!position_text.empty() && position_text != "start") {
    auto p = parse_position_string(engine, position_text);
    // The parser's message quotes the input; the answer names the rule only.
    if (std::holds_alternative<Error>(p))
      return bad(Errc::kBadPosition,
                 "position: not a position string of this rule set (docs/notation.md)");
    start = std::get<Position>(p);
  }
  if (!start.is_chance() && !start.is_decision())
    return bad(Errc::kBadPosition, "position: the game is over there; nothing to explore");
  analysis::OpenedSource src = analysis::open_source(engine.rules(), &tables);
  if (src.table == analysis::TableState::kRefused)
    log_line("explore: table refused, estimating: " + src.why);
  analysis::Exploration x = analysis::explore(*src.source, start);
  json j = analysis::exploration_json(engine, x);
  auto after = [&engine](const Position& at, const Move& m) {
    Position q = at;
    engine.apply_move(q, m);
    return to_position_string(engine, q);
  };
  for (std::size_t i = 0; i < x.moves.size(); ++i)
    j["moves"][i]["position"] = after(x.position, x.moves[i].move);
  for (std::size_t t = 0; t < x.throws.size(); ++t)
    for (std::size_t i = 0; i < x.throws[t].moves.size(); ++i)
      j["throws"][t]["moves"][i]["position"] = after(x.throws[t].after, x.throws[t].moves[i].move);
  return {http::status::ok, std::move(j)};
}

}  // namespace ur::server
