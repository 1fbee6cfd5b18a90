// The server's per-action costs (a benchmark, not a test): what a table does for every accepted
// action — copy the model, apply the action, serialise the row to store, build the broadcast —
// measured on a Finkel game 150 events in, where the costs that grow with the game are typical.
#include <benchmark/benchmark.h>

#include "engine/random.h"
#include "server/table_model.h"
#include "server/table_service.h"
#include "server/table_views.h"

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
      json ev = json::array();
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

void BM_TableCopy(benchmark::State& state) {
  for (auto _ : state) {
    TableModel copy = mid().table;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_TableCopy);

void BM_TableToRow(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mid().table.to_row(0));
}
BENCHMARK(BM_TableToRow);

void BM_TableSnapshotDump(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(ur::server::table_snapshot(mid().table).dump());
}
BENCHMARK(BM_TableSnapshotDump);

void BM_TableFromRow(benchmark::State& state) {
  ur::server::TableRow row = mid().table.to_row(0);
  for (auto _ : state) benchmark::DoNotOptimize(TableModel::from_row(row));
}
BENCHMARK(BM_TableFromRow);

}  // namespace
