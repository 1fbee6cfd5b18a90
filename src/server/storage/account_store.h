// AccountStore: what accounts people manage and moderators act on need of storage (migration 12;
// docs/server.md "Your account" and "Moderation"), one interface beside Storage's so that both
// backends share one implementation (sql_accounts.cpp) and Storage::accounts() hands it out.
// Same contract as Storage: each write is one transaction, a failure of the database throws
// StorageError, expected outcomes are return values, and every call is safe from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ur::server {

struct User;

// An unexpired session's user, when it may be used (not banned, not deleted).
struct SessionUse {
  std::int64_t user_id = 0;
  std::int64_t expires_at = 0;  // unix seconds
  bool admin = false;
};

// An account's standing.
struct AccountStatus {
  bool admin = false;
  std::int64_t banned_at = 0;  // unix seconds; 0 = not banned
  std::string ban_reason;
  std::int64_t deleted_at = 0;  // 0 = not deleted
};

// An address an account logged in or used a session from.
struct AddressRow {
  std::string address;
  std::int64_t first_seen = 0;
  std::int64_t last_seen = 0;
};

// One moderation action, as the admin audit list shows it.
struct AdminAction {
  std::int64_t id = 0;        // assigned when logged: newer actions have larger ids
  std::int64_t at = 0;        // unix seconds
  std::int64_t admin_id = 0;  // 0 = the command line (`ur admin`)
  std::string admin_name;     // the administrator's name then, or "console:<OS user>"
  std::string action;         // "grant", "revoke", "ban", "unban", "rename"
  std::int64_t target_id = 0;
  std::string target_name;  // the account's name at the time of the action
  std::string detail;       // the ban's reason, "old -> new" of a rename, ...
};

// How long a recorded address is kept after its last use (note_address drops older ones).
inline constexpr std::int64_t kAddressRetentionSeconds = 90LL * 24 * 3600;

// What follow() did (migration 10, docs/server.md "Friends"): kBlocked, the followee blocks the
// follower; kBlocking, the follower blocks the followee (migration 13).
enum class FollowResult : std::uint8_t { kFollowed, kAlready, kFull, kBlocked, kBlocking };

// A player who follows an account, and whether the account follows them back.
struct Follower {
  std::string username;
  double rating = 0;
  std::int64_t games = 0;
  bool followed_back = false;
};

// The most followers one answer lists (the newest first): anyone may follow anyone.
inline constexpr int kMaxFollowersListed = 200;

// What block() did (migration 13, docs/server.md "Blocking").
enum class BlockResult : std::uint8_t { kBlocked, kAlready, kFull };

// The most players one account may block: a block list is read whole.
inline constexpr int kMaxBlocks = 500;

// The most players one account may follow: a friends list is read whole.
inline constexpr int kMaxFollows = 200;

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Sessions. find_session: the session's account when the session has not expired and the
  // account is neither banned nor deleted. extend_session moves its expiry (the sliding lifetime).
  virtual std::optional<SessionUse> find_session(std::string_view session_id, std::int64_t now) = 0;
  virtual void extend_session(std::string_view session_id, std::int64_t expires_at) = 0;
  // Ends every session of the account but `keep` (empty: every one); how many ended.
  virtual int end_sessions(std::int64_t user_id, std::string_view keep) = 0;
  // Replaces the password hash and, in the same transaction, ends every other session.
  virtual int change_password(std::int64_t user_id, std::string_view password_hash,
                              std::string_view keep_session) = 0;

  // Addresses: records a use (first and last seen), dropping the account's addresses unused for
  // kAddressRetentionSeconds; the most recently used first.
  virtual void note_address(std::int64_t user_id, std::string_view address, std::int64_t now) = 0;
  virtual std::vector<AddressRow> addresses(std::int64_t user_id, int limit) = 0;

  virtual AccountStatus status(std::int64_t user_id) = 0;
  // Deletes the account in one transaction: its name becomes "deleted-<id>" (the old one is
  // free again) in the users row and in its games, its password, sessions, bot token and
  // addresses go; its games, ratings and its opponents' ratings stay. The new name, or nullopt
  // when there is no such account or it was deleted already.
  virtual std::optional<std::string> delete_account(std::int64_t user_id, std::int64_t now) = 0;
  // The language the account chose for the web client (migration 14; "" forgets it); false when
  // there is no such account or it was deleted.
  virtual bool set_language(std::int64_t user_id, std::string_view language) = 0;

  // Moderation. set_admin: false when there is no such account. set_banned(true) also ends the
  // account's sessions and revokes its bot token; false when there is no such account.
  virtual bool set_admin(std::int64_t user_id, bool admin) = 0;
  virtual bool set_banned(std::int64_t user_id, bool banned, std::int64_t now,
                          std::string_view reason) = 0;
  // Renames the account (and its name in its finished games); false when the name is taken.
  virtual bool rename(std::int64_t user_id, std::string_view username) = 0;

  // The audit list: log_action stores one action (its id is set); admin_actions pages newest
  // first, those with an id below `before_id` (0: from the newest).
  virtual void log_action(AdminAction& action) = 0;
  virtual std::vector<AdminAction> admin_actions(int limit, std::int64_t before_id) = 0;

  // Follows (migration 10). follow adds the pair unless it exists, either of the two blocks the
  // other, or the follower follows kMaxFollows players already; unfollow is false when there was no such pair. following lists
  // the players a user follows (password_hash left empty), by name ignoring case.
  virtual FollowResult follow(std::int64_t follower, std::int64_t followee, std::int64_t now) = 0;
  virtual bool unfollow(std::int64_t follower, std::int64_t followee) = 0;
  virtual std::vector<User> following(std::int64_t follower) = 0;
  // The players who follow `followee`, newest first, at most `limit`; and how many there are.
  virtual std::vector<Follower> followers(std::int64_t followee, int limit) = 0;
  virtual std::int64_t follower_count(std::int64_t followee) = 0;

  // Blocks (migration 13). block adds the pair unless it exists or the blocker blocks
  // kMaxBlocks players already, and in the same transaction ends both follows between the two
  // (so neither sees the other's online state through a friends list); unblock is false when
  // there was no such pair. blocking lists the players a user blocks (password_hash left
  // empty), by name ignoring case. blocks: whether `blocker` blocks `blocked`. blockers_of: the
  // accounts that block `blocked`, at most `limit`.
  virtual BlockResult block(std::int64_t blocker, std::int64_t blocked, std::int64_t now) = 0;
  virtual bool unblock(std::int64_t blocker, std::int64_t blocked) = 0;
  virtual std::vector<User> blocking(std::int64_t blocker) = 0;
  virtual bool blocks(std::int64_t blocker, std::int64_t blocked) = 0;
  virtual std::vector<std::int64_t> blockers_of(std::int64_t blocked, int limit) = 0;
};

}  // namespace ur::server
