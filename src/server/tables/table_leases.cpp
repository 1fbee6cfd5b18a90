// What the table service does when this node gains or loses a table's lease (LeasedTables,
// cluster/lease_manager.h): the lease manager decides, the table's runner acts inside the
// table's gate. Storage calls go through on_storage (the lease manager's claim, the runner's
// reload): with PostgreSQL on the storage pool, so no table-pool thread waits for the database.
#include <boost/asio/post.hpp>

#include "server/log.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

namespace {

// What the holder needs of a `table` broadcast: its version (-1 for any other message) and
// whether a clock runs in it.
struct Broadcast {
  std::int64_t version = -1;
  bool clock = false;
};

Broadcast table_broadcast(const std::string& payload) {
  json j = json::parse(payload, nullptr, false);
  if (!j.is_object() || j.value("type", "") != "table") return {};
  const json* table = j.contains("table") ? &j["table"] : nullptr;
  if (!table || !table->is_object() || !table->contains("version")) return {};
  const json& v = (*table)["version"];
  if (!v.is_number_integer()) return {};
  return {v.get<std::int64_t>(), j.contains("clock") && j["clock"].is_object()};
}

}  // namespace

void TableService::stop_all_timers() {
  for (auto& t : tables_.all()) net::post(t->strand, [this, t] { runner_.stop_timers(*t, true); });
}

TableService::Outcome TableService::claim_lease(std::shared_ptr<LiveTable> t) {
  if (!clustered_ || t->owned || stopping_) co_return std::nullopt;
  std::optional<std::int64_t> epoch = co_await leases_.claim_lease(t->model_id);
  if (epoch) co_await keep_lease(t, *epoch, false);
  co_return std::nullopt;
}

TableService::Outcome TableService::keep_lease(std::shared_ptr<LiveTable> t, std::int64_t epoch,
                                               bool publish_state) {
  // Handed back since it was gained (a graceful stop): the hand-back's stop_timers may have run
  // already, and another node runs the table from its next sweep.
  if (stopping_ || leases_.released()) co_return std::nullopt;
  t->owned = true;
  t->epoch = epoch;
  // The holder hears of every other node's commit and reloads: its timers follow the table.
  // Subscribed before the reload below, so no commit falls between the two.
  if (!t->lease_sub)
    t->lease_sub = ctx_.pubsub->subscribe(
        table_topic(t->model_id), [this, weak = std::weak_ptr<LiveTable>(t)](const Payload& p) {
          auto table = weak.lock();
          Broadcast b = table ? table_broadcast(*p) : Broadcast{};
          if (b.version >= 0) runner_.post_gated(table, on_peer_commit(table, b.version, b.clock));
        });
  // The previous holder may have committed after this node last read the table.
  co_await runner_.reload(t);
  runner_.arm_clock(t);
  runner_.schedule_bot(t);
  // Watchers resync from this snapshot (a client ignores a version it has); the clock in it is
  // the one this node now runs.
  if (publish_state && t->owned) runner_.publish(*t, {});
  co_return std::nullopt;
}

TableService::Outcome TableService::on_peer_commit(std::shared_ptr<LiveTable> t,
                                                   std::int64_t version, bool clock) {
  if (stopping_ || !t->owned) co_return std::nullopt;
  // A newer version, or a first move's clock another node started (keep_clock_start).
  std::int64_t mine = t->model.version();
  if (version > mine || (version == mine && clock && !t->clock_seat)) co_await runner_.reload(t);
  co_return std::nullopt;
}

net::awaitable<void> TableService::take_over(TableLease lease) {
  std::shared_ptr<LiveTable> t;
  try {
    // A table not cached here is read off the service strand (find: the worker pool).
    t = co_await find(lease.table_id);
  } catch (const StorageError& e) {
    log_line("table " + lease.table_id + ": cannot take over: " + e.what());
    co_return;
  }
  if (!t) co_return;  // gone, or corrupt (logged by find)
  log_line("table " + lease.table_id + ": taken over at epoch " + std::to_string(lease.epoch));
  runner_.post_gated(t, keep_lease(t, lease.epoch, true));
}

void TableService::drop_lease(const std::string& table_id) {
  // A game still live was taken over by another node: said so in the log (stop_timers).
  if (auto t = tables_.find(table_id))
    runner_.post_gated(t, [this, t] { runner_.stop_timers(*t); });
}

}  // namespace ur::server
