// A Finkel table 150 events into its game, where the per-action costs that grow with the game are
// typical: shared by the table and cluster benchmarks.
#pragma once

#include "engine/random.h"
#include "server/tables/table_model.h"
#include "server/tables/table_service.h"

namespace {

using ur::server::Actor;
using ur::server::json;
using ur::server::TableModel;

struct MidGame {
  Actor light{"u:1", 1, "light", 1200}, dark{"u:2", 2, "dark", 1200};
  TableModel table;
  MidGame() : table(make()) {}
  TableModel make() {
    auto made = TableModel::create("00000000000000aa", {}, light, 0,
                                   [](const std::string& level, const ur::RuleSet& rules) {
                                     return ur::server::computer_name(level, rules, nullptr);
                                   });
    TableModel t = std::get<TableModel>(std::move(made));
    (void)t.join(dark, t.invite());
    ur::Rng rng(5);
    ur::server::UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
    while (t.game().events().size() < 150 && t.status() == ur::server::TableStatus::kPlaying) {
      ur::server::TableEvents ev;
      const Actor& a = t.seat_to_act() == 1 ? light : dark;
      if (t.game().awaiting_throw())
        (void)t.roll(a, dice, ev);
      else
        (void)t.move(a, t.game().legal_moves()[0].from, t.game().legal_moves()[0].to,
                     t.game().legal_moves()[0].kind, ev);
    }
    return t;
  }
};

const MidGame& mid() {
  static MidGame m;
  return m;
}

}  // namespace
