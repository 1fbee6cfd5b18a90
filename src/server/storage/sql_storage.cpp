// Storage over a SqlDatabase: every statement, the Elo of a finished game, the transactions and
// the row mapping (sql_rows.h), once for both SQL backends. The fragments that differ between
// SQLite and PostgreSQL come from the SqlDialect, composed into statements at opening.
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "server/storage/database_clock.h"
#include "server/storage/sql_accounts.h"
#include "server/storage/sql_database.h"
#include "server/storage/sql_leases.h"
#include "server/storage/sql_puzzles.h"
#include "server/storage/sql_rows.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using sql::all;
using sql::first;
using sql::write_table;

// A cursor id above every table id (16 lowercase hex digits): no cursor id = nothing at `before`.
constexpr const char* kAfterEveryId = "~";

int current_version(SqlSession& s) {
  return static_cast<int>(
      first(s, "SELECT COALESCE(MAX(version), 0) FROM schema_version", {}, [](const SqlRow& r) {
        return r.integer(0);
      }).value_or(0));
}

class SqlStorage final : public Storage, public DatabaseClock {
  // (Defined before their first use: their return type is deduced.) The body's answer (or nothing), from a read or a write of the database.
  template <class F>
  auto read(const char* what, F&& body) {
    return with_db(what, false, body);
  }
  template <class F>
  auto write(const char* what, F&& body) {
    return with_db(what, true, body);
  }
  template <class F>
  auto with_db(const char* what, bool transaction, F& body) {
    using R = std::invoke_result_t<F&, SqlSession&>;
    if constexpr (std::is_void_v<R>) {
      transaction ? db_->write(what, body) : db_->read(what, body);
    } else {
      R out{};
      auto keep = [&](SqlSession& s) { out = body(s); };
      transaction ? db_->write(what, keep) : db_->read(what, keep);
      return out;
    }
  }

 public:
  SqlStorage(std::unique_ptr<SqlDatabase> db, const SqlDialect& d)
      : db_(std::move(db)),
        dialect_(d),
        record_migration_(
            std::string("INSERT INTO schema_version(version, applied_at) VALUES($1, ") +
            d.now_seconds + ")"),
        find_user_by_name_(std::string(sql::kUserColumns) + "WHERE " + d.username_is),
        tables_(std::string(sql::kTableColumns) + d.appended_events + " FROM tables t "),
        lobby_(sql::lobby_statement(d)),
        user_matches_(std::string(sql::kMatchColumns) +
                      "'' AS record, started_at, finished_at FROM matches "
                      "WHERE (light_user = $1 OR dark_user = $1) AND (finished_at < $2 OR "
                      "(finished_at = $2 AND id" +
                      d.bytewise + " > $4)) ORDER BY finished_at DESC, id" + d.bytewise +
                      " LIMIT $3"),
        // FOR UPDATE where the database has it, in id order: another node finishing a game of
        // the same player waits for this one instead of computing from the same old rating.
        rating_users_(std::string(sql::kUserColumns) + "WHERE id IN ($1, $2) ORDER BY id" +
                      d.lock_rows),
        rating_pool_users_(std::string(sql::kPoolUserColumns) + "WHERE id IN ($1, $2) ORDER BY id" +
                           d.lock_rows),
        accounts_(make_sql_accounts(*db_, d)) {
    migrate();
  }

  AccountStore& accounts() override { return *accounts_; }

  std::string backend() const override { return dialect_.backend; }
  int connections() const override { return db_->connections(); }
  int latest_schema_version() const override { return dialect_.migrations.back().version; }

  int schema_version() override {
    return read("schema version", [](SqlSession& s) { return current_version(s); });
  }

  bool healthy() override {
    try {
      return read("health check", [](SqlSession& s) {
        return first(s, "SELECT 1", {}, [](const SqlRow& r) { return r.integer(0); }) == 1;
      });
    } catch (const StorageError&) {
      return false;
    }
  }

  std::optional<User> create_user(std::string_view username, std::string_view password_hash,
                                  std::int64_t now) override {
    // ON CONFLICT DO NOTHING: a taken name is an expected outcome and must not abort anything.
    return write("insert user", [&](SqlSession& s) {
      return first(
          s,
          "INSERT INTO users(username, password_hash, created_at) VALUES($1, $2, $3) "
          "ON CONFLICT DO NOTHING "
          "RETURNING id, username, password_hash, created_at, rating, games, wins, language",
          {username, password_hash, now}, sql::to_user);
    });
  }

