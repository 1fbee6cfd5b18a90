// AccountStore's statements (account_store.h), written once for SQLite and PostgreSQL around the
// dialect's case-insensitive name comparison. Each call is one read or one write transaction.
#include "server/storage/sql_accounts.h"

#include <nlohmann/json.hpp>
#include <string>

#include "server/storage/sql_rows.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using sql::all;
using sql::first;

std::int64_t account_id_of(const SqlRow& r) {
  return r.integer(0);
}

AdminAction admin_action_of(const SqlRow& r) {
  return AdminAction{r.integer(0), r.integer(1), r.integer(2), r.text(3),
                     r.text(4),    r.integer(5), r.text(6),    r.text(7)};
}

// Sets the `name` of the seats of `seats` (a JSON array) that `user_id` holds; whether any.
bool rename_seats(json& seats, std::int64_t user_id, std::string_view name, const char* id_key) {
  bool changed = false;
  if (!seats.is_array()) return false;
  for (json& seat : seats) {
    auto id = seat.find(id_key);
    if (!seat.is_object() || id == seat.end() || !id->is_number_integer() ||
        id->get<std::int64_t>() != user_id)
      continue;
    seat["name"] = name;
    changed = true;
  }
  return changed;
}

// Puts `name` in place of the account's name wherever a game shows it: its finished games' rows
// and summaries, and the stored state of the tables it sat at.
void rename_in_games(SqlSession& s, std::int64_t user_id, std::string_view name) {
  s.run("UPDATE matches SET light_name = $2 WHERE light_user = $1", {user_id, name});
  s.run("UPDATE matches SET dark_name = $2 WHERE dark_user = $1", {user_id, name});
  struct Row {
    std::string id, text;
    std::int64_t light = 0, dark = 0;
  };
  auto summaries = all(s,
                       "SELECT id, summary, light_user, dark_user FROM matches "
                       "WHERE light_user = $1 OR dark_user = $1",
                       {user_id}, [](const SqlRow& r) {
                         return Row{r.text(0), r.text(1), r.integer(2), r.integer(3)};
                       });
  for (Row& m : summaries) {
    json summary = json::parse(m.text, nullptr, false);
    if (!summary.is_object() || !summary.contains("seats") || !summary["seats"].is_array())
      continue;
    for (json& seat : summary["seats"])
      if (seat.is_object() && seat.value("seat", 0) >= 1 && seat.value("seat", 0) <= 2)
        seat["user"] = seat["seat"] == 1 ? m.light : m.dark;
    rename_seats(summary["seats"], user_id, name, "user");
    for (json& seat : summary["seats"]) seat.erase("user");
    s.run("UPDATE matches SET summary = $2 WHERE id = $1", {m.id, summary.dump()});
  }
  // A superset (user 5 matches "user_id":55 too); the JSON decides.
  std::string like = "%\"user_id\":" + std::to_string(user_id) + "%";
  auto tables =
      all(s, "SELECT id, state FROM tables WHERE state LIKE $1", {like}, [](const SqlRow& r) {
        return Row{r.text(0), r.text(1)};
      });
  for (Row& t : tables) {
    json state = json::parse(t.text, nullptr, false);
    if (!state.is_object() || !rename_seats(state["seats"], user_id, name, "user_id")) continue;
    s.run("UPDATE tables SET state = $2 WHERE id = $1", {t.id, state.dump()});
  }
}

class SqlAccounts final : public AccountStore {
 public:
  SqlAccounts(SqlDatabase& db, const SqlDialect& d)
      : db_(db), name_taken_(std::string("SELECT id FROM users WHERE ") + d.username_is) {}

  std::optional<SessionUse> find_session(std::string_view id, std::int64_t now) override {
    std::optional<SessionUse> out;
    db_.read("find session", [&](SqlSession& s) {
      out = first(s,
                  "SELECT s.user_id, s.expires_at, u.is_admin FROM sessions s "
                  "JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.expires_at > $2 "
                  "AND u.banned_at = 0 AND u.deleted_at = 0",
                  {id, now}, [](const SqlRow& r) {
                    return SessionUse{r.integer(0), r.integer(1), r.boolean(2)};
                  });
    });
    return out;
  }

  void extend_session(std::string_view id, std::int64_t expires_at) override {
    db_.write("extend session", [&](SqlSession& s) {
      s.run("UPDATE sessions SET expires_at = $2 WHERE id = $1 AND expires_at < $2",
            {id, expires_at});
    });
  }

