#include "server/pg_storage.h"

#include "server/elo.h"

#include <pqxx/pqxx>

#include <cctype>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace ur::server {
namespace {

// Numbered schema steps, the same numbers as the SQLite backend's. Append only: a released step
// is never edited, a change is a new step (in both backends).
struct Migration {
  int version;
  const char* sql;
};

// The lobby's order (Storage::public_tables), as in sqlite_storage.cpp; ids compare bytewise
// (COLLATE "C") so that both backends break ties alike whatever the database's locale.
constexpr const char* kLobbySql =
    "SELECT t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.created_at, "
    "t.updated_at, t.owner_key, t.owner_user, t.owner_addr "
    "FROM tables t LEFT JOIN users u ON u.id = t.owner_user "
    "WHERE t.status IN ('waiting', 'playing') AND t.is_public "
    "ORDER BY CASE WHEN t.status = 'waiting' AND u.id IS NOT NULL "
    "AND (u.games > 0 OR u.created_at <= $1) THEN 0 WHEN t.status = 'waiting' THEN 1 ELSE 2 END, "
    "t.updated_at DESC, t.id COLLATE \"C\" DESC LIMIT $2 OFFSET $3";

constexpr Migration kMigrations[] = {
    {1, R"sql(
      CREATE TABLE users (
        id            BIGSERIAL PRIMARY KEY,
        username      TEXT             NOT NULL,
        password_hash TEXT             NOT NULL,
        created_at    BIGINT           NOT NULL,
        rating        DOUBLE PRECISION NOT NULL DEFAULT 1200,
        games         INTEGER          NOT NULL DEFAULT 0,
        wins          INTEGER          NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX users_username ON users (lower(username));
      CREATE TABLE sessions (
        id         TEXT   PRIMARY KEY,
        user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
    )sql"},
    {2, R"sql(
      CREATE TABLE tables (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        is_public  BOOLEAN NOT NULL,
        rated      BOOLEAN NOT NULL,
        version    BIGINT  NOT NULL,
        state      TEXT    NOT NULL,
        created_at BIGINT  NOT NULL,
        updated_at BIGINT  NOT NULL
      );
      CREATE INDEX tables_live ON tables(status, is_public, updated_at);
      CREATE TABLE matches (
        id                  TEXT    PRIMARY KEY,
        rules               TEXT    NOT NULL,
        rated               BOOLEAN NOT NULL,
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
        match_id       TEXT             PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
        estimate       BOOLEAN          NOT NULL,
        light_accuracy DOUBLE PRECISION NOT NULL,
        dark_accuracy  DOUBLE PRECISION NOT NULL,
        review         TEXT             NOT NULL,
        created_at     BIGINT           NOT NULL
      );
    )sql"},
    // Bot accounts and their own rating pool (Storage::bot_status).
    {5, R"sql(
      ALTER TABLE users ADD COLUMN is_bot BOOLEAN NOT NULL DEFAULT FALSE;
      ALTER TABLE users ADD COLUMN bot_token_hash TEXT UNIQUE;
      ALTER TABLE users ADD COLUMN bot_rating DOUBLE PRECISION NOT NULL DEFAULT 1200;
      ALTER TABLE users ADD COLUMN bot_games INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_wins INTEGER NOT NULL DEFAULT 0;
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

// The key of the advisory lock that serialises migrators ("ur" in ASCII): any constant works as
// long as every node uses the same one.
constexpr const char* kLockMigrations = "SELECT pg_advisory_xact_lock(29810)";

constexpr const char* kUserColumns =
    "SELECT id, username, password_hash, created_at, rating, games, wins FROM users ";
// The user with their bot-pool rating, games and wins in place of the ordinary ones.
constexpr const char* kPoolUserColumns =
    "SELECT id, username, password_hash, created_at, bot_rating, bot_games, bot_wins FROM users ";
constexpr const char* kTableColumns =
    "SELECT id, rules, status, is_public, rated, version, state, created_at, updated_at, "
    "owner_key, owner_user, owner_addr, owner_node, lease_until, epoch, clock_deadline "
    "FROM tables ";
// The live tables whose lease expired, each taken by one node: rows another node's sweep has
// locked are skipped, not waited for.
constexpr const char* kTakeExpiredSql =
    "UPDATE tables t SET owner_node = $1, lease_until = $3, epoch = t.epoch + 1 "
    "FROM (SELECT id FROM tables WHERE status IN ('waiting', 'playing') AND lease_until < $2 "
    "ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED) expired "
    "WHERE t.id = expired.id RETURNING t.id, t.epoch";
constexpr const char* kMatchColumns =
    "SELECT id, rules, rated, light_user, dark_user, light_name, dark_name, winner, reason, "
    "light_rating_before, light_rating_after, dark_rating_before, dark_rating_after, summary, ";

User to_user(const pqxx::row& r) {
  User u;
  u.id = r[0].as<std::int64_t>();
  u.username = r[1].as<std::string>();
  u.password_hash = r[2].as<std::string>();
  u.created_at = r[3].as<std::int64_t>();
  u.rating = r[4].as<double>();
  u.games = r[5].as<int>();
  u.wins = r[6].as<int>();
  return u;
}

TableRow to_table(const pqxx::row& r) {
  TableRow t;
  t.id = r[0].as<std::string>();
  t.rules = r[1].as<std::string>();
  t.status = r[2].as<std::string>();
  t.is_public = r[3].as<bool>();
  t.rated = r[4].as<bool>();
  t.version = r[5].as<std::int64_t>();
  t.state = r[6].as<std::string>();
  t.created_at = r[7].as<std::int64_t>();
  t.updated_at = r[8].as<std::int64_t>();
  t.owner_key = r[9].as<std::string>();
  t.owner_user = r[10].as<std::int64_t>();
  t.owner_addr = r[11].as<std::string>();
  if (r.size() > 12) {  // the lobby's query leaves the lease columns out
    t.owner_node = r[12].as<std::string>();
    t.lease_until = r[13].as<std::int64_t>();
    t.epoch = r[14].as<std::int64_t>();
    t.clock_deadline = r[15].as<std::int64_t>();
  }
  return t;
}

MatchRow to_match(const pqxx::row& r) {
  MatchRow m;
  m.id = r[0].as<std::string>();
  m.rules = r[1].as<std::string>();
  m.rated = r[2].as<bool>();
  m.user_ids = {r[3].as<std::int64_t>(0), r[4].as<std::int64_t>(0)};  // NULL: a guest or a bot
  m.names = {r[5].as<std::string>(), r[6].as<std::string>()};
  m.winner = r[7].as<int>();
  m.reason = r[8].as<std::string>();
  m.rating_before = {r[9].as<double>(), r[11].as<double>()};
  m.rating_after = {r[10].as<double>(), r[12].as<double>()};
  m.summary = r[13].as<std::string>();
  m.record = r[14].as<std::string>();
  m.started_at = r[15].as<std::int64_t>();
  m.finished_at = r[16].as<std::int64_t>();
  return m;
}

TableLease to_lease(const pqxx::row& r) {
  return TableLease{r[0].as<std::string>(), r[1].as<std::int64_t>()};
}

ReviewRow to_review(const pqxx::row& r) {
  ReviewRow v;
  v.match_id = r[0].as<std::string>();
  v.estimate = r[1].as<bool>();
  v.accuracy = {r[2].as<double>(), r[3].as<double>()};
  v.review = r[4].as<std::string>();
  v.created_at = r[5].as<std::int64_t>();
  return v;
}

template <class Rows, class F>
auto collect(const pqxx::result& result, F convert) {
  Rows out;
  out.reserve(result.size());
  for (const pqxx::row& r : result) out.push_back(convert(r));
  return out;
}

std::string percent_decode(const std::string& s) {
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) && hex(s[i + 2])) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The password of the URL, as written and decoded, from the user info and from a `password=`
// query parameter: every message is scrubbed of them (libpq does not quote them, but a message
// of a future version or of a malformed URL might).
std::vector<std::string> url_secrets(const std::string& url) {
  std::vector<std::string> secrets;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    secrets.push_back(s);
    if (std::string d = percent_decode(s); d != s) secrets.push_back(d);
  };
  std::size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  std::size_t end = url.find_first_of("/?", start);
  std::string authority = url.substr(start, end == std::string::npos ? end : end - start);
  if (std::size_t at = authority.rfind('@'); at != std::string::npos) {
    std::string userinfo = authority.substr(0, at);
    if (std::size_t colon = userinfo.find(':'); colon != std::string::npos)
      add(userinfo.substr(colon + 1));
  }
  if (std::size_t q = url.find('?'); q != std::string::npos) {
    for (std::size_t p = q + 1; p < url.size();) {
      std::size_t amp = url.find('&', p);
      std::string param = url.substr(p, amp == std::string::npos ? amp : amp - p);
      if (param.rfind("password=", 0) == 0) add(param.substr(9));
      p = amp == std::string::npos ? url.size() : amp + 1;
    }
  }
  return secrets;
}

class PgStorage final : public Storage {
 public:
  explicit PgStorage(const std::string& url)
      : url_(url), target_(redact_pg_url(url)), secrets_(url_secrets(url)) {
    std::lock_guard lock(mutex_);
    with_connection("connection", [](pqxx::connection&) { return 0; });
    for (const Migration& m : kMigrations) {
      // Each step in its own transaction with its schema_version row: a failed step leaves the
      // previous version intact and the next start retries it.
      with_connection("migration", [&](pqxx::connection& c) {
        pqxx::work tx(c);
        tx.exec(kLockMigrations);
        tx.exec(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)");
        if (current_version(tx) < m.version) {
          tx.exec(m.sql);
          tx.exec_params(
              "INSERT INTO schema_version(version, applied_at) "
              "VALUES($1, EXTRACT(EPOCH FROM now())::BIGINT)",
              m.version);
        }
        tx.commit();
        return 0;
      });
    }
  }

  std::string backend() const override { return "postgresql"; }

  int latest_schema_version() const override { return std::end(kMigrations)[-1].version; }

  int schema_version() override {
    return read("schema version", [&](pqxx::transaction_base& tx) { return current_version(tx); });
  }

  bool healthy() override {
    try {
      return read("health check", [](pqxx::transaction_base& tx) {
        return tx.exec("SELECT 1")[0][0].as<int>() == 1;
      });
    } catch (const StorageError&) {
      return false;
    }
  }

  std::optional<User> create_user(std::string_view username, std::string_view password_hash,
                                  std::int64_t now) override {
    // ON CONFLICT DO NOTHING instead of catching unique_violation: a taken name is an expected
    // outcome and must not abort anything.
    return write("insert user", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          "INSERT INTO users(username, password_hash, created_at) VALUES($1, $2, $3) "
          "ON CONFLICT DO NOTHING "
          "RETURNING id, username, password_hash, created_at, rating, games, wins",
          std::string(username), std::string(password_hash), now);
      return r.empty() ? std::nullopt : std::optional<User>(to_user(r[0]));
    });
  }

  std::optional<User> find_user_by_name(std::string_view username) override {
    return read("find user", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          std::string(kUserColumns) + "WHERE lower(username) = lower($1)", std::string(username));
      return r.empty() ? std::nullopt : std::optional<User>(to_user(r[0]));
    });
  }

  std::optional<User> find_user_by_id(std::int64_t id) override {
    return read("find user", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(std::string(kUserColumns) + "WHERE id = $1", id);
      return r.empty() ? std::nullopt : std::optional<User>(to_user(r[0]));
    });
  }

  void create_session(const SessionRecord& s) override {
    write("insert session", [&](pqxx::transaction_base& tx) {
      tx.exec_params(
          "INSERT INTO sessions(id, user_id, created_at, expires_at) VALUES($1, $2, $3, $4)", s.id,
          s.user_id, s.created_at, s.expires_at);
      return 0;
    });
  }

  std::optional<User> user_for_session(std::string_view session_id, std::int64_t now) override {
    return read("find session", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          "SELECT u.id, u.username, u.password_hash, u.created_at, u.rating, u.games, u.wins "
          "FROM sessions s JOIN users u ON u.id = s.user_id "
          "WHERE s.id = $1 AND s.expires_at > $2",
          std::string(session_id), now);
      return r.empty() ? std::nullopt : std::optional<User>(to_user(r[0]));
    });
  }

  bool delete_session(std::string_view session_id) override {
    return write("delete session", [&](pqxx::transaction_base& tx) {
      return tx.exec_params("DELETE FROM sessions WHERE id = $1", std::string(session_id))
                 .affected_rows() > 0;
    });
  }

  int delete_expired_sessions(std::int64_t now) override {
    return write("delete expired sessions", [&](pqxx::transaction_base& tx) {
      return static_cast<int>(
          tx.exec_params("DELETE FROM sessions WHERE expires_at <= $1", now).affected_rows());
    });
  }

  bool save_table(const TableRow& t, std::int64_t expected_version,
                  std::int64_t expected_epoch) override {
    return write("save table", [&](pqxx::transaction_base& tx) {
      return write_table(tx, t, expected_version, expected_epoch);
    });
  }

  std::optional<TableRow> find_table(std::string_view id) override {
    return read("find table", [&](pqxx::transaction_base& tx) {
      pqxx::result r =
          tx.exec_params(std::string(kTableColumns) + "WHERE id = $1", std::string(id));
      return r.empty() ? std::nullopt : std::optional<TableRow>(to_table(r[0]));
    });
  }

  std::vector<TableRow> live_tables() override {
    return read("live tables", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<TableRow>>(
          tx.exec(std::string(kTableColumns) +
                  "WHERE status IN ('waiting', 'playing') ORDER BY created_at"),
          to_table);
    });
  }

  std::vector<TableRow> public_tables(const LobbyQuery& lq) override {
    return read("public tables", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<TableRow>>(
          tx.exec_params(kLobbySql, lq.now - kEstablishedAfterSeconds, lq.limit, lq.offset),
          to_table);
    });
  }

  int open_tables_of(const TableRow& owner) override {
    return read("open tables", [&](pqxx::transaction_base& tx) {
      pqxx::result r = owner.owner_user > 0
                           ? tx.exec_params(
                                 "SELECT count(*) FROM tables WHERE status = 'waiting' "
                                 "AND owner_key = $1",
                                 owner.owner_key)
                           : tx.exec_params(
                                 "SELECT count(*) FROM tables WHERE status = 'waiting' "
                                 "AND owner_addr = $1 AND owner_user = 0",
                                 owner.owner_addr);
      return r[0][0].as<int>();
    });
  }

  bool finish_game(const TableRow& t, std::int64_t expected_version, MatchRow& m,
                   std::int64_t expected_epoch) override {
    return write("finish game", [&](pqxx::transaction_base& tx) {
      if (!write_table(tx, t, expected_version, expected_epoch)) return false;
      m.rating_before = m.rating_after = {0, 0};
      if (m.rated) {
        // A bot in either seat: both sides are rated in the bot pool (bot_* columns).
        bool pool = tx.exec_params("SELECT 1 FROM users WHERE id IN ($1, $2) AND is_bot",
                                   m.user_ids[0], m.user_ids[1])
                        .size() > 0;
        // FOR UPDATE, in id order: another node finishing a game of the same player waits for
        // this one instead of computing from the same old rating (a lost update).
        pqxx::result rows = tx.exec_params(std::string(pool ? kPoolUserColumns : kUserColumns) +
                                               "WHERE id IN ($1, $2) ORDER BY id FOR UPDATE",
                                           m.user_ids[0], m.user_ids[1]);
        std::optional<User> u[2];
        for (const pqxx::row& r : rows) {
          User user = to_user(r);
          for (int s = 0; s < 2; ++s)
            if (m.user_ids[s] == user.id) u[s] = user;
        }
        if (!u[0] || !u[1]) throw StorageError("rated game with a missing user");
        int w = m.winner - 1, l = 1 - w;
        EloResult r = elo_update(u[w]->rating, u[w]->games, u[l]->rating, u[l]->games);
        m.rating_before = {u[0]->rating, u[1]->rating};
        m.rating_after[w] = r.winner_after;
        m.rating_after[l] = r.loser_after;
        for (int s = 0; s < 2; ++s) {
          tx.exec_params(pool ? "UPDATE users SET bot_rating = $1, bot_games = bot_games + 1, "
                                "bot_wins = bot_wins + $2 WHERE id = $3"
                              : "UPDATE users SET rating = $1, games = games + 1, wins = wins + $2 "
                                "WHERE id = $3",
                         m.rating_after[s], s == w ? 1 : 0, m.user_ids[s]);
        }
      }
      tx.exec_params(
          "INSERT INTO matches(id, rules, rated, light_user, dark_user, light_name, dark_name, "
          "winner, reason, light_rating_before, light_rating_after, dark_rating_before, "
          "dark_rating_after, summary, record, started_at, finished_at) "
          "VALUES($1, $2, $3, NULLIF($4::BIGINT, 0), NULLIF($5::BIGINT, 0), $6, $7, $8, $9, $10, "
          "$11, $12, $13, $14, $15, $16, $17)",
          m.id, m.rules, m.rated, m.user_ids[0], m.user_ids[1], m.names[0], m.names[1], m.winner,
          m.reason, m.rating_before[0], m.rating_after[0], m.rating_before[1], m.rating_after[1],
          m.summary, m.record, m.started_at, m.finished_at);
      return true;
    });
  }

  std::optional<MatchRow> find_match(std::string_view id) override {
    return read("find match", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          std::string(kMatchColumns) + "record, started_at, finished_at FROM matches WHERE id = $1",
          std::string(id));
      return r.empty() ? std::nullopt : std::optional<MatchRow>(to_match(r[0]));
    });
  }

  std::vector<MatchRow> user_matches(std::int64_t user_id, int limit, std::int64_t before,
                                     std::string_view before_id) override {
    // id COLLATE "C": ties sort bytewise, as in SQLite, whatever the database's collation.
    return read("user matches", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<MatchRow>>(
          tx.exec_params(std::string(kMatchColumns) +
                             "'' AS record, started_at, finished_at FROM matches "
                             "WHERE (light_user = $1 OR dark_user = $1) AND (finished_at < $2 OR "
                             "(finished_at = $2 AND id COLLATE \"C\" > $4)) "
                             "ORDER BY finished_at DESC, id COLLATE \"C\" LIMIT $3",
                         user_id, before > 0 ? before : std::numeric_limits<std::int64_t>::max(),
                         limit, before_id.empty() ? std::string("~") : std::string(before_id)),
          to_match);
    });
  }

  void save_review(const ReviewRow& r) override {
    write("save review", [&](pqxx::transaction_base& tx) {
      tx.exec_params(
          "INSERT INTO reviews(match_id, estimate, light_accuracy, dark_accuracy, review, "
          "created_at) VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id) DO UPDATE SET "
          "estimate = EXCLUDED.estimate, light_accuracy = EXCLUDED.light_accuracy, "
          "dark_accuracy = EXCLUDED.dark_accuracy, review = EXCLUDED.review, "
          "created_at = EXCLUDED.created_at",
          r.match_id, r.estimate, r.accuracy[0], r.accuracy[1], r.review, r.created_at);
      return 0;
    });
  }

  std::optional<ReviewRow> find_review(std::string_view match_id) override {
    return read("find review", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          "SELECT match_id, estimate, light_accuracy, dark_accuracy, review, created_at "
          "FROM reviews WHERE match_id = $1",
          std::string(match_id));
      return r.empty() ? std::nullopt : std::optional<ReviewRow>(to_review(r[0]));
    });
  }

  std::vector<ReviewRow> review_summaries(const std::vector<std::string>& match_ids) override {
    return read("review summaries", [&](pqxx::transaction_base& tx) {
      std::vector<ReviewRow> out;
      for (const std::string& id : match_ids) {
        pqxx::result r = tx.exec_params(
            "SELECT match_id, estimate, light_accuracy, dark_accuracy, '' AS review, created_at "
            "FROM reviews WHERE match_id = $1",
            id);
        if (!r.empty()) out.push_back(to_review(r[0]));
      }
      return out;
    });
  }

  std::vector<User> leaderboard(int limit) override {
    return read("leaderboard", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<User>>(
          tx.exec_params("SELECT id, username, '' AS password_hash, created_at, rating, games, "
                         "wins FROM users WHERE games > 0 "
                         "ORDER BY rating DESC, games DESC, id LIMIT $1",
                         limit),
          to_user);
    });
  }

  std::optional<std::int64_t> claim_table(std::string_view id, std::string_view node,
                                          std::int64_t now_ms, std::int64_t until_ms) override {
    return write("claim table", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          "UPDATE tables SET owner_node = $2, lease_until = $4, "
          "epoch = CASE WHEN owner_node = $2 THEN epoch ELSE epoch + 1 END "
          "WHERE id = $1 AND status IN ('waiting', 'playing') "
          "AND (owner_node = $2 OR lease_until < $3) RETURNING epoch",
          std::string(id), std::string(node), now_ms, until_ms);
      return r.empty() ? std::nullopt : std::optional<std::int64_t>(r[0][0].as<std::int64_t>());
    });
  }

  std::vector<TableLease> renew_leases(std::string_view node, std::int64_t until_ms) override {
    return write("renew leases", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<TableLease>>(
          tx.exec_params("UPDATE tables SET lease_until = $2 WHERE owner_node = $1 "
                         "AND status IN ('waiting', 'playing') RETURNING id, epoch",
                         std::string(node), until_ms),
          to_lease);
    });
  }

  std::vector<TableLease> take_expired_leases(std::string_view node, std::int64_t now_ms,
                                              std::int64_t until_ms, int limit) override {
    return write("take expired leases", [&](pqxx::transaction_base& tx) {
      return collect<std::vector<TableLease>>(
          tx.exec_params(kTakeExpiredSql, std::string(node), now_ms, until_ms, limit), to_lease);
    });
  }

  BotStatus bot_status(std::int64_t user_id) override {
    return read("bot status", [&](pqxx::transaction_base& tx) {
      pqxx::result r = tx.exec_params(
          "SELECT is_bot, bot_token_hash IS NOT NULL, bot_rating, bot_games, bot_wins "
          "FROM users WHERE id = $1",
          user_id);
      BotStatus b;
      if (r.empty()) return b;
      b.is_bot = r[0][0].as<bool>();
      b.has_token = r[0][1].as<bool>();
      b.rating = r[0][2].as<double>();
      b.games = r[0][3].as<int>();
      b.wins = r[0][4].as<int>();
      return b;
    });
  }

  void set_bot(std::int64_t user_id, bool is_bot, std::string_view token_hash) override {
    write("update bot", [&](pqxx::transaction_base& tx) {
      tx.exec_params("UPDATE users SET is_bot = $1, bot_token_hash = NULLIF($2, '') WHERE id = $3",
                     is_bot, std::string(token_hash), user_id);
      return 0;
    });
  }

  std::optional<User> user_for_bot_token(std::string_view token_hash) override {
    return read("find bot", [&](pqxx::transaction_base& tx) {
      pqxx::result r =
          tx.exec_params(std::string(kUserColumns) + "WHERE bot_token_hash = $1 AND is_bot",
                         std::string(token_hash));
      return r.empty() ? std::nullopt : std::optional<User>(to_user(r[0]));
    });
  }

 private:
  // Inserts (expected_version < 0) or updates the row if its version (and, unless kAnyEpoch,
  // its epoch) is the expected one.
  static bool write_table(pqxx::transaction_base& tx, const TableRow& t,
                          std::int64_t expected_version, std::int64_t expected_epoch) {
    pqxx::result r =
        expected_version < 0
            ? tx.exec_params(
                  "INSERT INTO tables(id, rules, status, is_public, rated, version, state, "
                  "created_at, updated_at, owner_key, owner_user, owner_addr, clock_deadline) "
                  "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
                  "ON CONFLICT(id) DO NOTHING",
                  t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.created_at,
                  t.updated_at, t.owner_key, t.owner_user, t.owner_addr, t.clock_deadline)
            : tx.exec_params(
                  "UPDATE tables SET rules = $1, status = $2, is_public = $3, rated = $4, "
                  "version = $5, state = $6, updated_at = $7, clock_deadline = $10 "
                  "WHERE id = $8 AND version = $9 AND ($11::BIGINT < 0 OR epoch = $11)",
                  t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.updated_at, t.id,
                  expected_version, t.clock_deadline, expected_epoch);
    return r.affected_rows() == 1;
  }

  static int current_version(pqxx::transaction_base& tx) {
    return tx.exec("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0][0].as<int>();
  }

  // Runs `body` on the connection (opening it if needed). A broken connection is replaced and
  // the body run once more: a transaction cut off before its COMMIT was rolled back by the
  // server, so nothing is applied twice; a COMMIT cut off is in_doubt_error and not retried.
  // The caller holds mutex_.
  template <class F>
  std::invoke_result_t<F&, pqxx::connection&> with_connection(const char* what, F&& body) {
    for (int attempt = 0;; ++attempt) {
      try {
        if (!conn_) {
          conn_ = std::make_unique<pqxx::connection>(url_);
          // No NOTICEs on stderr (CREATE ... IF NOT EXISTS reports an existing table).
          pqxx::nontransaction(*conn_).exec("SET client_min_messages TO warning");
        }
        return body(*conn_);
      } catch (const StorageError&) {
        throw;
      } catch (const pqxx::broken_connection& e) {
        conn_.reset();
        if (attempt > 0) throw error(what, e, true);
      } catch (const pqxx::in_doubt_error& e) {
        conn_.reset();
        throw error(what, e, true);
      } catch (const std::exception& e) {
        throw error(what, e, false);
      }
    }
  }

  // One statement or a read-only sequence: autocommit.
  template <class F>
  std::invoke_result_t<F&, pqxx::transaction_base&> read(const char* what, F&& f) {
    std::lock_guard lock(mutex_);
    return with_connection(what, [&](pqxx::connection& c) {
      pqxx::nontransaction tx(c);
      return f(tx);
    });
  }

  // One transaction: all of `f` or nothing.
  template <class F>
  std::invoke_result_t<F&, pqxx::transaction_base&> write(const char* what, F&& f) {
    std::lock_guard lock(mutex_);
    return with_connection(what, [&](pqxx::connection& c) {
      pqxx::work tx(c);
      auto result = f(tx);
      tx.commit();
      return result;
    });
  }

  StorageError error(const char* what, const std::exception& e, bool name_server) const {
    // libpq's messages span lines ("...failed: Connection refused\n\tIs the server running"):
    // one line reads better in a log.
    std::string msg;
    for (char c : std::string_view(e.what())) {
      bool space = c == '\n' || c == '\t' || c == ' ';
      if (!space || (!msg.empty() && msg.back() != ' ')) msg += space ? ' ' : c;
    }
    while (!msg.empty() && msg.back() == ' ') msg.pop_back();
    auto replace_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t p = 0; (p = msg.find(from, p)) != std::string::npos; p += to.size())
        msg.replace(p, from.size(), to);
    };
    replace_all(url_, target_);
    for (const std::string& secret : secrets_) replace_all(secret, "***");
    std::string where = name_server ? " (" + target_ + ")" : "";
    return StorageError(std::string("postgresql ") + what + where + ": " + msg);
  }

  std::string url_;
  std::string target_;
  std::vector<std::string> secrets_;
  std::mutex mutex_;
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace

std::string redact_pg_url(const std::string& url) {
  std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return "postgresql://?";
  std::size_t start = scheme_end + 3;
  std::size_t end = url.find_first_of("/?", start);
  std::string authority = url.substr(start, end == std::string::npos ? end : end - start);
  std::string user;
  if (std::size_t at = authority.rfind('@'); at != std::string::npos) {
    user = authority.substr(0, at);
    user = user.substr(0, user.find(':')) + "@";
    authority = authority.substr(at + 1);
  }
  std::string path;
  if (end != std::string::npos && url[end] == '/') {
    std::size_t q = url.find('?', end);
    path = url.substr(end, q == std::string::npos ? q : q - end);
  }
  return url.substr(0, start) + user + authority + path;
}

std::unique_ptr<Storage> open_pg_storage(const std::string& url) {
  return std::make_unique<PgStorage>(url);
}

}  // namespace ur::server
