#include "server/sqlite_storage.h"

#include "server/elo.h"

#include <sqlite3.h>

#include <chrono>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ur::server {
namespace {

// Numbered schema steps. Append only: a released step is never edited, a change is a new step.
struct Migration {
  int version;
  const char* sql;
};

// The lobby's order (Storage::public_tables); the PostgreSQL twin differs only in dialect.
constexpr const char* kLobbySql =
    "SELECT t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.created_at, "
    "t.updated_at, t.owner_key, t.owner_user, t.owner_addr "
    "FROM tables t LEFT JOIN users u ON u.id = t.owner_user "
    "WHERE t.status IN ('waiting', 'playing') AND t.is_public = 1 "
    "ORDER BY CASE WHEN t.status = 'waiting' AND u.id IS NOT NULL "
    "AND (u.games > 0 OR u.created_at <= ?) THEN 0 WHEN t.status = 'waiting' THEN 1 ELSE 2 END, "
    "t.updated_at DESC, t.id DESC LIMIT ? OFFSET ?";

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
};

constexpr const char* kTableColumns =
    "SELECT id, rules, status, is_public, rated, version, state, created_at, updated_at, "
    "owner_key, owner_user, owner_addr, owner_node, lease_until, epoch, clock_deadline "
    "FROM tables ";
// SQLite has one writer at a time, so the PostgreSQL twin's SKIP LOCKED has nothing to skip.
constexpr const char* kTakeExpiredSql =
    "UPDATE tables SET owner_node = ?1, lease_until = ?3, epoch = epoch + 1 WHERE id IN "
    "(SELECT id FROM tables WHERE status IN ('waiting', 'playing') AND lease_until < ?2 "
    "ORDER BY lease_until LIMIT ?4) RETURNING id, epoch";

