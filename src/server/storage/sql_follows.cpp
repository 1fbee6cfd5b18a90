// Follows in the SQL storage (migration 10, docs/server.md "Friends"): one row per follower and
// followee. The cap is counted inside the insert's transaction, so two follows at once on two
// nodes cannot both pass it (PostgreSQL: the follower's user row is locked first).
#include "server/storage/sql_rows.h"

namespace ur::server::sql {

FollowResult follow(SqlSession& s, std::int64_t follower, std::int64_t followee, std::int64_t now) {
  auto one = [](const SqlRow& r) { return r.integer(0); };
  // Serialises two follows of the same account (a no-op row lock on SQLite, which has one
  // writer at a time anyway).
  s.run("UPDATE users SET id = id WHERE id = $1", {follower});
  if (first(s, "SELECT 1 FROM follows WHERE follower = $1 AND followee = $2", {follower, followee},
            one))
    return FollowResult::kAlready;
  if (first(s, "SELECT COUNT(*) FROM follows WHERE follower = $1", {follower}, one).value_or(0) >=
      kMaxFollows)
    return FollowResult::kFull;
  s.run("INSERT INTO follows(follower, followee, created_at) VALUES($1, $2, $3)",
        {follower, followee, now});
  return FollowResult::kFollowed;
}

bool unfollow(SqlSession& s, std::int64_t follower, std::int64_t followee) {
  return s.run("DELETE FROM follows WHERE follower = $1 AND followee = $2", {follower, followee}) >
         0;
}

std::vector<User> following(SqlSession& s, std::int64_t follower) {
  return all(s,
             "SELECT u.id, u.username, '' AS password_hash, u.created_at, u.rating, u.games, "
             "u.wins FROM follows f JOIN users u ON u.id = f.followee WHERE f.follower = $1 "
             "ORDER BY lower(u.username), u.id",
             {follower}, to_user);
}

}  // namespace ur::server::sql
