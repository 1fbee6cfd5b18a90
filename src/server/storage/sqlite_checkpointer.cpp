#include "server/storage/sqlite_checkpointer.h"

#include "server/storage/storage.h"

namespace ur::server {

WalCheckpointer::WalCheckpointer(const std::string& path, std::chrono::milliseconds every)
    : every_(every) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StorageError("cannot open database " + path + " to checkpoint it: " + msg);
  }
  // A checkpoint that meets a writer's brief lock tries again at the next round.
  sqlite3_busy_timeout(db_, 0);
  // A connection learns that the file is in WAL mode when it first reads it; until then a
  // checkpoint does nothing.
  sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

WalCheckpointer::~WalCheckpointer() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  sqlite3_close(db_);
}

WalCheckpointer::Round WalCheckpointer::last_round() const {
  std::lock_guard lock(mutex_);
  return last_;
}

void WalCheckpointer::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, stop, every_, [] { return false; }) && !stop.stop_requested()) {
    lock.unlock();
    int log = 0;
    int done = 0;
    // PASSIVE: copies the frames no reader still needs, never waits for a lock, never blocks a
    // writer. A busy or failed round is harmless: the log keeps the data, the next round copies.
    const int rc = sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
    // -1: this connection has not seen the file in WAL mode yet (its first read met a lock).
    if (rc == SQLITE_OK && log < 0)
      sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    lock.lock();
    if (rc == SQLITE_OK) last_ = {log, done};
  }
}

}  // namespace ur::server
