// The server's per-action costs (a benchmark, not a test): what a table does for every accepted
// action — copy the model, apply the action, serialise the row to store, build the broadcast —
// measured on a Finkel game 150 events in, where the costs that grow with the game are typical.
#include <benchmark/benchmark.h>

#include "mid_game.h"
#include "server/tables/table_model.h"
#include "server/tables/table_service.h"
#include "server/tables/table_views.h"

namespace {

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
