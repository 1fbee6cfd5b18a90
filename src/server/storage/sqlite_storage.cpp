#include "server/storage/sqlite_storage.h"

#include <sqlite3.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "server/storage/sql_database.h"

namespace ur::server {
namespace {

// Numbered schema steps (sql_database.h), in SQLite's dialect.
constexpr SqlMigration kMigrations[] = {
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
    {2, R"sql(
      CREATE TABLE tables (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        is_public  INTEGER NOT NULL,
        rated      INTEGER NOT NULL,
        version    BIGINT  NOT NULL,
        state      TEXT    NOT NULL,
        created_at BIGINT  NOT NULL,
        updated_at BIGINT  NOT NULL
      );
      CREATE INDEX tables_live ON tables(status, is_public, updated_at);
      CREATE TABLE matches (
        id                  TEXT    PRIMARY KEY,
        rules               TEXT    NOT NULL,
        rated               INTEGER NOT NULL,
        light_user          BIGINT  REFERENCES users(id),
        dark_user           BIGINT  REFERENCES users(id),
        light_name          TEXT    NOT NULL,
        dark_name           TEXT    NOT NULL,
        winner              INTEGER NOT NULL,
        reason              TEXT    NOT NULL,
        light_rating_before DOUBLE PRECISION NOT NULL,
        light_rating_after  DOUBLE PRECISION NOT NULL,
        dark_rating_before  DOUBLE PRECISION NOT NULL,
        dark_rating_after   DOUBLE PRECISION NOT NULL,
        summary             TEXT    NOT NULL,
        record              TEXT    NOT NULL,
        started_at          BIGINT  NOT NULL,
        finished_at         BIGINT  NOT NULL
      );
      CREATE INDEX matches_light ON matches(light_user, finished_at);
      CREATE INDEX matches_dark ON matches(dark_user, finished_at);
      CREATE INDEX users_rating ON users(games, rating);
    )sql"},
    {3, R"sql(
      ALTER TABLE tables ADD COLUMN owner_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN owner_user BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN owner_addr TEXT NOT NULL DEFAULT '';
      CREATE INDEX tables_owner ON tables(status, owner_key);
      CREATE INDEX tables_owner_addr ON tables(status, owner_addr);
    )sql"},
    {4, R"sql(
      CREATE TABLE reviews (
        match_id       TEXT    PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
        estimate       INTEGER NOT NULL,
        light_accuracy DOUBLE PRECISION NOT NULL,
        dark_accuracy  DOUBLE PRECISION NOT NULL,
        review         TEXT    NOT NULL,
        created_at     BIGINT  NOT NULL
      );
    )sql"},
    // Bot accounts and their own rating pool (Storage::bot_status).
    {5, R"sql(
      ALTER TABLE users ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_token_hash TEXT;
      ALTER TABLE users ADD COLUMN bot_rating REAL NOT NULL DEFAULT 1200;
      ALTER TABLE users ADD COLUMN bot_games INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_wins INTEGER NOT NULL DEFAULT 0;
      CREATE UNIQUE INDEX users_bot_token ON users(bot_token_hash);
    )sql"},
    // Table leases of a cluster (Storage::claim_table) and the stored idle clock.
    {6, R"sql(
      ALTER TABLE tables ADD COLUMN owner_node TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN clock_deadline BIGINT NOT NULL DEFAULT 0;
      CREATE INDEX tables_lease ON tables(status, lease_until);
      CREATE INDEX tables_owner_node ON tables(owner_node, status);
    )sql"},
    // The game record's events apart from the state (TableRow::events): a snapshot in the row,
    // written every few events and at the end, and one appended row per version after it. No
    // foreign key: an event row is only ever written in the transaction that updated its table
    // row, and the key check would lock that row once more on every action.
    {7, R"sql(
      ALTER TABLE tables ADD COLUMN events TEXT NOT NULL DEFAULT '';
      CREATE TABLE table_events (
        table_id TEXT   NOT NULL,
        version  BIGINT NOT NULL,
        events   TEXT   NOT NULL,
        PRIMARY KEY (table_id, version)
      ) WITHOUT ROWID;
    )sql"},
    // One lease per node (Storage::renew_leases): a `nodes` row renewed once a period replaces
    // the per-table lease_until; every node holding a live table gets its row.
    {8, R"sql(
      CREATE TABLE nodes (
        node        TEXT   PRIMARY KEY,
        lease_until BIGINT NOT NULL
      );
      INSERT INTO nodes(node, lease_until)
        SELECT owner_node, MAX(lease_until) FROM tables
        WHERE owner_node <> '' AND status IN ('waiting', 'playing') GROUP BY owner_node;
      DROP INDEX tables_lease;
      ALTER TABLE tables DROP COLUMN lease_until;
    )sql"},
};

// SQLite has one writer at a time, so PostgreSQL's SKIP LOCKED has nothing to skip here, and a
// transaction holds every row it reads (BEGIN IMMEDIATE): FOR UPDATE is not needed (nor known).
constexpr SqlDialect kSqlite{
    .backend = "sqlite",
    .migrations = kMigrations,
    .create_schema_version =
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    .lock_migrations = "",
    .now_seconds = "CAST(strftime('%s','now') AS INTEGER)",
    .username_is = "username = $1",  // the column is COLLATE NOCASE
    .bytewise = "",                  // BINARY, SQLite's default collation, is bytewise
    .lock_rows = "",
    .appended_events =
        "(SELECT group_concat(e.events, ',') OVER (ORDER BY e.version ROWS BETWEEN UNBOUNDED "
        "PRECEDING AND UNBOUNDED FOLLOWING) FROM table_events e WHERE e.table_id = t.id LIMIT 1)",
    .take_tables =
        "UPDATE tables SET owner_node = $1, epoch = epoch + 1 WHERE id IN "
        "(SELECT id FROM tables WHERE owner_node = $2 AND status IN ('waiting', 'playing') "
        "ORDER BY id LIMIT $3) RETURNING id, epoch",
    .share_skip_locked = "",
    .update_skip_locked = "",
};

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
  }

  ~SqliteDatabase() override {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  void read(const char* what, FunctionRef<void(SqlSession&)> body) override {
    std::lock_guard lock(mutex_);
    Session s(*this, what);
    body(s);
  }

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
  std::mutex mutex_;
  std::unordered_map<std::string, sqlite3_stmt*, TextHash, std::equal_to<>> statements_;
};

}  // namespace

std::unique_ptr<Storage> open_sqlite_storage(const std::string& path) {
  return make_sql_storage(std::make_unique<SqliteDatabase>(path), kSqlite);
}

}  // namespace ur::server
