// Table leases (table_lease.h): the LeaseBook's storage calls. Its periods run in LeaseManager
// (lease_manager.h); what a table does when this node gains or loses its lease is in
// tables/table_leases.cpp.
#include "server/cluster/table_lease.h"

#include <sodium.h>

#include <chrono>
#include <cstdio>
#include <limits>

#include "server/storage/database_clock.h"

namespace ur::server {

namespace {

using std::chrono::milliseconds;

constexpr std::int64_t kNoReading = std::numeric_limits<std::int64_t>::min();
// The database's clock minus this node's monotonic clock, in ms: one number, so a reader never
// sees half of a new reading. One per process: a process is one node, on one database.
std::atomic<std::int64_t> g_offset_ms{kNoReading};

std::int64_t ms_since_epoch(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(t.time_since_epoch()).count();
}

// A reading: the database's clock said `db_ms` at `at` of this node's monotonic clock.
void set_cluster_clock(std::int64_t db_ms, std::chrono::steady_clock::time_point at) {
  g_offset_ms.store(db_ms - ms_since_epoch(at), std::memory_order_relaxed);
}

}  // namespace

// Unix ms as the nodes count them together: the database server's clock, read at the start of every lease period (tick) and
// carried on between readings by this node's monotonic clock, so that a node whose wall clock
// jumps (a bad NTP step) neither takes every other node's tables nor times out every game it
// holds (docs/scaling.md, "Clocks"); this node's wall clock until a first reading.
std::int64_t unix_now_ms() {
  std::int64_t offset = g_offset_ms.load(std::memory_order_relaxed);
  if (offset != kNoReading) return ms_since_epoch(std::chrono::steady_clock::now()) + offset;
  return std::chrono::duration_cast<milliseconds>(
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
  // The database's clock, taken as read halfway through the round trip.
  auto asked = std::chrono::steady_clock::now();
  if (auto* clock = dynamic_cast<DatabaseClock*>(&storage_); clock)
    if (auto db_ms = clock->clock_ms())
      set_cluster_clock(*db_ms, asked + (std::chrono::steady_clock::now() - asked) / 2);
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
    ++changes.taken;
  }
  changes.held = held_.size();
  return changes;
}

std::size_t LeaseBook::held() {
  std::lock_guard lock(mutex_);
  return held_.size();
}

}  // namespace ur::server