  int end_sessions(std::int64_t user_id, std::string_view keep) override {
    std::int64_t n = 0;
    db_.write("end sessions", [&](SqlSession& s) {
      n = s.run("DELETE FROM sessions WHERE user_id = $1 AND id <> $2", {user_id, keep});
    });
    return static_cast<int>(n);
  }

  int change_password(std::int64_t user_id, std::string_view hash, std::string_view keep) override {
    std::int64_t n = 0;
    db_.write("change password", [&](SqlSession& s) {
      s.run("UPDATE users SET password_hash = $2 WHERE id = $1", {user_id, hash});
      n = s.run("DELETE FROM sessions WHERE user_id = $1 AND id <> $2", {user_id, keep});
    });
    return static_cast<int>(n);
  }

  void note_address(std::int64_t user_id, std::string_view address, std::int64_t now) override {
    db_.write("note address", [&](SqlSession& s) {
      s.run(
          "INSERT INTO user_addresses(user_id, address, first_seen, last_seen) "
          "VALUES($1, $2, $3, $3) ON CONFLICT(user_id, address) "
          "DO UPDATE SET last_seen = excluded.last_seen",
          {user_id, address, now});
      s.run("DELETE FROM user_addresses WHERE user_id = $1 AND last_seen < $2",
            {user_id, now - kAddressRetentionSeconds});
    });
  }

  std::vector<AddressRow> addresses(std::int64_t user_id, int limit) override {
    std::vector<AddressRow> out;
    db_.read("addresses", [&](SqlSession& s) {
      out = all(s,
                "SELECT address, first_seen, last_seen FROM user_addresses WHERE user_id = $1 "
                "ORDER BY last_seen DESC, address LIMIT $2",
                {user_id, limit}, [](const SqlRow& r) {
                  return AddressRow{r.text(0), r.integer(1), r.integer(2)};
                });
    });
    return out;
  }

  AccountStatus status(std::int64_t user_id) override {
    AccountStatus out;
    db_.read("account status", [&](SqlSession& s) {
      out = first(s, "SELECT is_admin, banned_at, ban_reason, deleted_at FROM users WHERE id = $1",
                  {user_id},
                  [](const SqlRow& r) {
                    return AccountStatus{r.boolean(0), r.integer(1), r.text(2), r.integer(3)};
                  })
                .value_or(AccountStatus{});
    });
    return out;
  }

  std::optional<std::string> delete_account(std::int64_t user_id, std::int64_t now) override {
    std::optional<std::string> out;
    db_.write("delete account", [&](SqlSession& s) {
      if (!first(s, "SELECT id FROM users WHERE id = $1 AND deleted_at = 0", {user_id},
                 account_id_of))
        return;
      // "deleted-<id>" is unique among new names (registration refuses the prefix); an older
      // account that took one before the prefix was reserved gets a letter added.
      std::string name = "deleted-" + std::to_string(user_id);
      while (first(s, name_taken_, {name}, account_id_of)) name += "x";
      s.run(
          "UPDATE users SET username = $2, password_hash = '', deleted_at = $3, is_admin = $4, "
          "is_bot = $4, bot_token_hash = NULL, language = '' WHERE id = $1",
          {user_id, name, now, false});
      rename_in_games(s, user_id, name);
      s.run("DELETE FROM sessions WHERE user_id = $1", {user_id});
      s.run("DELETE FROM user_addresses WHERE user_id = $1", {user_id});
      out = name;
    });
    return out;
  }

  bool set_language(std::int64_t user_id, std::string_view language) override {
    std::int64_t n = 0;
    db_.write("set language", [&](SqlSession& s) {
      n = s.run("UPDATE users SET language = $2 WHERE id = $1 AND deleted_at = 0",
                {user_id, language});
    });
    return n > 0;
  }

  bool set_admin(std::int64_t user_id, bool admin) override {
    std::int64_t n = 0;
    db_.write("set admin", [&](SqlSession& s) {
      n = s.run("UPDATE users SET is_admin = $2 WHERE id = $1", {user_id, admin});
    });
    return n > 0;
  }

