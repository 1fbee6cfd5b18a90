// The SQLite log is copied into the database by a thread of its own (sqlite_checkpointer.h):
// the server's connection never checkpoints inside a COMMIT, and the log still reaches the
// database file while the storage is open.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "server/storage/sqlite_checkpointer.h"
#include "server/storage/sqlite_storage.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

fs::path fresh_dir(const char* name) {
  fs::path dir = fs::temp_directory_path() / (name + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
}

// Waits (at most 10 s: a behaviour, not a timing) until `done` holds.
template <class Pred>
bool eventually(Pred done) {
  for (auto until = std::chrono::steady_clock::now() + 10s;
       std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(20ms))
    if (done()) return true;
  return done();
}

TEST(SqliteCheckpoint, TheThreadCopiesTheWholeLogIntoTheDatabase) {
  const fs::path dir = fresh_dir("ur-ckpt-");
  const fs::path file = dir / "t.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA wal_autocheckpoint=0");
  exec(db, "CREATE TABLE t (x TEXT)");
  exec(db, "BEGIN");
  for (int i = 0; i < 2000; ++i) exec(db, "INSERT INTO t VALUES (hex(randomblob(200)))");
  exec(db, "COMMIT");
  const auto before = fs::file_size(file);
  {
    WalCheckpointer checkpointer(file.string(), 10ms);
    ASSERT_TRUE(eventually([&] {
      auto r = checkpointer.last_round();
      return r.log > 0 && r.copied == r.log;
    })) << "log "
        << checkpointer.last_round().log << ", copied " << checkpointer.last_round().copied;
    // The writer's connection is still open and may go on writing beside the checkpoints.
    exec(db, "INSERT INTO t VALUES ('after')");
  }
  EXPECT_GT(fs::file_size(file), before + 500'000) << "the rows reached the database file";
  sqlite3_close(db);
  fs::remove_all(dir);
}

TEST(SqliteCheckpoint, AnOpenStorageGetsItsLogIntoTheDatabaseFile) {
  const fs::path dir = fresh_dir("ur-ckpt-storage-");
  const fs::path file = dir / "ur.db";
  auto storage = open_sqlite_storage(file.string());
  // Migrations may have been checkpointed already; what is written now is not, and the
  // server's own connection does not checkpoint (wal_autocheckpoint=0).
  ASSERT_TRUE(eventually([&] { return fs::file_size(file.string() + "-wal") > 0; }));
  const auto before = fs::file_size(file);
  for (int i = 0; i < 300; ++i)
    ASSERT_TRUE(storage->create_user("user" + std::to_string(i), std::string(400, 'h'), i));
  EXPECT_TRUE(eventually([&] { return fs::file_size(file) > before; }))
      << "the log was copied into the database file while the storage is open";
  EXPECT_EQ(storage->find_user_by_name("user299")->username, "user299");
  storage.reset();
  fs::remove_all(dir);
}

// A file that cannot be opened is a clear error.
TEST(SqliteCheckpoint, AMissingDirectoryIsAStorageError) {
  EXPECT_THROW(WalCheckpointer("/nonexistent-dir/x/t.db", 10ms), StorageError);
}

}  // namespace
}  // namespace ur::server
