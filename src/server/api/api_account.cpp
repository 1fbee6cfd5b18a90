// The account holder's endpoints (docs/server.md, "Your account"): change the password, log out
// everywhere, delete the account, download its data, set the web client's language; and the
// sliding lifetime of a session (use_session). Every one but the download needs the session of the account (a bot token cannot
// manage its account), and those that take a password verify it (argon2id, off the I/O threads)
// under the per-address limit of /api/login.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

Response logged_out(const ServerContext& ctx, const Request& req, json body) {
  Response res = json_reply(req, http::status::ok, body);
  res.set(http::field::set_cookie, session_cookie(ctx, "", 0));
  return res;
}

// The body's string fields `names`, or an error answer.
std::variant<std::vector<std::string>, Response> string_fields(
    const Request& req, std::initializer_list<const char*> names) {
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded()) return error_json(req, ServerErrc::kBadJson, "body is not valid JSON");
  std::vector<std::string> out;
  std::string expected;
  for (const char* n : names) expected += std::string(expected.empty() ? "" : ", ") + n;
  for (const char* n : names) {
    if (!body.is_object() || !body.contains(n) || !body[n].is_string())
      return error_json(req, Errc::kBadRequest, "expected the string fields " + expected);
    out.push_back(body[n].get<std::string>());
  }
  return out;
}

// Whether `password` is the account's (a blocking call).
bool password_matches(ServerContext& ctx, std::int64_t user_id, const std::string& password) {
  auto u = ctx.storage->find_user_by_id(user_id);
  return u && password.size() <= 4 * 128 && verify_password(u->password_hash, password);
}

awaitable<Response> change_password(ServerContext& ctx, const Request& req, const Identity& id) {
  auto fields = string_fields(req, {"old_password", "new_password"});
  if (auto* bad = std::get_if<Response>(&fields)) co_return std::move(*bad);
  auto f = std::get<std::vector<std::string>>(std::move(fields));
  if (auto why = check_password(f[1])) co_return error_json(req, ServerErrc::kBadPassword, *why);
  PasswordCost cost{ctx.config.pwhash_opslimit, ctx.config.pwhash_memlimit};
  auto job = [&ctx, f, cost, uid = id.user->id, keep = session_key(id.session_id)] {
    if (!password_matches(ctx, uid, f[0])) return -1;
    std::string hash = hash_password(f[1], cost);
    if (hash.empty()) throw StorageError("password hashing failed (out of memory)");
    return ctx.storage->accounts().change_password(uid, hash, keep);
  };
  int ended = co_await offload(ctx, std::move(job));
  if (ended < 0) co_return error_json(req, ServerErrc::kBadCredentials, "wrong password");
  co_return json_reply(req, http::status::ok, json{{"ok", true}, {"sessions_ended", ended}});
}

awaitable<Response> logout_all(ServerContext& ctx, const Request& req, const Identity& id) {
  auto job = [&ctx, uid = id.user->id] { return ctx.storage->accounts().end_sessions(uid, ""); };
  int ended = co_await offload(ctx, std::move(job));
  co_return logged_out(ctx, req, json{{"ok", true}, {"sessions_ended", ended}});
}

awaitable<Response> delete_account(ServerContext& ctx, const Request& req, const Identity& id) {
  auto fields = string_fields(req, {"password"});
  if (auto* bad = std::get_if<Response>(&fields)) co_return std::move(*bad);
  auto f = std::get<std::vector<std::string>>(std::move(fields));
  auto job = [&ctx, f, uid = id.user->id]() -> std::optional<std::string> {
    if (!password_matches(ctx, uid, f[0])) return std::nullopt;
    return ctx.storage->accounts().delete_account(uid, unix_now()).value_or("");
  };
  std::optional<std::string> name = co_await offload(ctx, std::move(job));
  if (!name) co_return error_json(req, ServerErrc::kBadCredentials, "wrong password");
  // Its seats are left and its sockets closed on every node (TableService::close_account).
  int tables = co_await ctx.tables->close_account(id.user->id);
  co_return logged_out(ctx, req, json{{"ok", true}, {"username", *name}, {"tables_left", tables}});
}

