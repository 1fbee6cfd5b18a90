// LeaseManager: this node's side of the table leases (table_lease.h) with several nodes. Every
// renewal period, on the service strand, it renews the node's lease and takes its share of the
// expired nodes' tables (LeaseBook::tick, through on_storage), then tells the tables what
// changed; at a graceful stop it hands the leases back. It drives the tables through
// LeasedTables, which the table service implements (tables/): this room sits below the tables
// and knows nothing of them but that interface.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "server/cluster/table_lease.h"
#include "server/server_context.h"

namespace ur::server {

// What the lease manager asks of the tables of this node.
class LeasedTables {
 public:
  // This node gained the lease of `lease.table_id` at `lease.epoch` (taken from an expired node,
  // or found its own again): the table is loaded if need be and keeps the lease, so its timers
  // run here. On the service strand; a table gone or corrupt is skipped.
  virtual boost::asio::awaitable<void> take_over(TableLease lease) = 0;
  // This node no longer holds the table's lease (another node took it over, or its game ended):
  // its timers stop here.
  virtual void drop_lease(const std::string& table_id) = 0;
  // The node handed its leases back (a graceful stop): every table's timers stop here.
  virtual void stop_all_timers() = 0;

 protected:
  ~LeasedTables() = default;
};

class LeaseManager {
 public:
  using Strand = boost::asio::strand<boost::asio::thread_pool::executor_type>;
  // `strand` runs the renewals (the table service's strand); `clustered`: with a bus shared
  // with other nodes (without one there are no leases: this node runs every table's timers).
  LeaseManager(StorageCalls storage, const ServerConfig::Leases& config, Strand strand,
               bool clustered);
  LeaseManager(const LeaseManager&) = delete;
  LeaseManager& operator=(const LeaseManager&) = delete;

  // Names this node (`name` plus a random suffix: LeaseBook::start) and, clustered, starts the
  // renewals that drive `tables`.
  void start(const std::string& name, LeasedTables& tables);
  // This node's id in the leases, once started (stable: a reference to it stays valid).
  const std::string& node() const { return book_.node(); }
  // Whether the leases were handed back (readable on any strand without waiting for a renewal).
  bool released() const { return book_.released(); }
  // Inside a table's gate: takes the lease of a table this node just created or loaded, if it
  // is free (or ours already). Its epoch, else nullopt: not free, stopping, or a storage error
  // (logged).
  boost::asio::awaitable<std::optional<std::int64_t>> claim_lease(std::string table_id);
  // At the start of a graceful stop: hands this node's leases back (one statement) and stops
  // its tables' timers, so that other nodes run them from their next sweep.
  void hand_back();
  // No renewal from now on; the leases are handed back if they were not yet. Not on the strand:
  // the pools stop right after this.
  void stop();

 private:
  void tick();
  // One renewal period (on the strand): the LeaseBook's tick through on_storage, then what
  // changed.
  boost::asio::awaitable<void> period();
  // Hands the leases back in the database (logged; a failure leaves them to expire).
  void release();

  StorageCalls storage_;
  const ServerConfig::Leases& config_;
  LeaseBook book_;
  Strand strand_;
  boost::asio::steady_timer timer_;
  const bool clustered_;
  LeasedTables* tables_ = nullptr;
  std::atomic<bool> stopping_{false};
};

}  // namespace ur::server
