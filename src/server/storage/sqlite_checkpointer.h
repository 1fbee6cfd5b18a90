// Checkpoints an SQLite database in WAL mode from a connection and a thread of its own, so that
// no request waits for a checkpoint.
//
// Why: SQLite's automatic checkpoint runs inside the COMMIT that takes the log past its
// threshold (1,000 pages), and copies the log into the database file and syncs it there. The
// server has one SQLite connection behind a mutex (sqlite_storage.cpp), so every call queued
// behind that COMMIT waits too: under the puzzle load test's 500 solvers that was the slowest
// 1% of the requests. A PASSIVE checkpoint from another connection copies what no reader still
// needs without taking the write lock, so commits and reads go on beside it; the server's own
// connection has its automatic checkpoint turned off (`PRAGMA wal_autocheckpoint=0`).
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

namespace ur::server {

class WalCheckpointer {
 public:
  // Opens its own connection to `path` (a database already in WAL mode) and checkpoints it
  // every `every`. Throws StorageError when the file cannot be opened.
  WalCheckpointer(const std::string& path, std::chrono::milliseconds every);
  ~WalCheckpointer();
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  // The last round's log size and the frames of it copied into the database (they are equal
  // once the whole log is in the database).
  struct Round {
    int log = 0;
    int copied = 0;
  };
  Round last_round() const;

 private:
  void run(std::stop_token stop);

  sqlite3* db_ = nullptr;
  std::chrono::milliseconds every_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  Round last_;
  std::jthread thread_;  // last: started once everything it reads is set
};

}  // namespace ur::server
