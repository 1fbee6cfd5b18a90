// The mapping between the storage records of storage.h and SQL rows, written once for every
// dialect: the column lists the statements of sql_storage.cpp select, and the readers of their
// rows (in the same column order), and the one statement that writes a table row.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "server/storage/sql_database.h"
#include "server/storage/storage.h"

namespace ur::server::sql {

// The user with its language (an eighth column: to_user reads it when a statement selects it).
inline constexpr const char* kUserColumns =
    "SELECT id, username, password_hash, created_at, rating, games, wins, language FROM users ";
// The user with their bot-pool rating, games and wins in place of the ordinary ones.
inline constexpr const char* kPoolUserColumns =
    "SELECT id, username, password_hash, created_at, bot_rating, bot_games, bot_wins FROM users ";
// Every column of a row of `tables t`; followed by the dialect's expression of its appended
// events (SqlDialect::appended_events) and the FROM clause. One statement reads both, so a row
// and its events always come from the same committed version.
inline constexpr const char* kTableColumns =
    "SELECT t.id, t.rules, t.status, t.is_public, t.rated, t.version, t.state, t.created_at, "
    "t.updated_at, t.owner_key, t.owner_user, t.owner_addr, t.owner_node, "
    "COALESCE((SELECT n.lease_until FROM nodes n WHERE n.node = t.owner_node), 0), t.epoch, "
    "t.clock_deadline, t.events, ";
// Followed by the record column (or '' AS record) and the times.
inline constexpr const char* kMatchColumns =
    "SELECT id, rules, rated, light_user, dark_user, light_name, dark_name, winner, reason, "
    "light_rating_before, light_rating_after, dark_rating_before, dark_rating_after, summary, ";
inline constexpr const char* kReviewColumns =
    "SELECT match_id, estimate, light_accuracy, dark_accuracy, ";

User to_user(const SqlRow& r);
TableRow to_table(const SqlRow& r);  // the lobby's 12 columns or all 18
MatchRow to_match(const SqlRow& r);
ReviewRow to_review(const SqlRow& r);
TableLease to_lease(const SqlRow& r);
BotStatus to_bot_status(const SqlRow& r);

// Inserts the row (expected_version < 0) or updates it if its version (and, unless kAnyEpoch,
// its epoch) is the expected one, and in the same transaction replaces the snapshot of its
// events (deleting the appended ones) or appends this version's; false when nothing was written.
bool write_table(SqlSession& s, const TableRow& t, std::int64_t expected_version,
                 std::int64_t expected_epoch);

// The Elo of a finished rated game, inside finish_game's transaction (sql_ratings.cpp): reads
// both players (`users_sql`, or `pool_sql` when a bot sits at the table: the bot pool), fills
// the match's ratings and writes them, and outside the bot pool moves both players' rating at
// the game's rule set (RuleRating) too.
void rate_match(SqlSession& s, MatchRow& m, const std::string& users_sql,
                const std::string& pool_sql);
std::vector<RuleRating> rule_ratings(SqlSession& s, std::int64_t user_id);

// Follows (sql_follows.cpp): AccountStore::follow, unfollow, following, followers and
// follower_count inside a session.
FollowResult follow(SqlSession& s, std::int64_t follower, std::int64_t followee, std::int64_t now);
bool unfollow(SqlSession& s, std::int64_t follower, std::int64_t followee);
std::vector<User> following(SqlSession& s, std::int64_t follower);
std::vector<Follower> followers(SqlSession& s, std::int64_t followee, int limit);
std::int64_t follower_count(SqlSession& s, std::int64_t followee);
// Blocks (sql_follows.cpp): AccountStore::block, unblock, blocking, blocks and blockers_of.
BlockResult block(SqlSession& s, std::int64_t blocker, std::int64_t blocked, std::int64_t now);
bool unblock(SqlSession& s, std::int64_t blocker, std::int64_t blocked);
std::vector<User> blocking(SqlSession& s, std::int64_t blocker);
bool blocks(SqlSession& s, std::int64_t blocker, std::int64_t blocked);
std::vector<std::int64_t> blockers_of(SqlSession& s, std::int64_t blocked, int limit);

// A user's bot standing, and marking (or unmarking) a bot with its token hash (sql_rows.cpp).
BotStatus bot_status(SqlSession& s, std::int64_t user_id);
void set_bot(SqlSession& s, std::int64_t user_id, bool is_bot, std::string_view token_hash);

// The lobby's statement in a dialect: the public live tables, best first (sql_rows.cpp).
std::string lobby_statement(const SqlDialect& d);

// The first row of the answer, mapped.
template <class Map>
auto first(SqlSession& s, std::string_view sql, std::initializer_list<SqlValue> params, Map map) {
  std::optional<decltype(map(std::declval<const SqlRow&>()))> out;
  s.run(sql, params, [&](const SqlRow& r) {
    if (!out) out = map(r);
  });
  return out;
}

// Every row of the answer, mapped.
template <class Map>
auto all(SqlSession& s, std::string_view sql, std::initializer_list<SqlValue> params, Map map) {
  std::vector<decltype(map(std::declval<const SqlRow&>()))> out;
  s.run(sql, params, [&](const SqlRow& r) { out.push_back(map(r)); });
  return out;
}

}  // namespace ur::server::sql
