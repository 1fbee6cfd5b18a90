#include "server/storage/sqlite_storage.h"

#include <sqlite3.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>

#include "server/storage/sql_database.h"
#include "server/storage/sqlite_checkpointer.h"

namespace ur::server {
namespace {

class SqliteRow final : public SqlRow {
 public:
  explicit SqliteRow(sqlite3_stmt* stmt) : stmt_(stmt) {}
  int size() const override { return sqlite3_column_count(stmt_); }
  std::int64_t integer(int c) const override { return sqlite3_column_int64(stmt_, c); }
  double real(int c) const override { return sqlite3_column_double(stmt_, c); }
  bool boolean(int c) const override { return sqlite3_column_int(stmt_, c) != 0; }
  std::string text(int c) const override {
    auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, c));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, c)))
             : std::string();
  }

 private:
  sqlite3_stmt* stmt_;
};

// Heterogeneous lookup: the statement cache is searched with the caller's string_view.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class SqliteDatabase final : public SqlDatabase {
 public:
  explicit SqliteDatabase(const std::string& path) {
    int rc =
        sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close(db_);
      db_ = nullptr;
      throw StorageError("cannot open database " + path + ": " + msg);
    }
    sqlite3_busy_timeout(db_, 5000);
    enter_wal();
    exec("PRAGMA synchronous=NORMAL", "open");
    exec("PRAGMA foreign_keys=ON", "open");
    // The log is copied into the database by a thread of its own (sqlite_checkpointer.h), not
    // inside whichever COMMIT crosses SQLite's threshold while every other call waits for it.
    exec("PRAGMA wal_autocheckpoint=0", "open");
    checkpointer_.emplace(path, std::chrono::milliseconds(250));
  }

  ~SqliteDatabase() override {
    checkpointer_.reset();
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  void read(const char* what, FunctionRef<void(SqlSession&)> body) override {
    std::lock_guard lock(mutex_);
    Session s(*this, what);
    body(s);
  }

  // One connection, one call at a time (the mutex): SQLite has one writer anyway.
  int connections() const override { return 1; }

  // BEGIN IMMEDIATE takes the write lock up front, so two writers never deadlock on upgrade.
  void write(const char* what, FunctionRef<void(SqlSession&)> body) override {
    std::lock_guard lock(mutex_);
    exec("BEGIN IMMEDIATE", what);
    try {
      Session s(*this, what);
      body(s);
      exec("COMMIT", what);
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

 private:
  class Session final : public SqlSession {
   public:
    Session(SqliteDatabase& db, const char* what) : db_(db), what_(what) {}

    std::int64_t run(std::string_view sql, std::initializer_list<SqlValue> params,
                     SqlRowFn row) override {
      Statement st(db_.prepare(sql, what_));
      int i = 0;
      for (const SqlValue& v : params) bind(st.stmt, ++i, v);
      SqliteRow r(st.stmt);
      for (;;) {
        int rc = sqlite3_step(st.stmt);
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) db_.fail(what_);
        if (row) row(r);
      }
      return sqlite3_changes(db_.db_);
    }

    void script(const char* sql) override { db_.exec(sql, what_); }

   private:
    // A cached statement, reset and unbound when its run ends (also by an exception).
    struct Statement {
      sqlite3_stmt* stmt;
      explicit Statement(sqlite3_stmt* s) : stmt(s) {}
      Statement(const Statement&) = delete;
      Statement& operator=(const Statement&) = delete;
      ~Statement() {
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
      }
    };

    void bind(sqlite3_stmt* stmt, int i, const SqlValue& v) {
      int rc = SQLITE_OK;
      switch (v.kind) {
        case SqlValue::Kind::null:
          rc = sqlite3_bind_null(stmt, i);
          break;
        case SqlValue::Kind::boolean:
        case SqlValue::Kind::integer:
          rc = sqlite3_bind_int64(stmt, i, v.integer);
          break;
        case SqlValue::Kind::real:
          rc = sqlite3_bind_double(stmt, i, v.real);
          break;
        case SqlValue::Kind::text:
          rc = sqlite3_bind_text(stmt, i, v.text.data(), static_cast<int>(v.text.size()),
                                 SQLITE_TRANSIENT);
          break;
      }
      if (rc != SQLITE_OK) db_.fail(what_);
    }

    SqliteDatabase& db_;
    const char* what_;
  };

  [[noreturn]] void fail(const char* what) {
    throw StorageError(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db_));
  }

  void exec(const char* sql, const char* what) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown error";
      sqlite3_free(err);
      throw StorageError(std::string("sqlite ") + what + ": " + msg);
    }
  }

  // Switching a new file to WAL needs an exclusive lock, and SQLite does not call the busy
  // handler for it: several servers opening one new database at once get "database is locked"
  // straight away. So wait for the lock here, as the busy timeout would have.
  void enter_wal() {
    using namespace std::chrono;
    const auto deadline = steady_clock::now() + seconds(5);
    for (;;) {
      int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || steady_clock::now() > deadline)
        fail("PRAGMA journal_mode=WAL");
      std::this_thread::sleep_for(milliseconds(5));
    }
  }

  // Prepared once per connection and kept. The shared statements write their parameters $1,
  // $2 …, which SQLite would number in order of appearance; ?1, ?2 … are numbered as written.
  sqlite3_stmt* prepare(std::string_view sql, const char* what) {
    auto it = statements_.find(sql);
    if (it != statements_.end()) return it->second;
    std::string text(sql);
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
      if (text[i] == '$' && text[i + 1] >= '0' && text[i + 1] <= '9') text[i] = '?';
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, text.c_str(), static_cast<int>(text.size()),
                           SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
      fail(what);
    statements_.emplace(std::string(sql), stmt);
    return stmt;
  }

  sqlite3* db_ = nullptr;
  std::optional<WalCheckpointer> checkpointer_;
  std::mutex mutex_;
  std::unordered_map<std::string, sqlite3_stmt*, TextHash, std::equal_to<>> statements_;
};

}  // namespace

std::unique_ptr<Storage> open_sqlite_storage(const std::string& path) {
  return make_sql_storage(std::make_unique<SqliteDatabase>(path), sqlite_dialect());
}

}  // namespace ur::server
