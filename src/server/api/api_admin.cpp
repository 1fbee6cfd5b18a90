// The administrators' endpoints (docs/server.md, "Moderation"): look an account up (its
// standing, recent addresses and games), ban or unban it, rename it, and the audit list of every
// moderation action. Only a session of an account with the administrator role (`ur admin grant`)
// may call them; every action is stored with who took it (AccountStore::log_action) and logged.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/log.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

constexpr std::size_t kMaxReasonBytes = 500;

json action_json(const AdminAction& a) {
  return {{"id", a.id},
          {"at", a.at},
          {"admin", a.admin_name},
          {"action", a.action},
          {"target", a.target_name},
          {"target_id", a.target_id},
          {"detail", a.detail}};
}

// The account `name` names with its standing, addresses and latest games (a blocking call).
std::optional<json> account_view(ServerContext& ctx, const std::string& name) {
  std::optional<User> u = ctx.storage->find_user_by_name(name);
  if (!u) return std::nullopt;
  AccountStore& accounts = ctx.storage->accounts();
  AccountStatus st = accounts.status(u->id);
  json user = user_json(*u);
  user["admin"] = st.admin;
  user["banned_at"] = st.banned_at ? json(st.banned_at) : json(nullptr);
  user["ban_reason"] = st.ban_reason;
  user["deleted_at"] = st.deleted_at ? json(st.deleted_at) : json(nullptr);
  user["bot"] = ctx.storage->bot_status(u->id).is_bot;
  json addresses = json::array();
  for (const AddressRow& a : accounts.addresses(u->id, 50))
    addresses.push_back(
        {{"address", a.address}, {"first_seen", a.first_seen}, {"last_seen", a.last_seen}});
  json games = json::array();
  for (const MatchRow& m : ctx.storage->user_matches(u->id, 20, 0))
    games.push_back(match_json(m, u->id));
  return json{{"user", user}, {"addresses", addresses}, {"games", games}};
}

// What an action changes, decided off the I/O threads: the error to answer, or the log entry.
struct Outcome {
  std::optional<Error> error;
  AdminAction logged;
  bool close = false;  // the account's seats and sockets must go (a ban)
};

Outcome refused(ErrorCode code, std::string message) {
  Outcome out;
  out.error = Error{code, std::move(message)};
  return out;
}

Outcome apply_admin_action(ServerContext& ctx, const Identity& admin, const std::string& name,
                           const std::string& action, const std::string& argument) {
  Outcome out;
  std::optional<User> u = ctx.storage->find_user_by_name(name);
  if (!u) return refused(ServerErrc::kNotFound, "no such user");
  AccountStore& accounts = ctx.storage->accounts();
  const std::int64_t now = unix_now();
  AdminAction& entry = out.logged;
  entry = {0, now, admin.user->id, admin.user->username, action, u->id, u->username, argument};
  if (action == "ban" || action == "unban") {
    if (u->id == admin.user->id) return refused(Errc::kBadRequest, "you cannot ban yourself");
    accounts.set_banned(u->id, action == "ban", now, argument);
    out.close = action == "ban";
  } else {
    if (auto why = check_username(argument)) return refused(ServerErrc::kBadUsername, *why);
    if (auto why = check_reserved_username(argument))
      return refused(ServerErrc::kReservedUsername, *why);
    if (!accounts.rename(u->id, argument))
      return refused(ServerErrc::kUsernameTaken, "that username is already taken");
    entry.detail = u->username + " -> " + argument;
  }
  accounts.log_action(entry);
  return out;
}

// The action's argument from the body: a ban's optional reason, a rename's new name.
std::variant<std::string, Response> argument_of(const Request& req, const std::string& action) {
  if (action == "unban") return std::string();
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded()) return error_json(req, ServerErrc::kBadJson, "body is not valid JSON");
  const char* field = action == "ban" ? "reason" : "username";
  if (!body.is_object()) return error_json(req, Errc::kBadRequest, "expected a JSON object");
  auto it = body.find(field);
  if (action == "ban" && it == body.end()) return std::string();
  if (it == body.end() || !it->is_string() ||
      (action == "ban" && it->get<std::string>().size() > kMaxReasonBytes))
    return error_json(req, Errc::kBadRequest,
                      action == "ban" ? "expected {\"reason\": string of at most 500 bytes}"
                                      : "expected {\"username\": string}");
  return it->get<std::string>();
}