  std::optional<User> find_user_by_name(std::string_view username) override {
    return read("find user", [&](SqlSession& s) {
      return first(s, find_user_by_name_, {username}, sql::to_user);
    });
  }

  std::optional<User> find_user_by_id(std::int64_t id) override {
    return read("find user", [&](SqlSession& s) {
      return first(s, std::string(sql::kUserColumns) + "WHERE id = $1", {id}, sql::to_user);
    });
  }

  void create_session(const SessionRecord& x) override {
    write("insert session", [&](SqlSession& s) {
      s.run("INSERT INTO sessions(id, user_id, created_at, expires_at) VALUES($1, $2, $3, $4)",
            {x.id, x.user_id, x.created_at, x.expires_at});
    });
  }

  std::optional<User> user_for_session(std::string_view session_id, std::int64_t now) override {
    return read("find session", [&](SqlSession& s) {
      return first(s,
                   "SELECT u.id, u.username, u.password_hash, u.created_at, u.rating, u.games, "
                   "u.wins, u.language FROM sessions s JOIN users u ON u.id = s.user_id "
                   "WHERE s.id = $1 AND s.expires_at > $2",
                   {session_id, now}, sql::to_user);
    });
  }

  bool delete_session(std::string_view session_id) override {
    return write("delete session", [&](SqlSession& s) {
      return s.run("DELETE FROM sessions WHERE id = $1", {session_id}) > 0;
    });
  }

  int delete_expired_sessions(std::int64_t now) override {
    return write("delete expired sessions", [&](SqlSession& s) {
      return static_cast<int>(s.run("DELETE FROM sessions WHERE expires_at <= $1", {now}));
    });
  }

  bool save_table(const TableRow& t, std::int64_t expected_version,
                  std::int64_t expected_epoch) override {
    return write("save table", [&](SqlSession& s) {
      return write_table(s, t, expected_version, expected_epoch);
    });
  }

  std::optional<TableRow> find_table(std::string_view id) override {
    return read("find table", [&](SqlSession& s) {
      return first(s, tables_ + "WHERE t.id = $1", {id}, sql::to_table);
    });
  }

  std::vector<TableRow> live_tables() override {
    return read("live tables", [&](SqlSession& s) {
      return all(s, tables_ + "WHERE t.status IN ('waiting', 'playing') ORDER BY t.created_at", {},
                 sql::to_table);
    });
  }

  std::vector<TableRow> public_tables(const LobbyQuery& q) override {
    return read("public tables", [&](SqlSession& s) {
      return all(s, lobby_, {q.now - kEstablishedAfterSeconds, q.limit, q.offset}, sql::to_table);
    });
  }

  int open_tables_of(const TableRow& owner) override {
    return read("open tables", [&](SqlSession& s) {
      auto count = [](const SqlRow& r) { return static_cast<int>(r.integer(0)); };
      return (owner.owner_user > 0 ? first(s,
                                           "SELECT count(*) FROM tables WHERE status = 'waiting' "
                                           "AND owner_key = $1",
                                           {owner.owner_key}, count)
                                   : first(s,
                                           "SELECT count(*) FROM tables WHERE status = 'waiting' "
                                           "AND owner_addr = $1 AND owner_user = 0",
                                           {owner.owner_addr}, count))
          .value_or(0);
    });
  }

  bool finish_game(const TableRow& t, std::int64_t expected_version, MatchRow& m,
                   std::int64_t expected_epoch) override {
    return write("finish game", [&](SqlSession& s) {
      if (!write_table(s, t, expected_version, expected_epoch)) return false;
      m.rating_before = m.rating_after = {0, 0};
      if (m.rated) sql::rate_match(s, m, rating_users_, rating_pool_users_);
      // A user id of 0 (a guest or a bot) is stored as NULL.
      auto user = [](std::int64_t id) { return id > 0 ? SqlValue(id) : SqlValue(nullptr); };
      s.run(
          "INSERT INTO matches(id, rules, rated, light_user, dark_user, light_name, dark_name, "
          "winner, reason, light_rating_before, light_rating_after, dark_rating_before, "
          "dark_rating_after, summary, record, started_at, finished_at) "
          "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
          {m.id, m.rules, m.rated, user(m.user_ids[0]), user(m.user_ids[1]), m.names[0], m.names[1],
           m.winner, m.reason, m.rating_before[0], m.rating_after[0], m.rating_before[1],
           m.rating_after[1], m.summary, m.record, m.started_at, m.finished_at});
      return true;
    });
  }

