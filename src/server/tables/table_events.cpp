// The table events as JSON (table_events.h): the one place their wire form is written.
#include "server/tables/table_events.h"

#include <nlohmann/json.hpp>

#include <array>

#include "server/tables/table_views.h"

namespace ur::server {
using json = nlohmann::json;

namespace {

template <class... F>
struct EventVisitor : F... {
  using F::operator()...;
};
template <class... F>
EventVisitor(F...) -> EventVisitor<F...>;

json move_fields(const MoveEvent& e) {
  const MoveEffects& fx = e.effects;
  json ev = move_json(e.move);  // from, to, enter, capture, rosette, bear_off
  ev["move_kind"] = move_kind_name(e.move.kind);
  ev["seat"] = e.seat;
  ev["captures"] = fx.captures;
  ev["rosettes"] = fx.rosettes;
  ev["borne_off"] = fx.borne_off;
  ev["extra_turn"] = fx.extra;
  ev["award_pending"] = fx.award;
  ev["forfeit_pending"] = fx.forfeit;
  ev["doubled"] = fx.doubled;
  ev["bounced"] = fx.bounces > 0;
  return ev;
}

// Each event's fields but its kind.
json fields(const TableEvent& event) {
  auto seat = [](const auto& e) { return json{{"seat", e.seat}}; };
  return std::visit(
      EventVisitor{
          [](const RollEvent& e) {
            json ev{{"seat", e.seat}, {"value", e.value}, {"dice", e.dice}, {"passed", e.passed}};
            if (e.move) ev["move"] = *e.move;
            return ev;
          },
          [](const MoveEvent& e) { return move_fields(e); },
          [](const JoinedEvent& e) {
            return json{{"seat", e.seat}, {"name", e.name}};
          },
          [seat](const LeftEvent& e) { return seat(e); },
          [seat](const ResignEvent& e) { return seat(e); },
          [seat](const TimeoutEvent& e) { return seat(e); },
          [](const VisibilityEvent& e) {
            return json{{"public", e.is_public}};
          },
          [](const HintEvent& e) {
            return json{{"seat", e.seat}, {"hints", e.hints}};
          },
          [](const GameOverEvent& e) {
            return json{{"winner", e.winner}, {"reason", end_reason_name(e.reason)}};
          },
          [seat](const AbortedEvent& e) { return seat(e); },
          [](const ClosedEvent& e) {
            return e.abandoned ? json{{"reason", "abandoned"}} : json::object();
          },
          [](const UndoEvent& e) {
            return json{{"seat", e.seat}, {"undone", e.undone}};
          },
          [seat](const RematchOfferEvent& e) { return seat(e); },
          [seat](const RematchDeclineEvent& e) { return seat(e); },
          [](const RematchEvent& e) {
            return json{{"table", e.table}};
          },
      },
      event);
}

}  // namespace

std::string_view event_kind(const TableEvent& e) {
  // In the variant's order: an event added there without a kind here does not compile.
  static constexpr std::array<std::string_view, 15> kKinds = {
      "roll",   "move",      "joined",  "left",   "resign", "timeout",       "visibility",
      "hint",   "game_over", "aborted", "closed", "undo",   "rematch_offer", "rematch_decline",
      "rematch"};
  static_assert(kKinds.size() == std::variant_size_v<TableEvent>);
  return kKinds[e.index()];
}

json event_json(const TableEvent& event) {
  json ev = fields(event);
  ev["kind"] = event_kind(event);
  return ev;
}

json events_json(const TableEvents& events) {
  json out = json::array();
  for (const TableEvent& e : events) out.push_back(event_json(e));
  return out;
}

}  // namespace ur::server
