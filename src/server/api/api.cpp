#include "server/api/api.h"

#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/version.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <system_error>

#include "rules/text.h"
#include "server/accounts/accounts.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_rate.h"
#include "server/log.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using boost::asio::awaitable;

Response json_response(unsigned version, bool keep_alive, http::status status, const json& body) {
  Response res{status, version};
  set_common_headers(res);
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keep_alive);
  res.body() = body.dump(-1, ' ', false, json::error_handler_t::replace);
  res.prepare_payload();
  return res;
}

Response json_response(const Request& req, http::status status, const json& body) {
  return json_response(req.version(), req.keep_alive(), status, body);
}

}  // namespace

json user_json(const User& u) {
  return {{"id", u.id},
          {"username", u.username},
          {"rating", std::lround(u.rating)},
          {"games", u.games},
          {"wins", u.wins},
          {"created_at", u.created_at},
          {"language", u.language}};
}

// A Set-Cookie value for one of our HttpOnly, SameSite=Lax cookies.
static std::string cookie_header(const ServerContext& ctx, std::string_view name,
                                 std::string_view token, long max_age) {
  std::string c = std::string(name) + "=" + std::string(token) +
                  "; Path=/; Max-Age=" + std::to_string(max_age) + "; HttpOnly; SameSite=Lax";
  if (ctx.config.secure_cookies) c += "; Secure";
  return c;
}

std::string session_cookie(const ServerContext& ctx, std::string_view token, long max_age) {
  return cookie_header(ctx, kSessionCookie, token, max_age);
}

namespace {

std::string request_path(const Request& req) {
  std::string_view t = req.target();
  return std::string(t.substr(0, t.find_first_of("?#")));
}

// Parses {"username": string, "password": string}; an error response on failure.
struct Credentials {
  std::string username, password;
};
std::variant<Credentials, Response> parse_credentials(const Request& req) {
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded()) return error_json(req, ServerErrc::kBadJson, "body is not valid JSON");
  if (!body.is_object() || !body.contains("username") || !body.contains("password") ||
      !body["username"].is_string() || !body["password"].is_string())
    return error_json(req, Errc::kBadRequest,
                      "expected {\"username\": string, \"password\": string}");
  return Credentials{body["username"].get<std::string>(), body["password"].get<std::string>()};
}

}  // namespace

awaitable<std::optional<Response>> check_rate(ServerContext& ctx, const Request& req,
                                              const std::string& ip) {
  int retry = -1;  // allowed
  if (RedisCommands* redis = ctx.pubsub->redis()) {
    std::string bucket = "auth:" + ip;
    auto shared = co_await take_shared_token(*redis, std::move(bucket), ctx.config.auth_burst,
                                             ctx.config.auth_refill_per_sec);
    if (shared && shared->allowed) co_return std::nullopt;
    if (shared) retry = shared->retry_after_seconds;
  }
  if (retry < 0) {
    if (ctx.auth_limiter.allow(ip)) co_return std::nullopt;
    retry = ctx.auth_limiter.retry_after_seconds(ip);
  }
  Response res =
      error_json(req, ServerErrc::kRateLimited, "too many attempts; wait a little and try again");
  res.set(http::field::retry_after, std::to_string(std::max(1, retry)));
  co_return res;
}