  std::optional<MatchRow> find_match(std::string_view id) override {
    return read("find match", [&](SqlSession& s) {
      return first(s,
                   std::string(sql::kMatchColumns) +
                       "record, started_at, finished_at FROM matches WHERE id = $1",
                   {id}, sql::to_match);
    });
  }

  std::vector<MatchRow> user_matches(std::int64_t user_id, int limit, std::int64_t before,
                                     std::string_view before_id) override {
    std::int64_t until = before > 0 ? before : std::numeric_limits<std::int64_t>::max();
    std::string_view after = before_id.empty() ? std::string_view(kAfterEveryId) : before_id;
    return read("user matches", [&](SqlSession& s) {
      return all(s, user_matches_, {user_id, until, limit, after}, sql::to_match);
    });
  }

  std::vector<User> leaderboard(int limit) override {
    return read("leaderboard", [&](SqlSession& s) {
      return all(s,
                 "SELECT id, username, '' AS password_hash, created_at, rating, games, wins "
                 "FROM users WHERE games > 0 AND banned_at = 0 AND deleted_at = 0 ORDER BY rating "
                 "DESC, games DESC, id LIMIT $1",
                 {limit}, sql::to_user);
    });
  }

  std::vector<RuleRating> rule_ratings(std::int64_t user_id) override {
    return read("rule ratings", [&](SqlSession& s) { return sql::rule_ratings(s, user_id); });
  }

  void save_review(const ReviewRow& r) override {
    write("save review", [&](SqlSession& s) {
      s.run(
          "INSERT INTO reviews(match_id, estimate, light_accuracy, dark_accuracy, review, "
          "created_at) VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id) DO UPDATE SET "
          "estimate = excluded.estimate, light_accuracy = excluded.light_accuracy, "
          "dark_accuracy = excluded.dark_accuracy, review = excluded.review, "
          "created_at = excluded.created_at",
          {r.match_id, r.estimate, r.accuracy[0], r.accuracy[1], r.review, r.created_at});
    });
  }

  std::optional<ReviewRow> find_review(std::string_view match_id) override {
    return read("find review", [&](SqlSession& s) {
      return first(
          s,
          std::string(sql::kReviewColumns) + "review, created_at FROM reviews WHERE match_id = $1",
          {match_id}, sql::to_review);
    });
  }

  std::vector<ReviewRow> review_summaries(const std::vector<std::string>& match_ids) override {
    return read("review summaries", [&](SqlSession& s) {
      std::string sql = std::string(sql::kReviewColumns) +
                        "'' AS review, created_at FROM reviews WHERE match_id = $1";
      std::vector<ReviewRow> out;
      for (const std::string& id : match_ids) {
        if (auto r = first(s, sql, {id}, sql::to_review)) out.push_back(std::move(*r));
      }
      return out;
    });
  }

  std::optional<std::int64_t> claim_table(std::string_view id, std::string_view node,
                                          std::int64_t now_ms) override {
    return write("claim table",
                 [&](SqlSession& s) { return sql::claim_table(s, id, node, now_ms); });
  }

  std::vector<TableLease> renew_leases(std::string_view node, std::int64_t until_ms) override {
    return write("renew node lease",
                 [&](SqlSession& s) { return sql::renew_node(s, node, until_ms); });
  }

  std::vector<TableLease> take_expired_leases(std::string_view node, std::int64_t now_ms,
                                              std::int64_t until_ms, int limit) override {
    return write("take expired leases", [&](SqlSession& s) {
      return sql::take_orphans(s, dialect_, node, now_ms, until_ms, limit);
    });
  }

  std::optional<std::int64_t> clock_ms() override {
    return read("read the clock", [&](SqlSession& s) { return sql::read_clock(s, dialect_); });
  }