// A cursor id above every table id (16 lowercase hex digits): no cursor id = nothing at `before`.
constexpr const char* kAfterEveryId = "~";

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
    enter_wal();
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

  bool save_table(const TableRow& t, std::int64_t expected_version,
                  std::int64_t expected_epoch) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    if (!write_table(t, expected_version, expected_epoch)) return false;
    tx.commit();
    return true;
  }

  std::optional<TableRow> find_table(std::string_view id) override {
    std::lock_guard lock(mutex_);
    static const std::string sql = std::string(kTableColumns) + "WHERE id = ?";
    Query q(*this, sql.c_str());
    q.bind(1, id);
    return q.step() ? std::optional<TableRow>(q.table()) : std::nullopt;
  }

  std::vector<TableRow> live_tables() override {
    std::lock_guard lock(mutex_);
    static const std::string sql =
        std::string(kTableColumns) + "WHERE status IN ('waiting', 'playing') ORDER BY created_at";
    Query q(*this, sql.c_str());
    std::vector<TableRow> out;
    while (q.step()) out.push_back(q.table());
    return out;
  }

  std::vector<TableRow> public_tables(const LobbyQuery& lq) override {
    std::lock_guard lock(mutex_);
    Query q(*this, kLobbySql);
    q.bind(1, lq.now - kEstablishedAfterSeconds)
        .bind(2, static_cast<std::int64_t>(lq.limit))
        .bind(3, static_cast<std::int64_t>(lq.offset));
    std::vector<TableRow> out;
    while (q.step()) out.push_back(q.table());
    return out;
  }

  int open_tables_of(const TableRow& owner) override {
    std::lock_guard lock(mutex_);
    Query q(*this, owner.owner_user > 0
                       ? "SELECT count(*) FROM tables WHERE status = 'waiting' AND owner_key = ?"
                       : "SELECT count(*) FROM tables WHERE status = 'waiting' AND owner_addr = ? "
                         "AND owner_user = 0");
    q.bind(1, owner.owner_user > 0 ? owner.owner_key : owner.owner_addr);
    return q.step() ? sqlite3_column_int(q.stmt, 0) : 0;
  }

  bool finish_game(const TableRow& t, std::int64_t expected_version, MatchRow& m,
                   std::int64_t expected_epoch) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    if (!write_table(t, expected_version, expected_epoch)) return false;
    m.rating_before = m.rating_after = {0, 0};
    if (m.rated) {
      // A bot in either seat: both sides are rated in the bot pool (bot_* columns).
      bool pool =
          bot_status_locked(m.user_ids[0]).is_bot || bot_status_locked(m.user_ids[1]).is_bot;
      std::optional<User> u[2] = {find_user_locked(m.user_ids[0], pool),
                                  find_user_locked(m.user_ids[1], pool)};
      if (!u[0] || !u[1]) throw StorageError("rated game with a missing user");
      int w = m.winner - 1, l = 1 - w;
      EloResult r = elo_update(u[w]->rating, u[w]->games, u[l]->rating, u[l]->games);
      m.rating_before = {u[0]->rating, u[1]->rating};
      m.rating_after[w] = r.winner_after;
      m.rating_after[l] = r.loser_after;
      for (int s = 0; s < 2; ++s) {
        Query q(*this, pool ? "UPDATE users SET bot_rating = ?, bot_games = bot_games + 1, "
                              "bot_wins = bot_wins + ? WHERE id = ?"
                            : "UPDATE users SET rating = ?, games = games + 1, wins = wins + ? "
                              "WHERE id = ?");
        q.bind(1, m.rating_after[s]).bind(2, std::int64_t{s == w}).bind(3, m.user_ids[s]);
        if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("update rating");
      }
    }
    {
      Query q(*this,
              "INSERT INTO matches(id, rules, rated, light_user, dark_user, light_name, dark_name, "
              "winner, reason, light_rating_before, light_rating_after, dark_rating_before, "
              "dark_rating_after, summary, record, started_at, finished_at) "
              "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      q.bind(1, m.id).bind(2, m.rules).bind(3, std::int64_t{m.rated});
      for (int s = 0; s < 2; ++s) {
        if (m.user_ids[s] > 0) q.bind(4 + s, m.user_ids[s]);  // else NULL: a guest or a bot
      }
      q.bind(6, m.names[0]).bind(7, m.names[1]).bind(8, std::int64_t{m.winner}).bind(9, m.reason);
      q.bind(10, m.rating_before[0]).bind(11, m.rating_after[0]);
      q.bind(12, m.rating_before[1]).bind(13, m.rating_after[1]);
      q.bind(14, m.summary).bind(15, m.record).bind(16, m.started_at).bind(17, m.finished_at);
      if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("insert match");
    }
    tx.commit();
    return true;
  }

  std::optional<MatchRow> find_match(std::string_view id) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT id, rules, rated, light_user, dark_user, light_name, dark_name, winner, "
            "reason, light_rating_before, light_rating_after, dark_rating_before, "
            "dark_rating_after, summary, record, started_at, finished_at "
            "FROM matches WHERE id = ?");
    q.bind(1, id);
    return q.step() ? std::optional<MatchRow>(q.match()) : std::nullopt;
  }

  std::vector<MatchRow> user_matches(std::int64_t user_id, int limit, std::int64_t before,
                                     std::string_view before_id) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT id, rules, rated, light_user, dark_user, light_name, dark_name, winner, "
            "reason, light_rating_before, light_rating_after, dark_rating_before, "
            "dark_rating_after, summary, '' AS record, started_at, finished_at "
            "FROM matches WHERE (light_user = ? OR dark_user = ?) "
            "AND (finished_at < ? OR (finished_at = ? AND id > ?)) "
            "ORDER BY finished_at DESC, id LIMIT ?");
    std::int64_t t = before > 0 ? before : std::numeric_limits<std::int64_t>::max();
    q.bind(1, user_id).bind(2, user_id).bind(3, t).bind(4, t);
    q.bind(5, before_id.empty() ? std::string_view(kAfterEveryId) : before_id);
    q.bind(6, static_cast<std::int64_t>(limit));
    std::vector<MatchRow> out;
    while (q.step()) out.push_back(q.match());
    return out;
  }

  void save_review(const ReviewRow& r) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "INSERT OR REPLACE INTO reviews(match_id, estimate, light_accuracy, dark_accuracy, "
            "review, created_at) VALUES(?, ?, ?, ?, ?, ?)");
    q.bind(1, r.match_id).bind(2, std::int64_t{r.estimate}).bind(3, r.accuracy[0]);
    q.bind(4, r.accuracy[1]).bind(5, r.review).bind(6, r.created_at);
    if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("save review");
  }

  std::optional<ReviewRow> find_review(std::string_view match_id) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT match_id, estimate, light_accuracy, dark_accuracy, review, created_at "
            "FROM reviews WHERE match_id = ?");
    q.bind(1, match_id);
    return q.step() ? std::optional<ReviewRow>(q.review()) : std::nullopt;
  }

  std::vector<ReviewRow> review_summaries(const std::vector<std::string>& match_ids) override {
    std::lock_guard lock(mutex_);
    std::vector<ReviewRow> out;
    for (const std::string& id : match_ids) {
      Query q(*this,
              "SELECT match_id, estimate, light_accuracy, dark_accuracy, '' AS review, "
              "created_at FROM reviews WHERE match_id = ?");
      q.bind(1, id);
      if (q.step()) out.push_back(q.review());
    }
    return out;
  }

  std::vector<User> leaderboard(int limit) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT id, username, '' AS password_hash, created_at, rating, games, wins "
            "FROM users WHERE games > 0 ORDER BY rating DESC, games DESC, id LIMIT ?");
    q.bind(1, static_cast<std::int64_t>(limit));
    std::vector<User> out;
    while (q.step()) out.push_back(q.user());
    return out;
  }

  BotStatus bot_status(std::int64_t user_id) override {
    std::lock_guard lock(mutex_);
    return bot_status_locked(user_id);
  }

  void set_bot(std::int64_t user_id, bool is_bot, std::string_view token_hash) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    Query q(*this, "UPDATE users SET is_bot = ?, bot_token_hash = ? WHERE id = ?");
    q.bind(1, std::int64_t{is_bot});
    if (!token_hash.empty()) q.bind(2, token_hash);  // else NULL: no token
    q.bind(3, user_id);
    if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("update bot");
    q.reset();
    tx.commit();
  }

  std::optional<User> user_for_bot_token(std::string_view token_hash) override {
    std::lock_guard lock(mutex_);
    Query q(*this,
            "SELECT id, username, password_hash, created_at, rating, games, wins "
            "FROM users WHERE bot_token_hash = ? AND is_bot = 1");
    q.bind(1, token_hash);
    return q.step() ? std::optional<User>(q.user()) : std::nullopt;
  }

 private:
  BotStatus bot_status_locked(std::int64_t user_id) {
    Query q(*this,
            "SELECT is_bot, bot_token_hash IS NOT NULL, bot_rating, bot_games, bot_wins "
            "FROM users WHERE id = ?");
    q.bind(1, user_id);
    BotStatus b;
    if (!q.step()) return b;
    b.is_bot = sqlite3_column_int(q.stmt, 0) != 0;
    b.has_token = sqlite3_column_int(q.stmt, 1) != 0;
    b.rating = sqlite3_column_double(q.stmt, 2);
    b.games = sqlite3_column_int(q.stmt, 3);
    b.wins = sqlite3_column_int(q.stmt, 4);
    return b;
  }

  std::optional<std::int64_t> claim_table(std::string_view id, std::string_view node,
                                          std::int64_t now_ms, std::int64_t until_ms) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    std::optional<std::int64_t> epoch;
    {
      Query q(*this,
              "UPDATE tables SET owner_node = ?2, lease_until = ?4, "
              "epoch = CASE WHEN owner_node = ?2 THEN epoch ELSE epoch + 1 END "
              "WHERE id = ?1 AND status IN ('waiting', 'playing') "
              "AND (owner_node = ?2 OR lease_until < ?3) RETURNING epoch");
      q.bind(1, id).bind(2, node).bind(3, now_ms).bind(4, until_ms);
      if (q.step()) epoch = sqlite3_column_int64(q.stmt, 0);
      while (q.step()) {
      }
    }
    tx.commit();
    return epoch;
  }

  std::vector<TableLease> renew_leases(std::string_view node, std::int64_t until_ms) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    std::vector<TableLease> out;
    {
      Query q(*this,
              "UPDATE tables SET lease_until = ?2 WHERE owner_node = ?1 "
              "AND status IN ('waiting', 'playing') RETURNING id, epoch");
      q.bind(1, node).bind(2, until_ms);
      while (q.step()) out.push_back({q.text(0), sqlite3_column_int64(q.stmt, 1)});
    }
    tx.commit();
    return out;
  }

  std::vector<TableLease> take_expired_leases(std::string_view node, std::int64_t now_ms,
                                              std::int64_t until_ms, int limit) override {
    std::lock_guard lock(mutex_);
    Transaction tx(*this);
    std::vector<TableLease> out;
    {
      Query q(*this, kTakeExpiredSql);
      q.bind(1, node).bind(2, now_ms).bind(3, until_ms).bind(4, std::int64_t{limit});
      while (q.step()) out.push_back({q.text(0), sqlite3_column_int64(q.stmt, 1)});
    }
    tx.commit();
    return out;
  }

  // Inserts (expected_version < 0) or updates the row if its version (and, unless kAnyEpoch,
  // its epoch) is the expected one.
  bool write_table(const TableRow& t, std::int64_t expected_version, std::int64_t expected_epoch) {
    if (expected_version < 0) {
      Query q(*this,
              "INSERT INTO tables(id, rules, status, is_public, rated, version, state, "
              "created_at, updated_at, owner_key, owner_user, owner_addr, clock_deadline) "
              "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING");
      q.bind(1, t.id).bind(2, t.rules).bind(3, t.status).bind(4, std::int64_t{t.is_public});
      q.bind(5, std::int64_t{t.rated}).bind(6, t.version).bind(7, t.state);
      q.bind(8, t.created_at).bind(9, t.updated_at).bind(10, t.owner_key);
      q.bind(11, t.owner_user).bind(12, t.owner_addr).bind(13, t.clock_deadline);
      if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("insert table");
    } else {
      Query q(*this,
              "UPDATE tables SET rules = ?, status = ?, is_public = ?, rated = ?, version = ?, "
              "state = ?, updated_at = ?, clock_deadline = ? "
              "WHERE id = ? AND version = ? AND (?11 < 0 OR epoch = ?11)");
      q.bind(1, t.rules).bind(2, t.status).bind(3, std::int64_t{t.is_public});
      q.bind(4, std::int64_t{t.rated}).bind(5, t.version).bind(6, t.state);
      q.bind(7, t.updated_at).bind(8, t.clock_deadline).bind(9, t.id).bind(10, expected_version);
      q.bind(11, expected_epoch);
      if (sqlite3_step(q.stmt) != SQLITE_DONE) fail("update table");
    }
    return sqlite3_changes(db_) == 1;
  }

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
    Query& bind(int i, double v) {
      check(sqlite3_bind_double(stmt, i, v));
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
    TableRow table() {
      TableRow t;
      t.id = text(0);
      t.rules = text(1);
      t.status = text(2);
      t.is_public = sqlite3_column_int(stmt, 3) != 0;
      t.rated = sqlite3_column_int(stmt, 4) != 0;
      t.version = sqlite3_column_int64(stmt, 5);
      t.state = text(6);
      t.created_at = sqlite3_column_int64(stmt, 7);
      t.updated_at = sqlite3_column_int64(stmt, 8);
      t.owner_key = text(9);
      t.owner_user = sqlite3_column_int64(stmt, 10);
      t.owner_addr = text(11);
      if (sqlite3_column_count(stmt) > 12) {  // the lobby's query leaves the lease columns out
        t.owner_node = text(12);
        t.lease_until = sqlite3_column_int64(stmt, 13);
        t.epoch = sqlite3_column_int64(stmt, 14);
        t.clock_deadline = sqlite3_column_int64(stmt, 15);
      }
      return t;
    }
    ReviewRow review() {
      ReviewRow r;
      r.match_id = text(0);
      r.estimate = sqlite3_column_int(stmt, 1) != 0;
      r.accuracy = {sqlite3_column_double(stmt, 2), sqlite3_column_double(stmt, 3)};
      r.review = text(4);
      r.created_at = sqlite3_column_int64(stmt, 5);
      return r;
    }
    MatchRow match() {
      MatchRow m;
      m.id = text(0);
      m.rules = text(1);
      m.rated = sqlite3_column_int(stmt, 2) != 0;
      m.user_ids = {sqlite3_column_int64(stmt, 3), sqlite3_column_int64(stmt, 4)};
      m.names = {text(5), text(6)};
      m.winner = sqlite3_column_int(stmt, 7);
      m.reason = text(8);
      m.rating_before = {sqlite3_column_double(stmt, 9), sqlite3_column_double(stmt, 11)};
      m.rating_after = {sqlite3_column_double(stmt, 10), sqlite3_column_double(stmt, 12)};
      m.summary = text(13);
      m.record = text(14);
      m.started_at = sqlite3_column_int64(stmt, 15);
      m.finished_at = sqlite3_column_int64(stmt, 16);
      return m;
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

  sqlite3_stmt* prepare(const char* sql) {
    auto it = statements_.find(sql);
    if (it != statements_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
      fail("prepare");
    statements_.emplace(sql, stmt);
    return stmt;
  }

  // `pool`: the user with their bot-pool rating, games and wins in place of the ordinary ones.
  std::optional<User> find_user_locked(std::int64_t id, bool pool = false) {
    Query q(*this, pool ? "SELECT id, username, password_hash, created_at, bot_rating, bot_games, "
                          "bot_wins FROM users WHERE id = ?"
                        : "SELECT id, username, password_hash, created_at, rating, games, wins "
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
