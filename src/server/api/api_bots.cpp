// The bot-account endpoints of the HTTP API (docs/server.md, "Bot accounts").
//
// An account's owner (logged in with a session: a bot token cannot manage itself) marks the
// account as a bot and gets a token, shown once in the answer and stored only as a hash
// (accounts.h: bot_token_hash); asking again issues a new token and the old one stops working;
// the token can be revoked alone or with the bot mark. The bot program (`ur bot`) then opens the
// WebSocket with `Authorization: Bearer <token>`.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/server_errc.h"
#include "server/tables/bot_service.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

json status_json(const BotStatus& b) {
  return {{"bot", b.is_bot},
          {"has_token", b.has_token},
          {"rating", std::lround(b.rating)},
          {"games", b.games},
          {"wins", b.wins}};
}

// What a POST asks: mark (and a new token), unmark (and revoke), or revoke the token alone.
enum class BotChange : std::uint8_t { kMark, kUnmark, kRevoke };

std::optional<BotChange> parse_change(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  auto bot = j.find("bot");
  auto revoke = j.find("revoke");
  if (revoke != j.end())
    return bot == j.end() && revoke->is_boolean() && revoke->get<bool>()
               ? std::optional(BotChange::kRevoke)
               : std::nullopt;
  if (bot == j.end() || !bot->is_boolean()) return std::nullopt;
  return bot->get<bool>() ? BotChange::kMark : BotChange::kUnmark;
}

awaitable<Response> own_bot(ServerContext& ctx, const Request& req, const std::string& ip) {
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user || id.bot)
    co_return error_json(req, ServerErrc::kNotLoggedIn,
                         "log in to manage your account's bot status");
  std::optional<BotChange> change;
  if (req.method() == http::verb::post) {
    if (!is_json_request(req))
      co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
    change = parse_change(req.body());
    if (!change)
      co_return error_json(req, Errc::kBadRequest,
                           "expected {\"bot\": true|false} or {\"revoke\": true}");
  }
  std::string token;
  if (change == BotChange::kMark) token = random_token_hex(16);
  auto job = [&ctx, uid = id.user->id, change, token] {
    if (change) {
      BotStatus now = ctx.storage->bot_status(uid);
      bool is_bot = change == BotChange::kMark || (change == BotChange::kRevoke && now.is_bot);
      ctx.storage->set_bot(uid, is_bot, token.empty() ? "" : bot_token_hash(token));
    }
    return ctx.storage->bot_status(uid);
  };
  BotStatus status = co_await offload(ctx, std::move(job));
  json body = status_json(status);
  if (!token.empty()) body["token"] = token;  // shown this once; only its hash is kept
  co_return json_reply(req, http::status::ok, body);
}

}  // namespace

awaitable<Response> route_bot_api(ServerContext& ctx, const Request& req, const std::string& path,
                                  const std::string& ip) {
  bool own = path == "/api/bot";
  bool allowed = req.method() == http::verb::get || (own && req.method() == http::verb::post);
  if (!allowed) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, own ? "GET, POST" : "GET");
    co_return res;
  }
  if (own) co_return co_await own_bot(ctx, req, ip);
  co_return json_reply(req, http::status::ok, json{{"bots", ctx.bots->online()}});
}

}  // namespace ur::server
