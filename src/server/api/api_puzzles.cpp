// The puzzle endpoints (docs/puzzles.md, "HTTP API"): GET /api/puzzles/next, GET
// /api/puzzles/daily, GET /api/puzzles/me and POST /api/puzzles/<id>/attempt. A puzzle is sent
// without any hint of its answer: its legal moves in the order of their text, no chance, no best
// move, no theme; the attempt is checked here against the stored answer, and an account's first
// attempt at a puzzle is rated (storage's record_attempt: once, whatever is replayed). Guests
// solve unrated and nothing of theirs is stored. Every call takes a token from the caller's
// address bucket and, for an account, from the account's.
#include <fmt/format.h>
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "analysis/puzzle.h"
#include "analysis/puzzle_themes.h"
#include "rules/presets.h"
#include "server/api/api.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/storage/glicko2.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

// How far from the player's rating the next puzzle is aimed (uniformly either side), so that a
// player is not always served the same nearest puzzle after a change of a few points.
constexpr double kAimSpread = 100;

json themes_of(const std::string& stored) {
  json out = json::array();
  std::size_t at = 1;
  while (at < stored.size()) {
    const std::size_t comma = stored.find(',', at);
    if (comma == std::string::npos) break;
    if (comma > at) out.push_back(stored.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

// The puzzle as sent before an attempt: no chance, no best move, no theme.
// The stored moves ([{move, value}]); an empty list for a row that does not hold them.
json stored_moves(const PuzzleRow& p) {
  json moves = json::parse(p.moves, nullptr, false);
  if (!moves.is_array()) return json::array();
  return moves;
}

json question_json(const PuzzleRow& p) {
  std::vector<std::string> sorted;
  for (const json& m : stored_moves(p))
    if (m.is_object()) sorted.push_back(m.value("move", ""));
  std::sort(sorted.begin(), sorted.end());
  return json{{"id", p.id},         {"rules", p.rules}, {"position", p.position},
              {"throw", p.throw_k}, {"moves", sorted},  {"rating", std::lround(p.rating)}};
}

std::string reason_of(const json& themes) {
  for (const json& t : themes) {
    analysis::Theme theme;
    if (analysis::theme_from_name(t.get<std::string>(), theme))
      return std::string(analysis::theme_reason(theme));
  }
  return "it keeps the best winning chance";
}

json rating_json(const PuzzleRating& r) {
  return json{{"rating", std::lround(r.rating)},
              {"deviation", std::lround(r.deviation)},
              {"attempts", r.attempts},
              {"solved", r.solved}};
}

// The latest attempts GET /api/puzzles/me lists.
constexpr int kHistoryLength = 20;

json history_json(const std::vector<PuzzleAttemptRow>& rows) {
  json out = json::array();
  for (const PuzzleAttemptRow& a : rows)
    out.push_back({{"puzzle", a.puzzle_id},
                   {"rules", a.rules},
                   {"move", a.move},
                   {"solved", a.solved},
                   {"rating", std::lround(a.rating_after)},
                   {"change", std::lround(a.rating_after) - std::lround(a.rating_before)},
                   {"at", a.created_at}});
  return out;
}

bool allowed(ServerContext& ctx, const Identity& who) {
  if (!ctx.puzzle_ip_limiter.allow(who.remote_ip)) return false;
  if (!who.user) return true;
  // Appended in place: GCC 12 misreads "u" + std::to_string(...) as an overflow (-Wstringop-overflow).
  std::string key = "u";
  key += std::to_string(who.user->id);
  return ctx.puzzle_user_limiter.allow(key);
}

// The rule set of a request that names none: Finkel where it has puzzles, else the first preset
// in GET /api/rules's order that has some, else Finkel (answered 404 as usual). One index seek a
// preset, so a client needs no list of rule sets before its first puzzle. On the storage pool.
std::string default_rules(Storage& storage) {
  if (storage.has_puzzles("finkel")) return "finkel";
  for (const PresetInfo& p : preset_list())
    if (p.id != "finkel" && storage.has_puzzles(p.id)) return p.id;
  return "finkel";
}

// A puzzle's answer. Asked with `rules_info=1` it carries the puzzle's rule set as GET
// /api/rules/<id> describes it: a page that lets the server choose cannot know the board before
// the answer, and draws the puzzle without a second round trip.
json puzzle_answer(const Request& req, const PuzzleRow& p) {
  json out{{"puzzle", question_json(p)}};
  if (query_param(req.target(), "rules_info") == "1")
    if (const RuleSet* r = find_preset(p.rules)) out["rules_info"] = rules_json(*r);
  return out;
}

awaitable<Response> next_puzzle(ServerContext& ctx, const Request& req, const Identity& who) {
  PuzzleQuery q;
  q.user_id = who.user ? who.user->id : 0;
  auto rules = percent_decode(query_param(req.target(), "rules"));
  auto theme_text = percent_decode(query_param(req.target(), "theme"));
  if (!rules || !theme_text) co_return error_json(req, Errc::kBadRequest, "a malformed % escape");
  q.rules = *rules;
  q.theme = *theme_text;
  analysis::Theme theme;
  if (!q.theme.empty() && !analysis::theme_from_name(q.theme, theme))
    co_return error_json(req, Errc::kBadRequest, "theme: not one of docs/puzzles.md's themes");
  thread_local std::mt19937_64 rng(std::random_device{}());
  const double aim = std::uniform_real_distribution<double>(-kAimSpread, kAimSpread)(rng);
  // An account's rating is read by the statement that chooses the puzzle: one round trip.
  q.own_rating = q.user_id != 0;
  q.offset = aim;
  q.rating = kNewSolver.rating + aim;
  auto job = [&ctx, q]() mutable {
    if (q.rules.empty()) q.rules = default_rules(*ctx.storage);
    return ctx.storage->next_puzzle(q);
  };
  std::optional<PuzzleRow> p = co_await offload(ctx, std::move(job));
  if (!p) co_return error_json(req, ServerErrc::kNotFound, "no puzzle left for these filters");
  co_return json_reply(req, http::status::ok, puzzle_answer(req, *p));
}

awaitable<Response> daily_puzzle(ServerContext& ctx, const Request& req) {
  auto decoded = percent_decode(query_param(req.target(), "rules"));
  if (!decoded) co_return error_json(req, Errc::kBadRequest, "a malformed % escape");
  const std::string rules = *decoded;
  const auto day = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd(day);
  const std::string date =
      fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  auto job = [&ctx, rules, key = analysis::puzzle_id("daily", date)] {
    return ctx.storage->daily_puzzle(rules.empty() ? default_rules(*ctx.storage) : rules, key);
  };
  std::optional<PuzzleRow> p = co_await offload(ctx, std::move(job));
  if (!p) co_return error_json(req, ServerErrc::kNotFound, "no puzzle of this rule set yet");
  json answer = puzzle_answer(req, *p);
  answer["date"] = date;
  co_return json_reply(req, http::status::ok, answer);
}

awaitable<Response> attempt(ServerContext& ctx, const Request& req, const Identity& who,
                            std::string id) {
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("move") ||
      !body["move"].is_string())
    co_return error_json(req, Errc::kBadRequest, "expected {\"move\": \"FROM->TO\"}");
  const std::string move = body["move"].get<std::string>();
  auto find = [&ctx, id] { return ctx.storage->find_puzzle(id); };
  std::optional<PuzzleRow> p = co_await offload(ctx, std::move(find));
  if (!p) co_return error_json(req, ServerErrc::kNotFound, "no such puzzle");
  const json moves = stored_moves(*p);
  const bool legal = std::any_of(moves.begin(), moves.end(), [&](const json& m) {
    return m.is_object() && m.value("move", "") == move;
  });
  if (!legal) co_return error_json(req, Errc::kIllegalMove, "move: not a legal move here");
  const bool solved = move == p->best;
  json answer{{"correct", solved},
              {"best", p->best},
              {"moves", moves},
              {"themes", themes_of(p->themes)},
              {"rated", false}};
  answer["reason"] = reason_of(answer["themes"]);
  if (who.user) {
    auto rate = [&ctx, uid = who.user->id, id, move, solved] {
      return ctx.storage->record_attempt(uid, id, move, solved, unix_now());
    };
    std::optional<AttemptOutcome> r = co_await offload(ctx, std::move(rate));
    if (r && r->rated) {
      answer["rated"] = true;
      answer["rating"] = rating_json(r->after);
      answer["change"] = std::lround(r->after.rating) - std::lround(r->before.rating);
    }
  }
  ctx.metrics.puzzle_attempt(solved, answer["rated"].get<bool>());
  co_return json_reply(req, http::status::ok, answer);
}

}  // namespace

awaitable<Response> route_puzzle_api(ServerContext& ctx, const Request& req,
                                     const std::string& path, const std::string& ip) {
  const Identity who = co_await identify(ctx, req, ip);
  if (!allowed(ctx, who)) {
    Response res =
        error_json(req, ServerErrc::kRateLimited, "too many puzzle requests; wait a little");
    res.set(http::field::retry_after, "1");
    co_return res;
  }
  const std::string_view rest =
      std::string_view(path).substr(std::string_view("/api/puzzles/").size());
  const bool get = req.method() == http::verb::get;
  if (rest == "next" && get) co_return co_await next_puzzle(ctx, req, who);
  if (rest == "daily" && get) co_return co_await daily_puzzle(ctx, req);
  if (rest == "me" && get) {
    if (!who.user) co_return json_reply(req, http::status::ok, json{{"rating", nullptr}});
    auto job = [&ctx, uid = who.user->id] {
      return std::pair{ctx.storage->puzzle_rating(uid),
                       ctx.storage->puzzle_history(uid, kHistoryLength)};
    };
    // Awaited before the braces: GCC 12 miscompiles a co_await inside an initializer list.
    const auto mine = co_await offload(ctx, std::move(job));
    co_return json_reply(
        req, http::status::ok,
        json{{"rating", rating_json(mine.first)}, {"history", history_json(mine.second)}});
  }
  const std::size_t slash = rest.find('/');
  if (slash != std::string_view::npos && rest.substr(slash) == "/attempt") {
    if (req.method() != http::verb::post) {
      Response res = error_json(req, ServerErrc::kMethodNotAllowed, "attempts are POSTed");
      res.set(http::field::allow, "POST");
      co_return res;
    }
    if (!is_json_request(req))
      co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
    const std::string_view id = rest.substr(0, slash);
    const bool hex = id.size() == 16 && std::all_of(id.begin(), id.end(), [](char c) {
                       return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                     });
    if (!hex) co_return error_json(req, ServerErrc::kNotFound, "no such puzzle");
    co_return co_await attempt(ctx, req, who, std::string(id));
  }
  if (rest == "next" || rest == "daily" || rest == "me") {
    Response res = error_json(req, ServerErrc::kMethodNotAllowed, "this endpoint answers GET only");
    res.set(http::field::allow, "GET");
    co_return res;
  }
  co_return error_json(req, ServerErrc::kNotFound, "no such endpoint");
}

}  // namespace ur::server