namespace {

awaitable<Response> issue_session(ServerContext& ctx, const Request& req, const User& user,
                                  http::status status) {
  const std::string token = random_token_hex(16);
  SessionRecord s;
  s.id = session_key(token);  // the cookie holds the token, the database only its hash
  s.user_id = user.id;
  s.created_at = unix_now();
  s.expires_at = s.created_at + ctx.config.session_ttl.count();
  auto job = [&ctx, s] { ctx.storage->create_session(s); };
  co_await offload(ctx, std::move(job));
  Response res = json_response(req, status, json{{"user", user_json(user)}});
  res.set(http::field::set_cookie, session_cookie(ctx, token, ctx.config.session_ttl.count()));
  co_return res;
}

awaitable<Response> api_register(ServerContext& ctx, const Request& req, const std::string& ip) {
  if (auto limited = co_await check_rate(ctx, req, ip)) co_return std::move(*limited);
  auto parsed = parse_credentials(req);
  if (auto* bad = std::get_if<Response>(&parsed)) co_return std::move(*bad);
  auto& cred = std::get<Credentials>(parsed);
  if (auto why = check_username(cred.username))
    co_return error_json(req, ServerErrc::kBadUsername, *why);
  if (auto why = check_reserved_username(cred.username))
    co_return error_json(req, ServerErrc::kReservedUsername, *why);
  if (auto why = check_password(cred.password))
    co_return error_json(req, ServerErrc::kBadPassword, *why);
  PasswordCost cost{ctx.config.pwhash_opslimit, ctx.config.pwhash_memlimit};
  auto job = [&ctx, cred, cost, ip] {
    // Skip the costly hash when the name is visibly taken; the insert still decides races.
    if (ctx.storage->find_user_by_name(cred.username)) return std::optional<User>();
    std::string hash = hash_password(cred.password, cost);
    if (hash.empty()) throw StorageError("password hashing failed (out of memory)");
    auto user = ctx.storage->create_user(cred.username, hash, unix_now());
    if (user) ctx.storage->accounts().note_address(user->id, ip, unix_now());
    return user;
  };
  std::optional<User> user = co_await offload(ctx, std::move(job));
  if (!user)
    co_return error_json(req, ServerErrc::kUsernameTaken, "that username is already taken");
  co_return co_await issue_session(ctx, req, *user, http::status::created);
}

// Verifying against a fixed hash when the user does not exist keeps the answer time the same, so
// timing does not tell which usernames exist.
const std::string& dummy_hash(PasswordCost cost) {
  static const std::string hash = hash_password("not a real password", cost);
  return hash;
}

awaitable<Response> api_login(ServerContext& ctx, const Request& req, const std::string& ip) {
  if (auto limited = co_await check_rate(ctx, req, ip)) co_return std::move(*limited);
  auto parsed = parse_credentials(req);
  if (auto* bad = std::get_if<Response>(&parsed)) co_return std::move(*bad);
  auto& cred = std::get<Credentials>(parsed);
  PasswordCost cost{ctx.config.pwhash_opslimit, ctx.config.pwhash_memlimit};
  auto job = [&ctx, cred, cost, ip]() -> std::pair<std::optional<User>, bool> {
    std::optional<User> u;
    if (!check_username(cred.username) && cred.password.size() <= 4 * 128)
      u = ctx.storage->find_user_by_name(cred.username);
    bool ok = verify_password(u ? u->password_hash : dummy_hash(cost), cred.password);
    if (!ok || !u) return {std::nullopt, false};
    // Only a right password learns of a ban: a wrong one answers as for anyone.
    if (ctx.storage->accounts().status(u->id).banned_at != 0) return {std::nullopt, true};
    ctx.storage->accounts().note_address(u->id, ip, unix_now());
    return {u, false};
  };
  auto [user, banned] = co_await offload(ctx, std::move(job));
  if (banned) co_return error_json(req, ServerErrc::kBanned, "this account is banned");
  if (!user) co_return error_json(req, ServerErrc::kBadCredentials, "wrong username or password");
  co_return co_await issue_session(ctx, req, *user, http::status::ok);
}

awaitable<Response> api_logout(ServerContext& ctx, const Request& req) {
  auto token = cookie_value(req[http::field::cookie], kSessionCookie);
  if (token && is_token_hex(*token)) {
    auto job = [&ctx, k = session_key(*token)] { ctx.storage->delete_session(k); };
    co_await offload(ctx, std::move(job));
  }
  Response res = json_response(req, http::status::ok, json{{"ok", true}});
  res.set(http::field::set_cookie, session_cookie(ctx, "", 0));
  co_return res;
}

awaitable<Response> api_me(ServerContext& ctx, const Request& req, const std::string& ip) {
  Identity id = co_await identify(ctx, req, ip);
  if (!id.user) co_return error_json(req, ServerErrc::kNotLoggedIn, "not logged in");
  json user = user_json(*id.user);
  user["admin"] = id.admin;
  Response res = json_response(req, http::status::ok, json{{"user", user}});
  // The session's lifetime slides (use_session): the cookie's follows it.
  if (!id.bot)
    res.set(http::field::set_cookie,
            session_cookie(ctx, id.session_id, ctx.config.session_ttl.count()));
  co_return res;
}

// Gives a guest a stable identity (kept when there is one already).
awaitable<Response> api_guest(ServerContext& ctx, const Request& req, const std::string& ip) {
  Identity id = co_await identify(ctx, req, ip);
  if (id.user)
    co_return json_response(req, http::status::ok,
                            json{{"guest", false}, {"name", id.user->username}});
  Response res = json_response(req, http::status::ok, json{{"guest", true}});
  if (id.guest_key.empty()) {
    std::string token = random_token_hex(16);
    res.set(http::field::set_cookie, cookie_header(ctx, kGuestCookie, token, 365L * 24 * 3600));
    id.guest_id = guest_name(token);
  }
  nlohmann::json body{{"guest", true}, {"name", id.guest_id}};
  res.body() = body.dump();
  res.prepare_payload();
  co_return res;
}

awaitable<Response> api_health(ServerContext& ctx, const Request& req) {
  // A database that does not answer makes the health check fail, not the request: the schema
  // version is read only from a database that answered, and an error of its own is a 503 too.
  auto job = [&ctx]() -> std::pair<bool, json> {
    try {
      if (!ctx.storage->healthy()) return {false, nullptr};
      return {true, ctx.storage->schema_version()};
    } catch (const StorageError&) {
      return {false, nullptr};
    }
  };
  auto [ok, version] = co_await offload(ctx, std::move(job));
  // A node whose bus reconnects still serves its own watchers (and resyncs them after): it
  // stays healthy, so that a Redis restart does not take every node out of the balancer.
  BusStatus bus = ctx.pubsub->status();
  co_return json_response(
      req, ok ? http::status::ok : http::status::service_unavailable,
      json{{"status", ok ? "ok" : "degraded"},
           {"version", UR_VERSION},
           {"protocol", 1},
           {"storage", ctx.storage->backend()},
           {"schema_version", version},
           // Which node answered: behind a balancer, what an operator looks for in a log.
           {"node", ctx.tables ? ctx.tables->node() : std::string()},
           {"bus", {{"kind", bus.kind}, {"connected", bus.connected}, {"dropped", bus.dropped}}}});
}

awaitable<Response> route_api(ServerContext& ctx, const Request& req, const std::string& path,
                              const std::string& ip) {
  struct Route {
    std::string_view path;
    http::verb method;
  };
  static constexpr Route kRoutes[] = {
      {"/api/health", http::verb::get},    {"/api/me", http::verb::get},
      {"/api/register", http::verb::post}, {"/api/login", http::verb::post},
      {"/api/logout", http::verb::post},   {"/api/guest", http::verb::post},
  };
  if (path == "/api/bot" || path == "/api/bots")
    co_return co_await route_bot_api(ctx, req, path, ip);
  if (path.starts_with("/api/account/")) co_return co_await route_account_api(ctx, req, path, ip);
  if (path.starts_with("/api/admin/")) co_return co_await route_admin_api(ctx, req, path, ip);
  if (path.rfind("/api/puzzles/", 0) == 0) co_return co_await route_puzzle_api(ctx, req, path, ip);
  if (path == "/api/friends") co_return co_await route_friends_api(ctx, req, ip);
  if (path == "/api/blocks") co_return co_await route_blocks_api(ctx, req, ip);
  const Route* route = nullptr;
  for (const Route& r : kRoutes)
    if (r.path == path) route = &r;
  if (!route) {
    if (auto res = co_await route_game_api(ctx, req, path, ip)) co_return std::move(*res);
    co_return error_json(req, ServerErrc::kNotFound, "no such endpoint");
  }
  if (req.method() != route->method) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, http::to_string(route->method));
    co_return res;
  }
  if (route->method == http::verb::post && !is_json_request(req))
    co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
  if (path == "/api/health") co_return co_await api_health(ctx, req);
  if (path == "/api/me") co_return co_await api_me(ctx, req, ip);
  if (path == "/api/register") co_return co_await api_register(ctx, req, ip);
  if (path == "/api/login") co_return co_await api_login(ctx, req, ip);
  if (path == "/api/guest") co_return co_await api_guest(ctx, req, ip);
  co_return co_await api_logout(ctx, req);
}

}  // namespace