  bool start_clock(std::string_view id, std::int64_t version, std::int64_t deadline_ms) override {
    return write("start clock",
                 [&](SqlSession& s) { return sql::start_clock(s, id, version, deadline_ms); });
  }

  BotStatus bot_status(std::int64_t user_id) override {
    return read("bot status", [&](SqlSession& s) { return sql::bot_status(s, user_id); });
  }

  void set_bot(std::int64_t user_id, bool is_bot, std::string_view token_hash) override {
    write("update bot", [&](SqlSession& s) { sql::set_bot(s, user_id, is_bot, token_hash); });
  }

  std::optional<User> user_for_bot_token(std::string_view token_hash) override {
    return read("find bot", [&](SqlSession& s) {
      return first(s, std::string(sql::kUserColumns) + "WHERE bot_token_hash = $1 AND is_bot",
                   {token_hash}, sql::to_user);
    });
  }

  int add_puzzles(const std::vector<PuzzleRow>& puzzles, std::int64_t now) override {
    return write("add puzzles", [&](SqlSession& s) { return sql::add_puzzles(s, puzzles, now); });
  }
  std::optional<PuzzleRow> find_puzzle(std::string_view id) override {
    return read("find puzzle", [&](SqlSession& s) { return sql::find_puzzle(s, id); });
  }
  std::optional<PuzzleRow> next_puzzle(const PuzzleQuery& q) override {
    return read("next puzzle", [&](SqlSession& s) { return sql::next_puzzle(s, q); });
  }
  std::optional<PuzzleRow> daily_puzzle(std::string_view rules, std::string_view key) override {
    return read("daily puzzle",
                [&](SqlSession& s) { return sql::daily_puzzle(s, dialect_, rules, key); });
  }
  std::int64_t count_puzzles(std::string_view rules) override {
    return read("count puzzles", [&](SqlSession& s) { return sql::count_puzzles(s, rules); });
  }
  bool has_puzzles(std::string_view rules) override {
    return read("has puzzles", [&](SqlSession& s) { return sql::has_puzzles(s, rules); });
  }
  PuzzleRating puzzle_rating(std::int64_t user_id) override {
    return read("puzzle rating", [&](SqlSession& s) { return sql::puzzle_rating(s, user_id); });
  }
  std::vector<PuzzleAttemptRow> puzzle_history(std::int64_t user_id, int limit) override {
    return read("puzzle history", [&](SqlSession& s) { return sql::history(s, user_id, limit); });
  }
  std::optional<AttemptOutcome> record_attempt(std::int64_t user_id, std::string_view puzzle_id,
                                               std::string_view move, bool solved,
                                               std::int64_t now) override {
    return write("record attempt", [&](SqlSession& s) {
      return sql::record_attempt(s, dialect_, user_id, puzzle_id, move, solved, now);
    });
  }

 private:
  // Each step runs in the same transaction as its schema_version row, so a crash mid-migration
  // leaves the previous version intact and the next start retries the step. A step is applied
  // unless its own number is recorded, not merely a higher one: two branches adding steps at
  // once may be released in either order.
  void migrate() {
    for (const SqlMigration& m : dialect_.migrations) {
      db_->write("migration", [&](SqlSession& s) {
        if (*dialect_.lock_migrations) s.script(dialect_.lock_migrations);
        s.script(dialect_.create_schema_version);
        if (first(s, "SELECT 1 FROM schema_version WHERE version = $1", {m.version},
                  [](const SqlRow&) { return true; }))
          return;
        s.script(m.sql);
        s.run(record_migration_, {m.version});
      });
    }
  }

  std::unique_ptr<SqlDatabase> db_;
  const SqlDialect& dialect_;
  const std::string record_migration_;
  const std::string find_user_by_name_;
  const std::string tables_;  // a whole table row with its appended events, FROM tables t
  const std::string lobby_;
  const std::string user_matches_;
  const std::string rating_users_;
  const std::string rating_pool_users_;
  const std::unique_ptr<AccountStore> accounts_;
};

}  // namespace

std::unique_ptr<Storage> make_sql_storage(std::unique_ptr<SqlDatabase> db,
                                          const SqlDialect& dialect) {
  return std::make_unique<SqlStorage>(std::move(db), dialect);
}

}  // namespace ur::server
