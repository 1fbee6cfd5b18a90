// The HTTP side of the server: the JSON account API under /api/ and static files from the web
// root. Every answer is built here; the sessions (transport/http_session.cpp) only move bytes.
//
// API errors are JSON objects {"error": code, "message": text} with the matching status (400 bad
// input, 401 not logged in / wrong password, 404, 405 wrong method, 409 username taken, 413 body
// too large, 415 not JSON, 429 rate limited, 500). User text is never put in an error message.
// POSTs must be `Content-Type: application/json`: a cross-site HTML form cannot send that without
// a CORS preflight, which this server never grants, so together with SameSite=Lax cookies the
// account endpoints are not reachable by CSRF.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http.hpp>

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/error.h"
#include "rules/rule_set.h"
#include "server/api/http_status.h"
#include "server/server_context.h"

namespace ur::server {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

inline constexpr std::string_view kSessionCookie = "ur_session";
// A guest's stable identity (so that a reconnect resumes the guest's seat): 128 random bits,
// issued by POST /api/guest. Only a hash of it is ever stored or shown.
inline constexpr std::string_view kGuestCookie = "ur_guest";

struct HttpAnswer {
  http::message_generator message;
  unsigned status;  // for the access log
};

// The headers every answer carries: the server's name, no MIME sniffing, same-origin referrers.
template <class Body>
void set_common_headers(http::response<Body>& res) {
  res.set(http::field::server, "ur/" UR_VERSION);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "same-origin");
}

// A file under the web root (api_static.cpp): GET and HEAD, an ETag and revalidation, HTML never
// cached and assets for an hour; `status` is set to the answer's status for the access log.
http::message_generator serve_static(ServerContext& ctx, const Request& req, unsigned& status);

// A JSON response with the server's common headers (no-store).
Response json_reply(const Request& req, http::status status, const nlohmann::json& body);

// GET /api/explore (api_explore.cpp): the status and the JSON answer for a rule-set string and a
// position string ("start" or empty: the rule set's start), both already percent-decoded; exact
// where `tables` holds the rule set's table.
std::pair<http::status, nlohmann::json> explore_answer(const solver::TableStore& tables,
                                                       std::string_view rules,
                                                       std::string_view position);

// GET /api/rules/<id> (api_games.cpp): everything a client needs to draw a rule set's board and
// place its pieces. A puzzle asked for with rules_info=1 carries it too (api_puzzles.cpp).
nlohmann::json rules_json(const RuleSet& r);

// GET /api/levels (api_levels.cpp): {"levels": [{name, agent}]}, the computer's levels weakest
// first (ai::levels).
nlohmann::json levels_json();

// The game-data endpoints (api_games.cpp): rules, tables, leaderboard, users' matches, games.
// nullopt when the path is not one of them.
boost::asio::awaitable<std::optional<Response>> route_game_api(ServerContext& ctx,
                                                               const Request& req,
                                                               const std::string& path,
                                                               const std::string& ip);

// The finished-game endpoints (api_matches.cpp), called by route_game_api with the path's
// segments after /api/: users/<name>/matches and games/<id>[/record|/positions|/analysis]; a 404
// for any other path.
boost::asio::awaitable<Response> route_match_api(ServerContext& ctx, const Request& req,
                                                 const std::vector<std::string_view>& segments);

// Learn from your mistakes (api_mistakes.cpp), with the path's segments after /api/:
// games/<id>/mistakes (GET) and games/<id>/mistakes/<event>/attempt (POST); `ip` for the
// puzzles' per-address limit.
boost::asio::awaitable<Response> route_mistakes_api(ServerContext& ctx, const Request& req,
                                                    const std::vector<std::string_view>& segments,
                                                    const std::string& ip);

// A finished game as the history lists it (api_matches.cpp), with `you`, `result`, `ended_by`,
// `opponent` and `rating_change` for the user `viewer` (0: for nobody); `rules_name` is the rule
// set's name for people.
nlohmann::json match_json(const MatchRow& m, std::int64_t viewer);
std::string rules_name(const std::string& rules);
// GET /api/users/<name>/profile (api_profile.cpp): docs/server.md, "Profiles".
boost::asio::awaitable<Response> user_profile(ServerContext& ctx, const Request& req,
                                              std::string name);

