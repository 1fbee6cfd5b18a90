#include "server/sqlite_storage.h"

#include <sqlite3.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ur::server {
namespace {

// Numbered schema steps. Append only: a released step is never edited, a change is a new step.
struct Migration {
  int version;
  const char* sql;
};

constexpr Migration kMigrations[] = {
    {1, R"sql(
      CREATE TABLE users (
        id            INTEGER PRIMARY KEY,
        username      TEXT    NOT NULL COLLATE NOCASE UNIQUE,
        password_hash TEXT    NOT NULL,
        created_at    INTEGER NOT NULL,
        rating        REAL    NOT NULL DEFAULT 1200,
        games         INTEGER NOT NULL DEFAULT 0,
        wins          INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE sessions (
        id         TEXT    PRIMARY KEY,
        user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
    )sql"},
};

class SqliteStorage final : public Storage {
 public:
  explicit SqliteStorage(const std::string& path) {
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
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=ON");
    migrate();
  }

  ~SqliteStorage() override {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  std::string backend() const override { return "sqlite"; }

  int latest_schema_version() const override { return std::end(kMigrations)[-1].version; }

  int schema_version() override {
    std::lock_guard lock(mutex_);
    return current_version();
  }

  bool healthy() override {
    std::lock_guard lock(mutex_);
    Query q(*this, "SELECT 1");
    return q.step();
  }

  std::optional<User> create_user(std::string_view username, std::string_view password_hash,
                                  std::int64_t now) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    {
      Query q(*this, "INSERT INTO users(username, password_hash, created_at) VALUES(?, ?, ?)");
      q.bind(1, username).bind(2, password_hash).bind(3, now);
      int rc = sqlite3_step(q.stmt);
      if (rc == SQLITE_CONSTRAINT) return std::nullopt;  // tx rolls back
      if (rc != SQLITE_DONE) fail("insert user");
    }
    std::int64_t id = sqlite3_last_insert_rowid(db_);
    tx.commit();
    return find_user_locked(id);
  }

  std::optional<User> find_user_by_name(std::string_view username) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT id, username, password_hash, created_at, rating, games, wins "
            "FROM users WHERE username = ?");
    q.bind(1, username);
    return q.step() ? std::optional<User>(q.user()) : std::nullopt;
  }

  std::optional<User> find_user_by_id(std::int64_t id) override {
    std::lock_guard lock(mutex_);
    return find_user_locked(id);
  }

  void create_session(const SessionRecord& s) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    Query q(*this, "INSERT INTO sessions(id, user_id, created_at, expires_at) VALUES(?, ?, ?, ?)");
    q.bind(1, s.id).bind(2, s.user_id).bind(3, s.created_at).bind(4, s.expires_at);
    if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("insert session");
    q.reset();
    tx.commit();
  }

  std::optional<User> user_for_session(std::string_view session_id, std::int64_t now) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT u.id, u.username, u.password_hash, u.created_at, u.rating, u.games, u.wins "
            "FROM sessions s JOIN users u ON u.id = s.user_id "
            "WHERE s.id = ? AND s.expires_at > ?");
    q.bind(1, session_id).bind(2, now);
    return q.step() ? std::optional<User>(q.user()) : std::nullopt;
  }

  bool delete_session(std::string_view session_id) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    Query q(*this, "DELETE FROM sessions WHERE id = ?");
    q.bind(1, session_id);
    if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("delete session");
    q.reset();
    bool deleted = sqlite3_changes(db_) > 0;
    tx.commit();
    return deleted;
  }

  int delete_expired_sessions(std::int64_t now) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    Query q(*this, "DELETE FROM sessions WHERE expires_at <= ?");
    q.bind(1, now);
    if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("delete expired sessions");
    q.reset();
    int n = sqlite3_changes(db_);
    tx.commit();
    return n;
  }

 private:
  // A cached prepared statement, reset and unbound when the Query goes out of scope.
  struct Query {
    SqliteStorage& owner;
    sqlite3_stmt* stmt;
    Query(SqliteStorage& o, const char* sql) : owner(o), stmt(o.prepare(sql)) {}
    ~Query() { reset(); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    void reset() {
      sqlite3_reset(stmt);
      sqlite3_clear_bindings(stmt);
    }
    Query& bind(int i, std::string_view v) {
      check(sqlite3_bind_text(stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
      return *this;
    }
    Query& bind(int i, std::int64_t v) {
      check(sqlite3_bind_int64(stmt, i, v));
      return *this;
    }
    void check(int rc) {
      if (rc != SQLITE_OK) owner.fail("bind");
    }
    bool step() {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) return true;
      if (rc == SQLITE_DONE) return false;
      owner.fail("query");
      return false;
    }
    std::string text(int col) {
      auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, col)))
               : std::string();
    }
    User user() {
      User u;
      u.id = sqlite3_column_int64(stmt, 0);
      u.username = text(1);
      u.password_hash = text(2);
      u.created_at = sqlite3_column_int64(stmt, 3);
      u.rating = sqlite3_column_double(stmt, 4);
      u.games = sqlite3_column_int(stmt, 5);
      u.wins = sqlite3_column_int(stmt, 6);
      return u;
    }
  };

  // BEGIN IMMEDIATE takes the write lock up front, so two writers never deadlock on upgrade.
  struct Transaction {
    SqliteStorage& owner;
    bool done = false;
    explicit Transaction(SqliteStorage& o) : owner(o) { owner.exec("BEGIN IMMEDIATE"); }
    void commit() {
      owner.exec("COMMIT");
      done = true;
    }
    ~Transaction() {
      if (!done) sqlite3_exec(owner.db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
  };

  [[noreturn]] void fail(const char* what) {
    throw StorageError(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db_));
  }

  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown error";
      sqlite3_free(err);
      throw StorageError(std::string("sqlite: ") + msg);
    }
  }

  sqlite3_stmt* prepare(const char* sql) {
    auto it = statements_.find(sql);
    if (it != statements_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
      fail("prepare");
    statements_.emplace(sql, stmt);
    return stmt;
  }

  std::optional<User> find_user_locked(std::int64_t id) {
    Query q(*this,
            "SELECT id, username, password_hash, created_at, rating, games, wins "
            "FROM users WHERE id = ?");
    q.bind(1, id);
    return q.step() ? std::optional<User>(q.user()) : std::nullopt;
  }

  int current_version() {
    Query q(*this, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    return q.step() ? sqlite3_column_int(q.stmt, 0) : 0;
  }

  // Each step runs in the same transaction as its schema_version row, so a crash mid-migration
  // leaves the previous version intact and the next start retries the step.
  void migrate() {
    exec(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
    for (const Migration& m : kMigrations) {
      Transaction tx(*this);
      if (current_version() >= m.version) continue;
      exec(m.sql);
      {
        Query q(*this,
                "INSERT INTO schema_version(version, applied_at) "
                "VALUES(?, CAST(strftime('%s','now') AS INTEGER))");
        q.bind(1, static_cast<std::int64_t>(m.version));
        if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("record migration");
      }
      tx.commit();
    }
  }

  sqlite3* db_ = nullptr;
  std::mutex mutex_;
  // Keyed by the address of the SQL literal: every query text is a string literal.
  std::unordered_map<const char*, sqlite3_stmt*> statements_;
};

}  // namespace

std::unique_ptr<Storage> open_sqlite_storage(const std::string& path) {
  return std::make_unique<SqliteStorage>(path);
}

}  // namespace ur::server