  bool set_banned(std::int64_t user_id, bool banned, std::int64_t now,
                  std::string_view reason) override {
    std::int64_t n = 0;
    db_.write("set banned", [&](SqlSession& s) {
      const std::string why = banned ? std::string(reason) : std::string();
      n = s.run("UPDATE users SET banned_at = $2, ban_reason = $3 WHERE id = $1",
                {user_id, banned ? now : 0, why});
      if (n == 0 || !banned) return;
      s.run("DELETE FROM sessions WHERE user_id = $1", {user_id});
      s.run("UPDATE users SET bot_token_hash = NULL WHERE id = $1", {user_id});
    });
    return n > 0;
  }

  bool rename(std::int64_t user_id, std::string_view username) override {
    bool done = false;
    db_.write("rename", [&](SqlSession& s) {
      auto holder = first(s, name_taken_, {username}, account_id_of);
      if (holder && *holder != user_id) return;
      done = s.run("UPDATE users SET username = $2 WHERE id = $1", {user_id, username}) > 0;
      if (done) rename_in_games(s, user_id, username);
    });
    return done;
  }

  void log_action(AdminAction& a) override {
    db_.write("log admin action", [&](SqlSession& s) {
      a.id = first(s,
                   "INSERT INTO admin_actions(at, admin_id, admin_name, action, target_id, "
                   "target_name, detail) VALUES($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                   {a.at, a.admin_id, a.admin_name, a.action, a.target_id, a.target_name, a.detail},
                   account_id_of)
                 .value_or(0);
    });
  }

  std::vector<AdminAction> admin_actions(int limit, std::int64_t before_id) override {
    std::vector<AdminAction> out;
    db_.read("admin actions", [&](SqlSession& s) {
      out = all(s,
                "SELECT id, at, admin_id, admin_name, action, target_id, target_name, detail "
                "FROM admin_actions WHERE ($2 = 0 OR id < $2) ORDER BY id DESC LIMIT $1",
                {limit, before_id}, admin_action_of);
    });
    return out;
  }

  FollowResult follow(std::int64_t follower, std::int64_t followee, std::int64_t now) override {
    FollowResult out{};
    db_.write("follow", [&](SqlSession& s) { out = sql::follow(s, follower, followee, now); });
    return out;
  }
  bool unfollow(std::int64_t follower, std::int64_t followee) override {
    bool out = false;
    db_.write("unfollow", [&](SqlSession& s) { out = sql::unfollow(s, follower, followee); });
    return out;
  }
  std::vector<User> following(std::int64_t follower) override {
    std::vector<User> out;
    db_.read("following", [&](SqlSession& s) { out = sql::following(s, follower); });
    return out;
  }
  std::vector<Follower> followers(std::int64_t followee, int limit) override {
    std::vector<Follower> out;
    db_.read("followers", [&](SqlSession& s) { out = sql::followers(s, followee, limit); });
    return out;
  }
  std::int64_t follower_count(std::int64_t followee) override {
    std::int64_t out = 0;
    db_.read("follower count", [&](SqlSession& s) { out = sql::follower_count(s, followee); });
    return out;
  }

  BlockResult block(std::int64_t blocker, std::int64_t blocked, std::int64_t now) override {
    BlockResult out{};
    db_.write("block", [&](SqlSession& s) { out = sql::block(s, blocker, blocked, now); });
    return out;
  }
  bool unblock(std::int64_t blocker, std::int64_t blocked) override {
    bool out = false;
    db_.write("unblock", [&](SqlSession& s) { out = sql::unblock(s, blocker, blocked); });
    return out;
  }
  std::vector<User> blocking(std::int64_t blocker) override {
    std::vector<User> out;
    db_.read("blocking", [&](SqlSession& s) { out = sql::blocking(s, blocker); });
    return out;
  }
  bool blocks(std::int64_t blocker, std::int64_t blocked) override {
    bool out = false;
    db_.read("blocks", [&](SqlSession& s) { out = sql::blocks(s, blocker, blocked); });
    return out;
  }
  std::vector<std::int64_t> blockers_of(std::int64_t blocked, int limit) override {
    std::vector<std::int64_t> out;
    db_.read("blockers", [&](SqlSession& s) { out = sql::blockers_of(s, blocked, limit); });
    return out;
  }

 private:
  SqlDatabase& db_;
  const std::string name_taken_;
};

}  // namespace

std::unique_ptr<AccountStore> make_sql_accounts(SqlDatabase& db, const SqlDialect& dialect) {
  return std::make_unique<SqlAccounts>(db, dialect);
}

}  // namespace ur::server