json error_body(ErrorCode code, std::string_view message) {
  return json{{"error", code.name()}, {"message", message}};
}

Response error_json(const Request& req, ErrorCode code, std::string_view message) {
  return json_response(req, http_status(code), error_body(code, message));
}

Response error_json(const Request& req, const Error& e) {
  return error_json(req, e.code, e.remote_message());
}

bool is_json_request(const Request& req) {
  std::string_view ct = req[http::field::content_type];
  ct = ct.substr(0, ct.find(';'));
  while (!ct.empty() && ct.back() == ' ') ct.remove_suffix(1);
  return ct.size() == 16 &&
         std::equal(ct.begin(), ct.end(), "application/json", [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

Response json_reply(const Request& req, http::status status, const json& body) {
  return json_response(req, status, body);
}

http::message_generator error_response(unsigned version, bool keep_alive, http::status status,
                                       ErrorCode code, std::string_view message) {
  return json_response(version, keep_alive, status, error_body(code, message));
}

http::message_generator error_response(const Request& req, ErrorCode code,
                                       std::string_view message) {
  return error_json(req, code, message);
}

awaitable<Identity> identify(ServerContext& ctx, const Request& req, std::string remote_ip) {
  Identity id;
  id.remote_ip = std::move(remote_ip);
  // A bot program names its account by its bot token; a wrong one is never a guest.
  std::string_view auth = req[http::field::authorization];
  if (auth.substr(0, 7) == "Bearer ") {
    std::string bot_token(trim_blanks(auth.substr(7)));
    if (is_token_hex(bot_token)) {
      auto job = [&ctx, h = bot_token_hash(bot_token)] {
        return ctx.storage->user_for_bot_token(h);
      };
      id.user = co_await offload(ctx, std::move(job));
    }
    id.bot = id.user.has_value();
    id.bad_bot_token = !id.bot;
    co_return id;
  }
  auto token = cookie_value(req[http::field::cookie], kSessionCookie);
  if (token && is_token_hex(*token)) {
    auto job = [&ctx, k = session_key(*token), ip = id.remote_ip] {
      return use_session(ctx, k, ip);
    };
    if (auto used = co_await offload(ctx, std::move(job))) {
      id.user = std::move(used->user);
      id.admin = used->admin;
      id.session_id = *token;
    }
  }
  if (!id.user) {
    auto guest = cookie_value(req[http::field::cookie], kGuestCookie);
    if (guest && is_token_hex(*guest)) {
      id.guest_key = guest_key(*guest);
      id.guest_id = guest_name(*guest);
    } else {
      id.guest_id = "guest-" + random_token_hex(4);
    }
  }
  co_return id;
}

awaitable<HttpAnswer> handle_http(ServerContext& ctx, Request req, std::string remote_ip) {
  std::string path = request_path(req);
  std::optional<http::message_generator> out;
  unsigned status = 500;
  try {
    if (path.rfind("/api/", 0) == 0) {
      Response res = co_await route_api(ctx, req, path, remote_ip);
      status = res.result_int();
      out.emplace(std::move(res));
    } else if (path == "/metrics") {
      Response res = serve_metrics(ctx, req);
      status = res.result_int();
      out.emplace(std::move(res));
    } else if (path == "/ws") {
      status = 426;
      out.emplace(
          error_json(req, ServerErrc::kUpgradeRequired, "this endpoint speaks WebSocket only"));
    } else {
      out.emplace(serve_static(ctx, req, status));
    }
  } catch (const std::exception& e) {
    log_line(std::string("error: ") + e.what());
    status = 500;
    out.emplace(error_json(req, Errc::kInternal, "internal server error"));
  }
  co_return HttpAnswer{std::move(*out), status};
}

}  // namespace ur::server
