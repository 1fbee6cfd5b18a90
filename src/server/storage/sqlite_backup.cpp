#include "server/storage/sqlite_backup.h"
#include "server/server_errc.h"
#include "solver/table_errc.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

namespace ur::server {
namespace {

namespace fs = std::filesystem;

struct Closer {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
using Db = std::unique_ptr<sqlite3, Closer>;

Error failure(const std::string& what, sqlite3* db) {
  return Error{Errc::kInternal, what + ": " + (db ? sqlite3_errmsg(db) : "out of memory")};
}

Result<Db> open(const std::string& path, int flags) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Db db(raw);
  if (rc != SQLITE_OK) return failure("cannot open " + path, db.get());
  sqlite3_busy_timeout(db.get(), 5000);
  return db;
}

// The first column of the first row of `sql` as text ("" when there is none).
std::string scalar(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    if (const unsigned char* t = sqlite3_column_text(st, 0)) out = reinterpret_cast<const char*>(t);
  sqlite3_finalize(st);
  return out;
}

// An intact SQLite file with the tables of ur's schema (a backup of something else, or a
// truncated copy, is refused before anything is replaced).
std::optional<Error> check_ur_database(sqlite3* db, const std::string& path) {
  std::string check = scalar(db, "PRAGMA quick_check");
  if (check != "ok")
    return Error{solver::TableErrc::kCorruptTable,
                 path + " is not an intact SQLite database" +
                     (check.empty() ? std::string() : ": " + check)};
  if (scalar(db,
             "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
             "('users', 'tables', 'matches')") != "3")
    return Error{solver::TableErrc::kCorruptTable,
                 path + " is not an ur database (no users, tables, matches)"};
  return std::nullopt;
}

// Copies every page of `from` into `to` in one step: one consistent snapshot of `from`. A
// writer holding the lock at that moment makes the step answer BUSY: it is tried again.
Result<SqliteCopy> copy_pages(sqlite3* from, sqlite3* to) {
  sqlite3_backup* b = sqlite3_backup_init(to, "main", from, "main");
  if (!b) return failure("cannot start the copy", to);
  int rc = SQLITE_OK;
  for (int tries = 0; tries < 600; ++tries) {
    rc = sqlite3_backup_step(b, -1);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  SqliteCopy copy{sqlite3_backup_pagecount(b), 0};
  sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE) return failure("copy failed", to);
  copy.bytes = copy.pages * std::stoll(scalar(to, "PRAGMA page_size"));
  return copy;
}

void remove_quietly(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix, ec);
}

// Copies the file `from` to the new file `to` (its temporary name removed on failure).
Result<SqliteCopy> copy_file(const std::string& from, const std::string& to, bool check_from) {
  auto src = open(from, SQLITE_OPEN_READONLY);
  if (auto* e = std::get_if<Error>(&src)) return *e;
  sqlite3* s = std::get<Db>(src).get();
  if (check_from)
    if (auto e = check_ur_database(s, from)) return *e;
  remove_quietly(to);
  auto dst = open(to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (auto* e = std::get_if<Error>(&dst)) return *e;
  auto copied = copy_pages(s, std::get<Db>(dst).get());
  // The copy is a single file: no WAL beside it.
  if (!std::holds_alternative<Error>(copied) &&
      scalar(std::get<Db>(dst).get(), "PRAGMA journal_mode=DELETE") != "delete")
    copied = Error{Errc::kInternal, "cannot make " + to + " a single file"};
  std::get<Db>(dst).reset();
  if (std::holds_alternative<Error>(copied)) remove_quietly(to);
  return copied;
}

}  // namespace

Result<SqliteCopy> sqlite_backup(const std::string& db, const std::string& out) {
  if (!fs::exists(db)) return Error{ServerErrc::kNotFound, "no database at " + db};
  const std::string partial = out + ".partial";
  auto copied = copy_file(db, partial, true);
  if (std::holds_alternative<Error>(copied)) return copied;
  std::error_code ec;
  fs::rename(partial, out, ec);
  if (ec) {
    remove_quietly(partial);
    return Error{Errc::kInternal, "cannot write " + out + ": " + ec.message()};
  }
  return copied;
}

Result<SqliteCopy> sqlite_restore(const std::string& from, const std::string& db, bool replace) {
  if (!fs::exists(from)) return Error{ServerErrc::kNotFound, "no backup at " + from};
  if (fs::exists(db)) {
    if (!replace)
      return Error{ServerErrc::kConflict,
                   db + " exists: stop the server and add --force to replace it"};
    // Leaving WAL needs the only connection: a server that has the database open makes this fail
    // at once, and then nothing is replaced.
    auto cur = open(db, SQLITE_OPEN_READWRITE);
    if (auto* e = std::get_if<Error>(&cur)) return *e;
    sqlite3_busy_timeout(std::get<Db>(cur).get(), 0);
    if (scalar(std::get<Db>(cur).get(), "PRAGMA journal_mode=DELETE") != "delete")
      return Error{ServerErrc::kConflict,
                   db + " is open in another process: stop the server first"};
  }
  const std::string incoming = db + ".restore";
  auto copied = copy_file(from, incoming, true);
  if (std::holds_alternative<Error>(copied)) return copied;
  // The old database left WAL above, so it is one file, which the rename replaces at once.
  std::error_code ec;
  fs::rename(incoming, db, ec);
  if (ec) return Error{Errc::kInternal, "cannot replace " + db + ": " + ec.message()};
  return copied;
}

}  // namespace ur::server
