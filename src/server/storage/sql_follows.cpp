// Follows and blocks in the SQL storage (migrations 10 and 13, docs/server.md "Friends" and
// "Blocking"): one row per follower and followee, one per blocker and blocked. Each cap is
// counted inside the insert's transaction, so two inserts at once on two nodes cannot both pass
// it (PostgreSQL: the acting account's user row is locked first), and a block and a follow of
// the same two accounts are serialised the same way: both lock the row of the account acting.
#include <algorithm>

#include "server/storage/sql_rows.h"

namespace ur::server::sql {
namespace {

std::int64_t one(const SqlRow& r) {
  return r.integer(0);
}

bool has_block(SqlSession& s, std::int64_t blocker, std::int64_t blocked) {
  return first(s, "SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2", {blocker, blocked},
               one)
      .has_value();
}

// Serialises two writes acting for the same account (a no-op row lock on SQLite, which has one
// writer at a time anyway).
void lock_user(SqlSession& s, std::int64_t id) {
  s.run("UPDATE users SET id = id WHERE id = $1", {id});
}

}  // namespace

FollowResult follow(SqlSession& s, std::int64_t follower, std::int64_t followee, std::int64_t now) {
  // Both rows: a block by the followee (which locks the followee's row) waits for this, or this
  // for it, so a follow never slips in beside a block.
  lock_user(s, std::min(follower, followee));
  lock_user(s, std::max(follower, followee));
  if (has_block(s, followee, follower)) return FollowResult::kBlocked;
  if (has_block(s, follower, followee)) return FollowResult::kBlocking;
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

std::vector<Follower> followers(SqlSession& s, std::int64_t followee, int limit) {
  return all(s,
             "SELECT u.username, u.rating, u.games, EXISTS (SELECT 1 FROM follows b WHERE "
             "b.follower = $1 AND b.followee = f.follower) FROM follows f JOIN users u ON u.id "
             "= f.follower WHERE f.followee = $1 ORDER BY f.created_at DESC, u.id DESC LIMIT $2",
             {followee, limit}, [](const SqlRow& r) {
               return Follower{r.text(0), r.real(1), r.integer(2), r.boolean(3)};
             });
}

std::int64_t follower_count(SqlSession& s, std::int64_t followee) {
  return first(s, "SELECT COUNT(*) FROM follows WHERE followee = $1", {followee}, one).value_or(0);
}

BlockResult block(SqlSession& s, std::int64_t blocker, std::int64_t blocked, std::int64_t now) {
  lock_user(s, std::min(blocker, blocked));
  lock_user(s, std::max(blocker, blocked));
  // Neither follows the other any more, whatever comes next: a block never leaves the blocked
  // player a way to see the blocker online.
  s.run(
      "DELETE FROM follows WHERE (follower = $1 AND followee = $2) OR (follower = $2 AND "
      "followee = $1)",
      {blocker, blocked});
  if (has_block(s, blocker, blocked)) return BlockResult::kAlready;
  if (first(s, "SELECT COUNT(*) FROM blocks WHERE blocker = $1", {blocker}, one).value_or(0) >=
      kMaxBlocks)
    return BlockResult::kFull;
  s.run("INSERT INTO blocks(blocker, blocked, created_at) VALUES($1, $2, $3)",
        {blocker, blocked, now});
  return BlockResult::kBlocked;
}

bool unblock(SqlSession& s, std::int64_t blocker, std::int64_t blocked) {
  return s.run("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2", {blocker, blocked}) > 0;
}

std::vector<User> blocking(SqlSession& s, std::int64_t blocker) {
  return all(s,
             "SELECT u.id, u.username, '' AS password_hash, u.created_at, u.rating, u.games, "
             "u.wins FROM blocks b JOIN users u ON u.id = b.blocked WHERE b.blocker = $1 "
             "ORDER BY lower(u.username), u.id",
             {blocker}, to_user);
}

bool blocks(SqlSession& s, std::int64_t blocker, std::int64_t blocked) {
  return has_block(s, blocker, blocked);
}

std::vector<std::int64_t> blockers_of(SqlSession& s, std::int64_t blocked, int limit) {
  return all(s, "SELECT blocker FROM blocks WHERE blocked = $1 ORDER BY blocker LIMIT $2",
             {blocked, limit}, one);
}

}  // namespace ur::server::sql