// A language as the account may store it: a primary language subtag of 2 or 3 lowercase letters
// (BCP 47: "de", "ar"), or "" for none. Which of them the web client speaks is the client's to
// say (it falls back to the browser's languages for one it lacks), so a new language in the
// client needs nothing of the server.
bool valid_language(std::string_view lang) {
  if (lang.empty()) return true;
  return (lang.size() == 2 || lang.size() == 3) &&
         std::all_of(lang.begin(), lang.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

awaitable<Response> set_language(ServerContext& ctx, const Request& req, const Identity& id) {
  auto fields = string_fields(req, {"language"});
  if (auto* bad = std::get_if<Response>(&fields)) co_return std::move(*bad);
  std::string lang = std::get<std::vector<std::string>>(fields)[0];
  if (!valid_language(lang))
    co_return error_json(req, Errc::kBadRequest,
                         "language must be a language subtag of 2 or 3 lowercase letters, or \"\"");
  auto job = [&ctx, lang, uid = id.user->id] {
    return ctx.storage->accounts().set_language(uid, lang);
  };
  if (!co_await offload(ctx, std::move(job)))
    co_return error_json(req, ServerErrc::kNotLoggedIn, "log in to manage your account");
  co_return json_reply(req, http::status::ok, json{{"ok", true}, {"language", lang}});
}

// Everything stored of the account, as one JSON document (a blocking call).
json account_data(ServerContext& ctx, const User& u) {
  AccountStore& accounts = ctx.storage->accounts();
  AccountStatus status = accounts.status(u.id);
  BotStatus bot = ctx.storage->bot_status(u.id);
  json account = user_json(u);
  account["admin"] = status.admin;
  account["bot"] = {{"bot", bot.is_bot},
                    {"has_token", bot.has_token},
                    {"rating", std::lround(bot.rating)},
                    {"games", bot.games},
                    {"wins", bot.wins}};
  json ratings = json::array();
  for (const RuleRating& r : ctx.storage->rule_ratings(u.id))
    ratings.push_back({{"rules", r.rules},
                       {"rules_name", rules_name(r.rules)},
                       {"rating", std::lround(r.rating)},
                       {"games", r.games},
                       {"wins", r.wins}});
  json addresses = json::array();
  for (const AddressRow& a : accounts.addresses(u.id, 1000))
    addresses.push_back(
        {{"address", a.address}, {"first_seen", a.first_seen}, {"last_seen", a.last_seen}});
  json games = json::array();
  std::int64_t before = 0;
  std::string before_id;
  for (;;) {
    auto page = ctx.storage->user_matches(u.id, 200, before, before_id);
    for (const MatchRow& m : page) games.push_back(match_json(m, u.id));
    if (page.size() < 200) break;
    before = page.back().finished_at;
    before_id = page.back().id;
  }
  return json{{"format", "ur-account-data"},
              {"version", 1},
              {"exported_at", unix_now()},
              {"account", account},
              {"ratings", ratings},
              {"addresses", addresses},
              {"games", games}};
}

awaitable<Response> export_data(ServerContext& ctx, const Request& req, const Identity& id) {
  auto job = [&ctx, u = *id.user] { return account_data(ctx, u); };
  json data = co_await offload(ctx, std::move(job));
  Response res = json_reply(req, http::status::ok, data);
  res.set(http::field::content_disposition,
          "attachment; filename=\"ur-account-" + id.user->username + ".json\"");
  co_return res;
}

}  // namespace

std::optional<SessionIdentity> use_session(ServerContext& ctx, const std::string& key,
                                           const std::string& ip) {
  const std::int64_t now = unix_now();
  const std::int64_t ttl = ctx.config.session_ttl.count();
  AccountStore& accounts = ctx.storage->accounts();
  auto use = accounts.find_session(key, now);
  if (!use) return std::nullopt;
  auto user = ctx.storage->find_user_by_id(use->user_id);
  if (!user) return std::nullopt;
  // Written once per step, not on every request: the lifetime is full to within a step.
  const std::int64_t step = std::min<std::int64_t>(kSessionSlideSeconds, ttl / 24);
  if (use->expires_at < now + ttl - step) {
    accounts.extend_session(key, now + ttl);
    if (!ip.empty()) accounts.note_address(use->user_id, ip, now);
  }
  return SessionIdentity{std::move(*user), use->admin};
}

awaitable<Response> route_account_api(ServerContext& ctx, const Request& req,
                                      const std::string& path, const std::string& ip) {
  const std::string_view what = std::string_view(path).substr(13);  // after "/api/account/"
  const bool is_get = what == "export";
  if (what != "export" && what != "password" && what != "logout-all" && what != "delete" &&
      what != "language")
    co_return error_json(req, ServerErrc::kNotFound, "no such endpoint");
  if (req.method() != (is_get ? http::verb::get : http::verb::post)) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, is_get ? "GET" : "POST");
    co_return res;
  }
  if (!is_get && !is_json_request(req))
    co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
  const bool checks_password = what == "password" || what == "delete";
  if (checks_password)
    if (auto limited = co_await check_rate(ctx, req, ip)) co_return std::move(*limited);
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user || id.bot)
    co_return error_json(req, ServerErrc::kNotLoggedIn, "log in to manage your account");
  if (what == "export") co_return co_await export_data(ctx, req, id);
  if (what == "password") co_return co_await change_password(ctx, req, id);
  if (what == "logout-all") co_return co_await logout_all(ctx, req, id);
  if (what == "language") co_return co_await set_language(ctx, req, id);
  co_return co_await delete_account(ctx, req, id);
}

}  // namespace ur::server
