// Table leases: with several nodes (a bus), exactly one node runs a live table's timers — the
// idle clock and the computer seats — the one holding the table (docs/scaling.md, "Table
// leases"). A node holds one lease, its `nodes` row, which it renews with one statement per
// period whatever the number of its tables; a live table names its holder (`owner_node`) and an
// `epoch` that grows on every takeover. Every node sweeps in the same period for tables whose
// holder's lease ran out and takes its fair share of them at epoch + 1, so a dead node's tables
// move within lease duration + period. The epoch fences the server's own commits (the idle
// clock, a computer move): an old holder that was paused or cut off, and wakes up still
// believing it holds the table, is refused by the database (Storage::save_table with the epoch).
//
// LeaseBook keeps which tables this node holds and makes the storage calls; LeaseManager
// (lease_manager.h) runs its periods and tells the tables what changed. Safe to call from
// several threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/config.h"
#include "server/storage/storage.h"

namespace ur::server {

// Unix time in milliseconds as the nodes count it together: leases and the stored idle deadline
// use it. The database server's clock (DatabaseClock), read every lease period and carried on by
// this node's monotonic clock in between; this node's wall clock until a first reading.
std::int64_t unix_now_ms();

class LeaseBook {
 public:
  LeaseBook(Storage& storage, const ServerConfig::Leases& config)
      : storage_(storage), config_(config) {}

  // The node's id in the leases: `name` with a random suffix, new for every process, so that a
  // restarted node never mistakes its predecessor's leases for its own.
  void start(const std::string& name);
  const std::string& node() const { return node_; }

  // Takes one live table if it is free (or already ours): its epoch, else nullopt (also before
  // the node's first renewal, and once released). Throws StorageError.
  std::optional<std::int64_t> claim(const std::string& table_id);

  struct Changes {
    std::vector<std::string> lost;   // held before, not any more (taken over, or game over)
    std::vector<TableLease> gained;  // taken from an expired lease (or found ours)
    std::size_t taken = 0;           // of `gained`, those taken from expired nodes
    std::size_t held = 0;            // tables held after the period
  };
  // One period: renews the node's lease (one row) and lists its tables, then takes its share of
  // the tables of expired nodes. Throws StorageError; then nothing changes here (the next period
  // tries again).
  Changes tick();

  std::size_t held();
  // A graceful stop: the node's lease expires now (one statement), so another node's next sweep
  // takes its tables instead of waiting out the lease; nothing is renewed or claimed from then
  // on. Returns how many tables were held (0 when released already). Throws StorageError.
  std::size_t release();
  // Whether release() began: read without the lock (a table's strand must not wait for a tick
  // in the database), so a lease gained just before it is not taken up after it.
  bool released() const { return released_; }

 private:
  static std::int64_t now_ms();

  Storage& storage_;
  const ServerConfig::Leases& config_;
  std::string node_;
  // Held across the storage calls: a claim and a tick never interleave, so what the database
  // answers and this map agree.
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> held_;  // table id -> epoch
  std::atomic<bool> released_{false};                   // release(): no renewal any more
};

}  // namespace ur::server