awaitable<Response> admin_action(ServerContext& ctx, const Request& req, const Identity& id,
                                 std::string name, std::string action) {
  auto arg = argument_of(req, action);
  if (auto* bad = std::get_if<Response>(&arg)) co_return std::move(*bad);
  auto job = [&ctx, id, name, action, a = std::get<std::string>(arg)] {
    return apply_admin_action(ctx, id, name, action, a);
  };
  Outcome out = co_await offload(ctx, std::move(job));
  if (out.error) co_return error_json(req, *out.error);
  const AdminAction& a = out.logged;
  log_line("admin: " + a.admin_name + " " + a.action + " " + a.target_name + " (user " +
           std::to_string(a.target_id) + ")" + (a.detail.empty() ? "" : ": " + a.detail));
  int tables = out.close ? co_await ctx.tables->close_account(a.target_id) : 0;
  co_return json_reply(req, http::status::ok,
                       json{{"ok", true}, {"action", action_json(a)}, {"tables_left", tables}});
}

awaitable<Response> lookup(ServerContext& ctx, const Request& req, std::string name) {
  auto job = [&ctx, name] { return account_view(ctx, name); };
  auto view = co_await offload(ctx, std::move(job));
  if (!view) co_return error_json(req, ServerErrc::kNotFound, "no such user");
  co_return json_reply(req, http::status::ok, *view);
}

awaitable<Response> audit_log(ServerContext& ctx, const Request& req) {
  int limit = static_cast<int>(int_param(req.target(), "limit", 50, 1, 200));
  std::int64_t before = int_param(req.target(), "before", 0, 0, INT64_MAX);
  auto job = [&ctx, limit, before] { return ctx.storage->accounts().admin_actions(limit, before); };
  std::vector<AdminAction> rows = co_await offload(ctx, std::move(job));
  json list = json::array();
  for (const AdminAction& a : rows) list.push_back(action_json(a));
  json next = rows.size() == static_cast<std::size_t>(limit) ? json(rows.back().id) : json(nullptr);
  co_return json_reply(req, http::status::ok, json{{"actions", list}, {"next_before", next}});
}

Response wrong_method(const Request& req, const char* allow) {
  Response res =
      error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
  res.set(http::field::allow, allow);
  return res;
}

}  // namespace

awaitable<Response> route_admin_api(ServerContext& ctx, const Request& req, const std::string& path,
                                    const std::string& ip) {
  // "/api/admin/log" or "/api/admin/users/<name>[/<action>]"
  std::vector<std::string> parts;
  for (std::size_t at = 11; at <= path.size();) {
    std::size_t end = std::min(path.find('/', at), path.size());
    parts.push_back(path.substr(at, end - at));
    at = end + 1;
  }
  const bool audit = parts.size() == 1 && parts[0] == "log";
  const bool user = parts.size() >= 2 && parts.size() <= 3 && parts[0] == "users";
  const std::string action = parts.size() == 3 ? parts[2] : "";
  if (!audit &&
      !(user && (action.empty() || action == "ban" || action == "unban" || action == "rename")))
    co_return error_json(req, ServerErrc::kNotFound, "no such endpoint");
  const bool is_get = action.empty();
  if (req.method() != (is_get ? http::verb::get : http::verb::post))
    co_return wrong_method(req, is_get ? "GET" : "POST");
  if (!is_get && !is_json_request(req))
    co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user || id.bot) co_return error_json(req, ServerErrc::kNotLoggedIn, "not logged in");
  if (!id.admin) co_return error_json(req, ServerErrc::kNotAdmin, "administrators only");
  if (audit) co_return co_await audit_log(ctx, req);
  auto name = percent_decode(parts[1]);
  if (!name || check_username(*name))
    co_return error_json(req, ServerErrc::kNotFound, "no such user");
  if (is_get) co_return co_await lookup(ctx, req, *name);
  co_return co_await admin_action(ctx, req, id, *name, action);
}

}  // namespace ur::server
