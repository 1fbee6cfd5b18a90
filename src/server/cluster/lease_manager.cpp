// The lease manager (lease_manager.h). Every storage call goes through on_storage, from the
// service strand (the periodic tick) or inside a table's gate (a claim): with PostgreSQL on the
// storage pool, so no table-pool thread waits for the database; never on an I/O thread.
#include "server/cluster/lease_manager.h"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>

#include "server/log.h"

namespace ur::server {
namespace net = boost::asio;

LeaseManager::LeaseManager(StorageCalls storage, const ServerConfig::Leases& config, Strand strand,
                           bool clustered)
    : storage_(storage),
      config_(config),
      book_(storage.db(), config),
      strand_(std::move(strand)),
      timer_(strand_),
      clustered_(clustered) {}

void LeaseManager::start(const std::string& name, LeasedTables& tables) {
  tables_ = &tables;
  book_.start(name);
  if (clustered_) net::post(strand_, [this] { tick(); });
}

void LeaseManager::hand_back() {
  if (!clustered_) return;
  net::post(strand_, [this] {
    release();
    if (tables_) tables_->stop_all_timers();
  });
}

void LeaseManager::stop() {
  stopping_ = true;
  net::post(strand_, [this] { timer_.cancel(); });
  // Usually handed back already (hand_back, at the start of a graceful stop; then this does
  // nothing). The other nodes take the tables at their next sweep, within one renewal period,
  // not a whole lease after this node is gone; a renewal still under way cannot take them back
  // (LeaseBook::release).
  if (clustered_) release();
}

void LeaseManager::release() {
  try {
    if (std::size_t n = book_.release())
      log_line("table leases: handed back " + std::to_string(n) + " on stopping");
  } catch (const StorageError& e) {
    // Not handed back: they expire on their own, a lease after the last renewal.
    log_line(std::string("table leases: not handed back: ") + e.what());
  }
}

void LeaseManager::tick() {
  if (stopping_) return;
  auto next = [this](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      log_line(std::string("table leases: ") + ex.what());
    }
    if (stopping_) return;
    timer_.expires_after(config_.renew);
    timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) tick();
    });
  };
  net::co_spawn(strand_, period(), net::bind_executor(strand_, next));
}

net::awaitable<void> LeaseManager::period() {
  // The service strand shares the table pool's threads: its storage calls leave them too.
  auto renew = [this] { return book_.tick(); };
  LeaseBook::Changes changes;
  try {
    changes = co_await on_storage(storage_, std::move(renew));
  } catch (const StorageError& e) {
    // The epoch still fences this node's commits; the next tick tries again.
    log_line(std::string("table leases: ") + e.what());
    co_return;
  }
  storage_.metrics.leases(changes.held, changes.taken, changes.lost.size());
  for (const std::string& id : changes.lost) tables_->drop_lease(id);
  for (TableLease& lease : changes.gained)
    if (!stopping_) co_await tables_->take_over(std::move(lease));
}

net::awaitable<std::optional<std::int64_t>> LeaseManager::claim_lease(std::string table_id) {
  if (!clustered_ || stopping_) co_return std::nullopt;
  auto take = [this, table_id] { return book_.claim(table_id); };
  try {
    co_return co_await on_storage(storage_, std::move(take));
  } catch (const StorageError& e) {
    log_line("table " + table_id + ": cannot claim: " + e.what());
    co_return std::nullopt;
  }
}

}  // namespace ur::server