// The bot-account endpoints (api_bots.cpp): GET and POST /api/bot (the caller's own bot status,
// marking, token), GET /api/bots (the bots online).
boost::asio::awaitable<Response> route_bot_api(ServerContext& ctx, const Request& req,
                                               const std::string& path, const std::string& ip);

// The account holder's endpoints (api_account.cpp): /api/account/password, /logout-all,
// /delete and /export (docs/server.md, "Your account").
boost::asio::awaitable<Response> route_account_api(ServerContext& ctx, const Request& req,
                                                   const std::string& path, const std::string& ip);
// The administrators' endpoints (api_admin.cpp): /api/admin/users/<name>[/ban|/unban|/rename]
// and /api/admin/log (docs/server.md, "Moderation").
boost::asio::awaitable<Response> route_admin_api(ServerContext& ctx, const Request& req,
                                                 const std::string& path, const std::string& ip);

// A session cookie's key in use (a blocking call: run it off the I/O threads): its user when
// the session is alive and the account neither banned nor deleted, its lifetime slid forward to
// a full session_ttl (written at most once per kSessionSlideSeconds or a 24th of the lifetime)
// and, when it slides, the address noted as the account's.
struct SessionIdentity {
  User user;
  bool admin = false;
};
inline constexpr std::int64_t kSessionSlideSeconds = 3600;
std::optional<SessionIdentity> use_session(ServerContext& ctx, const std::string& key,
                                           const std::string& ip);

// Pieces of the account endpoints shared by api.cpp and api_account.cpp: the `user` object, a
// Set-Cookie value of the session cookie (max_age 0 clears it) and the per-address limit of the
// endpoints that verify a password (argon2id each; with a Redis bus the bucket is shared by every
// node, redis_rate.h, else, or while Redis is away, this node's own): a 429 when over it.
nlohmann::json user_json(const User& u);
std::string session_cookie(const ServerContext& ctx, std::string_view token, long max_age);
boost::asio::awaitable<std::optional<Response>> check_rate(ServerContext& ctx, const Request& req,
                                                           const std::string& ip);

// The puzzle endpoints under /api/puzzles/ (api_puzzles.cpp; docs/puzzles.md, "HTTP API").
boost::asio::awaitable<Response> route_puzzle_api(ServerContext& ctx, const Request& req,
                                                  const std::string& path, const std::string& ip);
// GET and POST /api/friends (api_friends.cpp): docs/server.md, "Friends".
boost::asio::awaitable<Response> route_friends_api(ServerContext& ctx, const Request& req,
                                                   const std::string& ip);
// GET and POST /api/blocks (api_friends.cpp): docs/server.md, "Blocking".
boost::asio::awaitable<Response> route_blocks_api(ServerContext& ctx, const Request& req,
                                                  const std::string& ip);

// GET /metrics (api_metrics.cpp): the Prometheus text format, behind the metrics token.
Response serve_metrics(ServerContext& ctx, const Request& req);

// Whether the request's Content-Type is application/json (POSTs must be: see above).
bool is_json_request(const Request& req);

// Answers one request (never throws; a storage failure becomes a 500).
boost::asio::awaitable<HttpAnswer> handle_http(ServerContext& ctx, Request req,
                                               std::string remote_ip);

// An error answer {"error": name, "message": message}: the code's wire name (ErrorCode::name) and
// its HTTP status (http_status).
nlohmann::json error_body(ErrorCode code, std::string_view message);
Response error_json(const Request& req, ErrorCode code, std::string_view message);
Response error_json(const Request& req, const Error& e);
// The same for cases decided by the session layer (413, 403 on a bad Origin); `status` differs
// from the table's only where HTTP has a finer status (431 for too large headers).
http::message_generator error_response(const Request& req, ErrorCode code,
                                       std::string_view message);
http::message_generator error_response(unsigned version, bool keep_alive, http::status status,
                                       ErrorCode code, std::string_view message);

// The identity behind the request's session cookie (a guest when there is none or it expired).
boost::asio::awaitable<Identity> identify(ServerContext& ctx, const Request& req,
                                          std::string remote_ip);

}  // namespace ur::server
