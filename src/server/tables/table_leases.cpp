// What TableService does when this node gains or loses a table's lease (cluster/table_lease.h).
// Every storage call here goes through on_storage, from the service strand (the periodic tick) or
// inside a table's gate (a claim): with PostgreSQL on the storage pool, so no table-pool thread
// waits for the database; never on an I/O thread.
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>

#include "server/cluster/table_lease.h"
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

void TableService::hand_back() {
  if (!clustered_) return;
  net::post(service_strand_, [this] {
    release_leases();
    for (auto& t : tables_.all())
      net::post(t->strand, [this, t] { runner_.stop_timers(*t, true); });
  });
}

void TableService::release_leases() {
  try {
    if (std::size_t n = leases_.release())
      log_line("table leases: handed back " + std::to_string(n) + " on stopping");
  } catch (const StorageError& e) {
    // Not handed back: they expire on their own, a lease after the last renewal.
    log_line(std::string("table leases: not handed back: ") + e.what());
  }
}

void TableService::lease_tick() {
  if (stopping_) return;
  auto next = [this](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      log_line(std::string("table leases: ") + ex.what());
    }
    if (stopping_) return;
    lease_timer_.expires_after(ctx_.config.leases.renew);
    lease_timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) lease_tick();
    });
  };
  net::co_spawn(service_strand_, lease_period(), net::bind_executor(service_strand_, next));
}

net::awaitable<void> TableService::lease_period() {
  // The service strand shares the table pool's threads: its storage calls leave them too.
  auto renew = [this] { return leases_.tick(); };
  LeaseBook::Changes changes;
  try {
    changes = co_await on_storage(ctx_, std::move(renew));
  } catch (const StorageError& e) {
    // The epoch still fences this node's commits; the next tick tries again.
    log_line(std::string("table leases: ") + e.what());
    co_return;
  }
  ctx_.metrics.leases(changes.held, changes.taken, changes.lost.size());
  for (const std::string& id : changes.lost) lose(id);
  for (TableLease& lease : changes.gained)
    if (!stopping_) co_await take_over(std::move(lease));
}

TableService::Outcome TableService::claim(std::shared_ptr<LiveTable> t) {
  if (!clustered_ || t->owned || stopping_) co_return std::nullopt;
  auto take = [this, id = t->model_id] { return leases_.claim(id); };
  std::optional<std::int64_t> epoch;
  try {
    epoch = co_await on_storage(ctx_, std::move(take));
  } catch (const StorageError& e) {
    log_line("table " + t->model_id + ": cannot claim: " + e.what());
    co_return std::nullopt;
  }
  if (epoch) co_await hold(t, *epoch, false);
  co_return std::nullopt;
}

TableService::Outcome TableService::hold(std::shared_ptr<LiveTable> t, std::int64_t epoch,
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
          if (b.version >= 0) runner_.post_gated(table, heard(table, b.version, b.clock));
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

TableService::Outcome TableService::heard(std::shared_ptr<LiveTable> t, std::int64_t version,
                                          bool clock) {
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
  runner_.post_gated(t, hold(t, lease.epoch, true));
}

void TableService::lose(const std::string& id) {
  // A game still live was taken over by another node: said so in the log (stop_timers).
  if (auto t = tables_.find(id)) runner_.post_gated(t, [this, t] { runner_.stop_timers(*t); });
}

}  // namespace ur::server
