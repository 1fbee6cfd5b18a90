// GET and POST /api/friends (docs/server.md, "Friends"): the players an account follows, each
// with whether they are online (a live WebSocket on this node: friends.h), the players who follow
// it, and following or unfollowing one by name; GET and POST /api/blocks (docs/server.md,
// "Blocking"): the players an account blocks, and blocking or unblocking one by name. Accounts
// only: a guest has nobody to keep a list for.
#include <nlohmann/json.hpp>

#include <cmath>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/server_errc.h"
#include "server/tables/friends.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

json following_json(const std::vector<User>& users, const std::vector<bool>& online) {
  json out = json::array();
  for (std::size_t i = 0; i < users.size(); ++i)
    out.push_back({{"username", users[i].username},
                   {"rating", std::lround(users[i].rating)},
                   {"games", users[i].games},
                   {"online", bool(online[i])}});
  return out;
}

json followers_json(const std::vector<Follower>& users) {
  json out = json::array();
  for (const Follower& f : users)
    out.push_back({{"username", f.username},
                   {"rating", std::lround(f.rating)},
                   {"games", f.games},
                   {"following", f.followed_back}});
  return out;
}

struct FollowChange {
  std::string name;
  bool follow = true;
};

// {"username": name, <flag>: true|false}: a follow's or a block's change.
std::optional<FollowChange> parse_change(const std::string& body, const char* flag) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto name = j.find("username");
  auto follow = j.find(flag);
  if (name == j.end() || !name->is_string() || follow == j.end() || !follow->is_boolean())
    return std::nullopt;
  return FollowChange{name->get<std::string>(), follow->get<bool>()};
}

// What a follow or an unfollow did, or why it was refused.
using FollowOutcome = std::variant<FollowResult, bool, Error>;

FollowOutcome apply_follow(Storage& st, std::int64_t me, const FollowChange& c) {
  std::optional<User> u = check_username(c.name) ? std::nullopt : st.find_user_by_name(c.name);
  if (!u) return Error{ServerErrc::kNotFound, "no player has that name"};
  if (u->id == me) return Error{Errc::kBadRequest, "you cannot follow yourself"};
  if (!c.follow) return st.accounts().unfollow(me, u->id);
  return st.accounts().follow(me, u->id, unix_now());
}

// The refusal a follow's outcome stands for, if any.
std::optional<Error> follow_refusal(FollowResult r) {
  switch (r) {
    case FollowResult::kFull:
      return Error{ServerErrc::kConflict,
                   "you follow " + std::to_string(kMaxFollows) + " players already"};
    case FollowResult::kBlocked:
      return Error{ServerErrc::kRefused, "that player does not accept followers from you"};
    case FollowResult::kBlocking:
      return Error{ServerErrc::kRefused, "you block that player: unblock them to follow them"};
    default:
      return std::nullopt;
  }
}

// The friends page's lists: whom the account follows, and (newest first) who follows it.
struct FriendLists {
  std::vector<User> following;
  std::vector<Follower> followers;
  std::int64_t follower_count = 0;
};

FriendLists friend_lists(Storage& st, std::int64_t me) {
  return {st.accounts().following(me), st.accounts().followers(me, kMaxFollowersListed),
          st.accounts().follower_count(me)};
}

// What a block or an unblock did (the blocked account's id with it), or why it was refused.
using BlockOutcome = std::variant<std::pair<BlockResult, std::int64_t>, bool, Error>;

BlockOutcome apply_block(Storage& st, std::int64_t me, const FollowChange& c) {
  std::optional<User> u = check_username(c.name) ? std::nullopt : st.find_user_by_name(c.name);
  if (!u) return Error{ServerErrc::kNotFound, "no player has that name"};
  if (u->id == me) return Error{Errc::kBadRequest, "you cannot block yourself"};
  if (!c.follow) return st.accounts().unblock(me, u->id);
  return std::pair{st.accounts().block(me, u->id, unix_now()), u->id};
}

json blocking_json(const std::vector<User>& users) {
  json out = json::array();
  for (const User& u : users) out.push_back({{"username", u.username}});
  return out;
}

// The method and content checks of both endpoints: an answer when the request cannot go on.
std::optional<Response> refuse_request(const Request& req) {
  bool post = req.method() == http::verb::post;
  if (!post && req.method() != http::verb::get) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, "GET, POST");
    return res;
  }
  if (post && !is_json_request(req))
    return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
  return std::nullopt;
}

}  // namespace

awaitable<Response> route_friends_api(ServerContext& ctx, const Request& req,
                                      const std::string& ip) {
  if (auto refused = refuse_request(req)) co_return *refused;
  bool post = req.method() == http::verb::post;
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user) co_return error_json(req, ServerErrc::kNotLoggedIn, "log in to follow players");
  std::int64_t me = id.user->id;
  std::optional<FollowChange> change;
  if (post && !(change = parse_change(req.body(), "follow")))
    co_return error_json(req, Errc::kBadRequest,
                         "expected {\"username\": name, \"follow\": true|false}");
  auto job = [&ctx, me, change] {
    std::optional<FollowOutcome> done;
    if (change) done = apply_follow(*ctx.storage, me, *change);
    return std::pair{done, friend_lists(*ctx.storage, me)};
  };
  auto [done, lists] = co_await offload(ctx, std::move(job));
  if (done) {
    if (auto* e = std::get_if<Error>(&*done)) co_return error_json(req, *e);
    if (auto* r = std::get_if<FollowResult>(&*done))
      if (auto e = follow_refusal(*r)) co_return error_json(req, *e);
  }
  std::vector<std::int64_t> ids;
  for (const User& u : lists.following) ids.push_back(u.id);
  std::vector<bool> online = co_await ctx.friends->online_anywhere(std::move(ids));
  co_return json_reply(req, http::status::ok,
                       json{{"following", following_json(lists.following, online)},
                            {"max", kMaxFollows},
                            {"followers", followers_json(lists.followers)},
                            {"followers_total", lists.follower_count}});
}

awaitable<Response> route_blocks_api(ServerContext& ctx, const Request& req,
                                     const std::string& ip) {
  if (auto refused = refuse_request(req)) co_return *refused;
  bool post = req.method() == http::verb::post;
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user) co_return error_json(req, ServerErrc::kNotLoggedIn, "log in to block players");
  std::int64_t me = id.user->id;
  std::optional<FollowChange> change;
  if (post && !(change = parse_change(req.body(), "block")))
    co_return error_json(req, Errc::kBadRequest,
                         "expected {\"username\": name, \"block\": true|false}");
  auto job = [&ctx, me, change] {
    std::optional<BlockOutcome> done;
    if (change) done = apply_block(*ctx.storage, me, *change);
    return std::pair{done, ctx.storage->accounts().blocking(me)};
  };
  auto [done, users] = co_await offload(ctx, std::move(job));
  if (done) {
    if (auto* e = std::get_if<Error>(&*done)) co_return error_json(req, *e);
    if (auto* r = std::get_if<std::pair<BlockResult, std::int64_t>>(&*done)) {
      if (r->first == BlockResult::kFull)
        co_return error_json(req, ServerErrc::kConflict,
                             "you block " + std::to_string(kMaxBlocks) + " players already");
      ctx.friends->blocked(me, r->second);  // a challenge waiting between the two ends
    }
  }
  co_return json_reply(req, http::status::ok,
                       json{{"blocking", blocking_json(users)}, {"max", kMaxBlocks}});
}

}  // namespace ur::server
