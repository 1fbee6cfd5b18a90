// The per-action costs of a cluster's parts (a benchmark, not a test; docs/scaling.md,
// "Per-part costs"): the versioned database write of an accepted action, the Redis bus's publish
// (one message's round trip between two nodes, and back-to-back messages), and the in-process
// fan-out of one broadcast to a table's watchers. The database and Redis ones need servers:
//   UR_BENCH_PG=postgresql://... UR_BENCH_REDIS=PORT build/release/bench/ur_bench
//       --benchmark_filter='Db|Bus|FanOut'
// (scripts/cluster up 1 starts both; the cluster's `env` file has the ports). Without them those
// benchmarks are skipped.
#include <benchmark/benchmark.h>

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>

#include "mid_game.h"
#include "server/accounts/accounts.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_pubsub.h"
#include "server/storage/storage.h"
#include "server/tables/table_views.h"

namespace {

using ur::server::Payload;
using ur::server::PubSub;

// One table's broadcast as it is published: its snapshot 150 events into a game.
Payload snapshot_payload() {
  json j{{"type", "table"}, {"table", ur::server::table_snapshot(mid().table)}};
  return std::make_shared<const std::string>(j.dump());
}

// The database write of an accepted action 150 events into a game, as a node makes it: the row's
// state and the action's new event appended (TableModel::to_row), and every kSnapshotEvents-th
// write the whole record instead, so that the time and the bytes are the mix a game writes.
void BM_DbSaveTable(benchmark::State& state) {
  const char* url = std::getenv("UR_BENCH_PG");
  if (!url) return state.SkipWithError("UR_BENCH_PG is not set");
  auto opened = ur::server::open_storage(url);
  if (!opened.storage) return state.SkipWithError(opened.error.c_str());
  ur::server::TableRow snapshot = mid().table.to_row(0);
  snapshot.id = ur::server::random_token_hex(8);
  snapshot.version = 1;
  opened.storage->save_table(snapshot, -1);
  ur::server::TableRow append = snapshot;
  append.snapshot = false;
  append.events.clear();
  append.new_events = snapshot.events.substr(snapshot.events.rfind("},{") + 2);  // one event
  std::int64_t version = 1, bytes = 0;
  for (auto _ : state) {
    ur::server::TableRow& row = version % ur::server::kSnapshotEvents == 0 ? snapshot : append;
    row.version = ++version;
    if (!opened.storage->save_table(row, version - 1)) return state.SkipWithError("conflict");
    bytes +=
        static_cast<std::int64_t>(row.state.size() + row.events.size() + row.new_events.size());
  }
  state.counters["bytes_per_write"] =
      benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kAvgIterations);
  state.SetLabel(std::to_string(append.state.size()) + " bytes of state, " +
                 std::to_string(append.new_events.size()) + " of event; " +
                 std::to_string(snapshot.events.size()) + " of record every " +
                 std::to_string(ur::server::kSnapshotEvents));
}
BENCHMARK(BM_DbSaveTable)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Two buses (two nodes) on one Redis: what B received.
struct BusPair {
  std::unique_ptr<PubSub> a, b;
  ur::server::Subscription sub;
  std::mutex m;
  std::condition_variable cv;
  std::size_t got = 0;
  explicit BusPair(const std::string& url) {
    a = std::get<std::unique_ptr<PubSub>>(ur::server::open_bus(url));
    b = std::get<std::unique_ptr<PubSub>>(ur::server::open_bus(url));
    sub = b->subscribe("bench", [this](const Payload&) {
      std::lock_guard lock(m);
      ++got;
      cv.notify_all();
    });
    // The SUBSCRIBE is asynchronous: publish until one arrives.
    for (int i = 0; i < 500 && !wait(1, std::chrono::milliseconds(20)); ++i)
      a->publish("bench", std::make_shared<const std::string>("probe"));
  }
  bool wait(std::size_t n, std::chrono::milliseconds within = std::chrono::seconds(10)) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, within, [&] { return got >= n; });
  }
  std::size_t received() {
    std::lock_guard lock(m);
    return got;
  }
};

std::unique_ptr<BusPair> bus_pair(benchmark::State& state) {
  const char* port = std::getenv("UR_BENCH_REDIS");
  if (!port) {
    state.SkipWithError("UR_BENCH_REDIS is not set");
    return nullptr;
  }
  auto pair = std::make_unique<BusPair>(std::string("redis://127.0.0.1:") + port);
  if (!pair->wait(1, std::chrono::milliseconds(0))) {
    state.SkipWithError("no message came through Redis");
    return nullptr;
  }
  return pair;
}

// One broadcast from a node to another and no more until it arrived: the latency a player on
// another node adds.
void BM_BusRoundTrip(benchmark::State& state) {
  auto pair = bus_pair(state);
  if (!pair) return;
  Payload payload = snapshot_payload();
  std::size_t n = pair->received();
  for (auto _ : state) {
    pair->a->publish("bench", payload);
    if (!pair->wait(++n)) return state.SkipWithError("a message was lost");
  }
  state.SetLabel(std::to_string(payload->size()) + " bytes");
}
BENCHMARK(BM_BusRoundTrip)->Unit(benchmark::kMicrosecond)->UseRealTime();

// 1,000 broadcasts back to back: the cost of each when the bus is busy (its throughput).
void BM_BusBurst(benchmark::State& state) {
  auto pair = bus_pair(state);
  if (!pair) return;
  Payload payload = snapshot_payload();
  std::size_t n = pair->received();
  for (auto _ : state) {
    for (int i = 0; i < 1000; ++i) pair->a->publish("bench", payload);
    if (!pair->wait(n += 1000)) return state.SkipWithError("a message was lost");
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_BusBurst)->Unit(benchmark::kMillisecond)->UseRealTime();

// One broadcast to the table's K watchers on a node: each handler queues the shared payload as
// WsClient::send does (a lock and a push; the socket write is the connection's own work).
void BM_FanOut(benchmark::State& state) {
  ur::server::InProcessPubSub bus;
  struct Queue {
    std::mutex m;
    std::deque<Payload> q;
  };
  std::vector<Queue> queues(static_cast<std::size_t>(state.range(0)));
  std::vector<ur::server::Subscription> subs;
  for (Queue& q : queues)
    subs.push_back(bus.subscribe("t", [&q](const Payload& p) {
      std::lock_guard lock(q.m);
      q.q.push_back(p);
      if (q.q.size() > 64) q.q.pop_front();
    }));
  Payload payload = snapshot_payload();
  for (auto _ : state) bus.publish("t", payload);
}
BENCHMARK(BM_FanOut)->Arg(2)->Arg(10)->Arg(100)->Unit(benchmark::kMicrosecond);

}  // namespace
