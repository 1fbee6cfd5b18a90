// Table leases (table_lease.h): the LeaseBook's storage calls, and what TableService does when
// this node gains or loses a table's lease. Every storage call here runs on the service strand
// (the periodic tick) or on the table's strand (a claim), never on an I/O thread.
#include "server/cluster/table_lease.h"

#include <sodium.h>

#include <boost/asio/post.hpp>

#include <chrono>
#include <cstdio>

#include "server/log.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

std::int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void LeaseBook::start(const std::string& name) {
  std::uint32_t suffix;
  randombytes_buf(&suffix, sizeof suffix);
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", suffix);
  std::lock_guard lock(mutex_);
  node_ = name + "/" + hex;
}

std::optional<std::int64_t> LeaseBook::claim(const std::string& table_id) {
  std::lock_guard lock(mutex_);
  if (released_) return std::nullopt;  // stopping
  auto epoch = storage_.claim_table(table_id, node_, unix_now_ms());
  if (epoch) held_[table_id] = *epoch;
  return epoch;
}

std::size_t LeaseBook::release() {
  std::lock_guard lock(mutex_);
  if (released_ || node_.empty()) return 0;
  released_ = true;
  std::size_t n = held_.size();
  // The node's lease "renewed" until the epoch's start: expired for every sweep from now on.
  storage_.renew_leases(node_, 0);
  held_.clear();
  return n;
}

LeaseBook::Changes LeaseBook::tick() {
  std::lock_guard lock(mutex_);
  Changes changes;
  if (released_) return changes;  // stopping: renewing would take the handed-back leases again
  std::int64_t now = unix_now_ms();
  std::unordered_map<std::string, std::int64_t> next;
  for (TableLease& lease : storage_.renew_leases(node_, now + config_.duration.count())) {
    auto it = held_.find(lease.table_id);
    if (it == held_.end() || it->second != lease.epoch) changes.gained.push_back(lease);
    next.emplace(std::move(lease.table_id), lease.epoch);
  }
  for (const auto& [id, epoch] : held_)
    if (!next.contains(id)) changes.lost.push_back(id);
  held_ = std::move(next);
  now = unix_now_ms();
  for (TableLease& lease : storage_.take_expired_leases(node_, now, now + config_.duration.count(),
                                                        config_.sweep_limit)) {
    held_[lease.table_id] = lease.epoch;
    changes.gained.push_back(std::move(lease));
  }
  return changes;
}

std::size_t LeaseBook::held() {
  std::lock_guard lock(mutex_);
  return held_.size();
}

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
    std::lock_guard lock(tables_mutex_);
    for (auto& [id, t] : tables_) net::post(t->strand, [this, t] { disown(*t, true); });
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
  try {
    LeaseBook::Changes changes = leases_.tick();
    for (const std::string& id : changes.lost) lose(id);
    for (const TableLease& lease : changes.gained) take_over(lease);
  } catch (const StorageError& e) {
    // The epoch still fences this node's commits; the next tick tries again.
    log_line(std::string("table leases: ") + e.what());
  }
  lease_timer_.expires_after(ctx_.config.leases.renew);
  lease_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) lease_tick();
  });
}

void TableService::claim(const std::shared_ptr<LiveTable>& t) {
  if (!clustered_ || t->owned || stopping_) return;
  try {
    if (auto epoch = leases_.claim(t->model_id)) hold(t, *epoch, false);
  } catch (const StorageError& e) {
    log_line("table " + t->model_id + ": cannot claim: " + e.what());
  }
}

void TableService::hold(const std::shared_ptr<LiveTable>& t, std::int64_t epoch,
                        bool publish_state) {
  if (stopping_) return;
  t->owned = true;
  t->epoch = epoch;
  // The holder hears of every other node's commit and reloads: its timers follow the table.
  if (!t->lease_sub)
    t->lease_sub = ctx_.pubsub->subscribe(
        "table:" + t->model_id, [this, weak = std::weak_ptr<LiveTable>(t)](const Payload& p) {
          auto table = weak.lock();
          Broadcast b = table ? table_broadcast(*p) : Broadcast{};
          if (b.version < 0) return;
          post_gated(table, [this, table, b] {
            if (stopping_ || !table->owned) return;
            // A newer version, or a first move's clock another node started (keep_clock_start).
            std::int64_t mine = table->model.version();
            if (b.version > mine || (b.version == mine && b.clock && !table->clock_seat))
              refresh(table);
          });
        });
  // The previous holder may have committed after this node last read the table.
  refresh(t);
  arm_clock(t);
  schedule_bot(t);
  // Watchers resync from this snapshot (a client ignores a version it has); the clock in it is
  // the one this node now runs.
  if (publish_state && t->owned) publish(*t, json::array());
}

void TableService::disown(LiveTable& t, bool handed_back) {
  if (!t.owned) return;
  // A finished game simply leaves the renewals.
  if (t.model.live() && !handed_back)
    log_line("table " + t.model_id + ": lease lost to another node; its timers stop here");
  t.owned = false;
  t.lease_sub.reset();
  t.idle_timer.cancel();
  t.bot_timer.cancel();
}

void TableService::take_over(const TableLease& lease) {
  std::shared_ptr<LiveTable> t;
  {
    std::lock_guard lock(tables_mutex_);
    if (auto it = tables_.find(lease.table_id); it != tables_.end()) t = it->second;
  }
  if (!t) {
    std::optional<TableRow> row;
    try {
      row = ctx_.storage->find_table(lease.table_id);
    } catch (const StorageError& e) {
      log_line("table " + lease.table_id + ": cannot take over: " + e.what());
      return;
    }
    if (!row) return;
    auto model = TableModel::from_row(*row);
    if (auto* e = std::get_if<Error>(&model)) {
      log_line("table " + lease.table_id + ": cannot take over: " + e->message);
      return;
    }
    t = add_table(std::move(std::get<TableModel>(model)));
  }
  log_line("table " + lease.table_id + ": taken over at epoch " + std::to_string(lease.epoch));
  post_gated(t, [this, t, epoch = lease.epoch] { hold(t, epoch, true); });
}

void TableService::lose(const std::string& id) {
  std::shared_ptr<LiveTable> t;
  {
    std::lock_guard lock(tables_mutex_);
    if (auto it = tables_.find(id); it != tables_.end()) t = it->second;
  }
  if (t) post_gated(t, [this, t] { disown(*t, true); });
}

}  // namespace ur::server
