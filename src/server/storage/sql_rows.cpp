#include "server/storage/sql_rows.h"

namespace ur::server::sql {

User to_user(const SqlRow& r) {
  User u;
  u.id = r.integer(0);
  u.username = r.text(1);
  u.password_hash = r.text(2);
  u.created_at = r.integer(3);
  u.rating = r.real(4);
  u.games = static_cast<int>(r.integer(5));
  u.wins = static_cast<int>(r.integer(6));
  if (r.size() > 7) u.language = r.text(7);
  return u;
}

TableRow to_table(const SqlRow& r) {
  TableRow t;
  t.id = r.text(0);
  t.rules = r.text(1);
  t.status = r.text(2);
  t.is_public = r.boolean(3);
  t.rated = r.boolean(4);
  t.version = r.integer(5);
  t.state = r.text(6);
  t.created_at = r.integer(7);
  t.updated_at = r.integer(8);
  t.owner_key = r.text(9);
  t.owner_user = r.integer(10);
  t.owner_addr = r.text(11);
  if (r.size() > 12) {  // the lobby's query leaves the lease columns out
    t.owner_node = r.text(12);
    t.lease_until = r.integer(13);
    t.epoch = r.integer(14);
    t.clock_deadline = r.integer(15);
    t.events = r.text(16);
    t.new_events = r.text(17);  // NULL (no appended rows) reads as ""
  }
  return t;
}

MatchRow to_match(const SqlRow& r) {
  MatchRow m;
  m.id = r.text(0);
  m.rules = r.text(1);
  m.rated = r.boolean(2);
  m.user_ids = {r.integer(3), r.integer(4)};  // NULL (0): a guest or a bot
  m.names = {r.text(5), r.text(6)};
  m.winner = static_cast<int>(r.integer(7));
  m.reason = r.text(8);
  m.rating_before = {r.real(9), r.real(11)};
  m.rating_after = {r.real(10), r.real(12)};
  m.summary = r.text(13);
  m.record = r.text(14);
  m.started_at = r.integer(15);
  m.finished_at = r.integer(16);
  return m;
}

ReviewRow to_review(const SqlRow& r) {
  ReviewRow v;
  v.match_id = r.text(0);
  v.estimate = r.boolean(1);
  v.accuracy = {r.real(2), r.real(3)};
  v.review = r.text(4);
  v.created_at = r.integer(5);
  return v;
}

TableLease to_lease(const SqlRow& r) {
  return TableLease{r.text(0), r.integer(1)};
}

BotStatus to_bot_status(const SqlRow& r) {
  BotStatus b;
  b.is_bot = r.boolean(0);
  b.has_token = r.boolean(1);
  b.rating = r.real(2);
  b.games = static_cast<int>(r.integer(3));
  b.wins = static_cast<int>(r.integer(4));
  return b;
}

bool write_table(SqlSession& s, const TableRow& t, std::int64_t expected_version,
                 std::int64_t expected_epoch) {
  bool written;
  if (expected_version < 0) {
    written = s.run(
                  "INSERT INTO tables(id, rules, status, is_public, rated, version, state, "
                  "created_at, updated_at, owner_key, owner_user, owner_addr, clock_deadline, "
                  "events) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
                  "ON CONFLICT(id) DO NOTHING",
                  {t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.created_at,
                   t.updated_at, t.owner_key, t.owner_user, t.owner_addr, t.clock_deadline,
                   t.snapshot ? t.events : std::string()}) == 1;
  } else if (t.snapshot) {
    written = s.run(
                  "UPDATE tables SET rules = $1, status = $2, is_public = $3, rated = $4, "
                  "version = $5, state = $6, updated_at = $7, clock_deadline = $10, "
                  "events = $12 WHERE id = $8 AND version = $9 "
                  "AND (CAST($11 AS BIGINT) < 0 OR epoch = $11)",
                  {t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.updated_at, t.id,
                   expected_version, t.clock_deadline, expected_epoch, t.events}) == 1;
    // The snapshot holds every event now: the appended rows are history.
    if (written) s.run("DELETE FROM table_events WHERE table_id = $1", {t.id});
    return written;
  } else {
    // The events column is not in the statement: the snapshot stays as it was.
    written = s.run(
                  "UPDATE tables SET rules = $1, status = $2, is_public = $3, rated = $4, "
                  "version = $5, state = $6, updated_at = $7, clock_deadline = $10 "
                  "WHERE id = $8 AND version = $9 AND (CAST($11 AS BIGINT) < 0 OR epoch = $11)",
                  {t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.updated_at, t.id,
                   expected_version, t.clock_deadline, expected_epoch}) == 1;
  }
  // Only after the row's own write succeeded: a refused commit appends nothing.
  if (written && !t.snapshot && !t.new_events.empty())
    s.run("INSERT INTO table_events(table_id, version, events) VALUES($1, $2, $3)",
          {t.id, t.version, t.new_events});
  return written;
}

// The lobby's order (Storage::public_tables); ids compare bytewise so that every backend breaks
// ties alike whatever the database's locale.
std::string lobby_statement(const SqlDialect& d) {
  return std::string(
             "SELECT t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, "
             "t.created_at, t.updated_at, t.owner_key, t.owner_user, t.owner_addr FROM tables t "
             "LEFT JOIN users u ON u.id = t.owner_user "
             "WHERE t.status IN ('waiting', 'playing') AND t.is_public "
             "ORDER BY CASE WHEN t.status = 'waiting' AND u.id IS NOT NULL "
             "AND (u.games > 0 OR u.created_at <= $1) THEN 0 "
             "WHEN t.status = 'waiting' THEN 1 ELSE 2 END, t.updated_at DESC, t.id") +
         d.bytewise + " DESC LIMIT $2 OFFSET $3";
}

BotStatus bot_status(SqlSession& s, std::int64_t user_id) {
  return first(s,
               "SELECT is_bot, bot_token_hash IS NOT NULL, bot_rating, bot_games, bot_wins "
               "FROM users WHERE id = $1",
               {user_id}, to_bot_status)
      .value_or(BotStatus{});
}

void set_bot(SqlSession& s, std::int64_t user_id, bool is_bot, std::string_view token_hash) {
  // An empty hash is stored as NULL: no token (the column is unique).
  s.run("UPDATE users SET is_bot = $1, bot_token_hash = $2 WHERE id = $3",
        {is_bot, token_hash.empty() ? SqlValue(nullptr) : SqlValue(token_hash), user_id});
}

}  // namespace ur::server::sql
