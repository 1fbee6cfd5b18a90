// GET and POST /api/friends (docs/server.md, "Friends"): the players an account follows, each
// with whether they are online (a live WebSocket on this node: friends.h), and following or
// unfollowing one by name. Accounts only: a guest has nobody to keep a list for.
#include <nlohmann/json.hpp>

#include <cmath>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
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

struct FollowChange {
  std::string name;
  bool follow = true;
};

std::optional<FollowChange> parse_follow(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto name = j.find("username");
  auto follow = j.find("follow");
  if (name == j.end() || !name->is_string() || follow == j.end() || !follow->is_boolean())
    return std::nullopt;
  return FollowChange{name->get<std::string>(), follow->get<bool>()};
}

// What a follow or an unfollow did, or why it was refused.
using FollowOutcome = std::variant<FollowResult, bool, Error>;

FollowOutcome apply_follow(Storage& st, std::int64_t me, const FollowChange& c) {
  std::optional<User> u = check_username(c.name) ? std::nullopt : st.find_user_by_name(c.name);
  if (!u) return Error{Errc::kNotFound, "no player has that name"};
  if (u->id == me) return Error{Errc::kBadRequest, "you cannot follow yourself"};
  if (!c.follow) return st.accounts().unfollow(me, u->id);
  return st.accounts().follow(me, u->id, unix_now());
}

}  // namespace

awaitable<Response> route_friends_api(ServerContext& ctx, const Request& req,
                                      const std::string& ip) {
  bool post = req.method() == http::verb::post;
  if (!post && req.method() != http::verb::get) {
    Response res = error_json(req, Errc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, "GET, POST");
    co_return res;
  }
  if (post && !is_json_request(req))
    co_return error_json(req, Errc::kNotJson, "send Content-Type: application/json");
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user) co_return error_json(req, Errc::kNotLoggedIn, "log in to follow players");
  std::int64_t me = id.user->id;
  std::optional<FollowChange> change;
  if (post && !(change = parse_follow(req.body())))
    co_return error_json(req, Errc::kBadRequest,
                         "expected {\"username\": name, \"follow\": true|false}");
  auto job = [&ctx, me, change] {
    std::optional<FollowOutcome> done;
    if (change) done = apply_follow(*ctx.storage, me, *change);
    return std::pair{done, ctx.storage->accounts().following(me)};
  };
  auto [done, users] = co_await offload(ctx, std::move(job));
  if (done) {
    if (auto* e = std::get_if<Error>(&*done)) co_return error_json(req, *e);
    if (auto* r = std::get_if<FollowResult>(&*done); r && *r == FollowResult::kFull)
      co_return error_json(req, Errc::kConflict,
                           "you follow " + std::to_string(kMaxFollows) + " players already");
  }
  std::vector<std::int64_t> ids;
  for (const User& u : users) ids.push_back(u.id);
  std::vector<bool> online = co_await ctx.friends->online_anywhere(std::move(ids));
  co_return json_reply(req, http::status::ok,
                       json{{"following", following_json(users, online)}, {"max", kMaxFollows}});
}

}  // namespace ur::server
