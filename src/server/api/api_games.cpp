// The read-only game data of the HTTP API: rule sets and their boards (for the web board), the
// computer's levels, the explorer, the public tables and the leaderboard; the finished games
// (a user's match history, a game's summary, record, positions and review) are api_matches.cpp's.
// Every answer is JSON; every path parameter is validated before it reaches the database.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "ai/net_agent.h"
#include "analysis/review.h"
#include "analysis/review_json.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "rules/presets.h"
#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/log.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/tables/game_review.h"
#include "server/tables/table_service.h"
#include "server/tables/table_solver.h"
#include "solver/table_store.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

const char* marking_name(Marking m) {
  switch (m) {
    case Marking::kPlain:
      return "plain";
    case Marking::kRosette:
      return "rosette";
    case Marking::kEyes:
      return "eyes";
    case Marking::kFiveCircles:
      return "five-circles";
    case Marking::kQuincunxes:
      return "quincunxes";
    case Marking::kGrid:
      return "grid";
    case Marking::kZigZag:
      return "zigzag";
  }
  return "plain";
}

json cell_json(Cell c) {
  return c == kNoCell ? json(nullptr) : json(cell_name(c));
}

// GET /api/rules: the presets, whether each is solved and the state of its background solve.
awaitable<Response> rules_list(ServerContext& ctx, const Request& req) {
  // Off the I/O thread: the first look at a solved table maps and verifies it (once: the
  // table store keeps the answer).
  auto load = [&ctx] {
    json list = json::array();
    for (const PresetInfo& info : preset_list()) {
      const RuleSet* r = find_preset(info.id);
      // solved: a table exists, so the perfect level plays perfectly (else the learned network
      // where `learned`, else as hard); endgame: k when that table is an endgame table (exact
      // with at most k pieces left a side, the learned network or hard's search before), 0 for
      // a whole one; solve: the background solve of a missing table (table_solver.h), null when
      // there is none.
      const solver::TableLookup found = ctx.table_store->find(*r);
      list.push_back({{"id", info.id},
                      {"name", r->name},
                      {"summary", r->summary},
                      {"solved", found.ready()},
                      {"endgame", found.ready() ? found.solved.endgame() : 0},
                      {"learned", ai::has_network(ctx.table_store.get(), *r)},
                      {"solve", ctx.solver ? ctx.solver->status(info.id) : json(nullptr)}});
    }
    return list;
  };
  json list = co_await offload(ctx, std::move(load));
  co_return json_reply(req, http::status::ok, json{{"presets", std::move(list)}});
}

// GET /api/explore?rules=…&position=…
awaitable<Response> explore(ServerContext& ctx, const Request& req) {
  auto rules = percent_decode(query_param(req.target(), "rules"));
  auto position = percent_decode(query_param(req.target(), "position"));
  if (!rules || !position)
    co_return json_reply(req, http::status::bad_request,
                         error_body(Errc::kBadRequest, "a malformed % escape"));
  // Off the I/O thread: an estimate searches.
  auto job = [&ctx, r = *rules, p = *position] { return explore_answer(*ctx.table_store, r, p); };
  auto [status, body] = co_await offload(ctx, std::move(job));
  co_return json_reply(req, status, body);
}

// GET /api/leaderboard: the best rated players.
awaitable<Response> leaderboard(ServerContext& ctx, const Request& req) {
  int limit = static_cast<int>(int_param(req.target(), "limit", 50, 1, 200));
  auto load = [&ctx, limit] { return ctx.storage->leaderboard(limit); };
  std::vector<User> users = co_await offload(ctx, std::move(load));
  json list = json::array();
  int rank = 0;
  for (const User& u : users)
    list.push_back({{"rank", ++rank},
                    {"username", u.username},
                    {"rating", std::lround(u.rating)},
                    {"games", u.games},
                    {"wins", u.wins}});
  co_return json_reply(req, http::status::ok, json{{"players", std::move(list)}});
}

}  // namespace

// Everything a client needs to draw a rule set's board and place its pieces (snapshot counts are
// per path index: index i of a side is paths[side][i - 1]; 0 is off the board before entering,
// path_length + 1 is borne off).
json rules_json(const RuleSet& r) {
  json squares = json::array();
  for (const Square& sq : r.board_layout().squares) {
    const SquareRule* rule = r.square(sq.cell);
    json j{{"cell", cell_name(sq.cell)},
           {"file", cell_file(sq.cell)},
           {"rank", cell_rank(sq.cell)},
           {"marking", marking_name(sq.marking)},
           {"dots", sq.dots}};
    if (rule) {
      j["rosette"] = rule->rosette;
      j["safe"] = rule->safe;
      j["special"] = rule->special == Special::kDoubleMove ? json("double")
                     : rule->special == Special::kForfeit  ? json("forfeit")
                                                           : json(nullptr);
      j["award"] = rule->rosette_enters_counter;
      j["value"] = rule->score_value;
    }
    squares.push_back(std::move(j));
  }
  json paths, ends;
  for (Player p : {Player::kLight, Player::kDark}) {
    json cells = json::array();
    for (Cell c : r.path.cells[index_of(p)]) cells.push_back(cell_name(c));
    paths[player_name(p)] = std::move(cells);
    ends[player_name(p)] = {{"start", cell_json(r.path.start[index_of(p)])},
                            {"end", cell_json(r.path.end[index_of(p)])}};
  }
  json throws = json::array();
  for (const ThrowOutcome& t : r.dice.by_k)
    throws.push_back({{"move", t.move}, {"ends_turn", t.ends_turn}, {"extra", t.extra_throw}});
  return json{{"preset", r.preset},
              {"name", r.name},
              {"rules", r.to_string()},
              {"summary", r.summary},
              {"citation", r.citation},
              {"pieces", r.pieces},
              {"stacking", r.stacking},
              {"entry", r.entry == EntryTarget::kStaging      ? "staging"
                        : r.entry == EntryTarget::kFixedIndex ? "fixed"
                                                              : "move"},
              {"scored", r.scored_win},
              {"stake", r.stake},
              {"board",
               {{"id", r.board_layout().id},
                {"files", r.board_layout().files},
                {"squares", std::move(squares)}}},
              {"path_length", r.path_length()},
              {"paths", std::move(paths)},
              {"path_ends", std::move(ends)},
              {"dice", {{"count", r.dice.dice}, {"throws", std::move(throws)}}}};
}

awaitable<std::optional<Response>> route_game_api(ServerContext& ctx, const Request& req,
                                                  const std::string& path, const std::string& ip) {
  std::string_view p = path;
  auto segments = [&]() {
    std::vector<std::string_view> out;
    std::string_view rest = p.substr(5);  // after "/api/"
    while (!rest.empty()) {
      auto slash = rest.find('/');
      out.push_back(rest.substr(0, slash));
      if (slash == std::string_view::npos) break;
      rest = rest.substr(slash + 1);
    }
    return out;
  }();
  if (segments.empty()) co_return std::nullopt;
  std::string_view head = segments[0];
  bool known = head == "rules" || head == "tables" || head == "leaderboard" || head == "users" ||
               head == "explore" || head == "games" || head == "levels";
  if (!known) co_return std::nullopt;
  if (head == "games" && segments.size() >= 3 && segments[2] == "mistakes")
    co_return co_await route_mistakes_api(ctx, req, segments, ip);
  if (req.method() != http::verb::get) {
    Response res =
        json_reply(req, http::status::method_not_allowed,
                   error_body(ServerErrc::kMethodNotAllowed, "this endpoint answers GET only"));
    res.set(http::field::allow, "GET");
    co_return res;
  }
  auto not_found = [&](std::string_view what) {
    return json_reply(req, http::status::not_found,
                      error_body(ServerErrc::kNotFound, std::string(what)));
  };

  if (head == "rules" && segments.size() == 1) co_return co_await rules_list(ctx, req);
  if (head == "levels" && segments.size() == 1)
    co_return json_reply(req, http::status::ok, levels_json());
  if (head == "rules" && segments.size() == 2) {
    const RuleSet* r = find_preset(segments[1]);
    if (!r) co_return not_found("no such rule set");
    co_return json_reply(req, http::status::ok, rules_json(*r));
  }
  if (head == "explore" && segments.size() == 1) co_return co_await explore(ctx, req);
  if (head == "tables" && segments.size() == 1) {
    int limit =
        static_cast<int>(int_param(req.target(), "limit", kLobbyPageDefault, 1, kLobbyPageMax));
    int offset = static_cast<int>(int_param(req.target(), "offset", 0, 0, 1'000'000));
    auto load = [&ctx, limit, offset] { return ctx.tables->public_tables(limit, offset); };
    co_return json_reply(req, http::status::ok, co_await offload(ctx, std::move(load)));
  }
  if (head == "leaderboard" && segments.size() == 1) co_return co_await leaderboard(ctx, req);
  co_return co_await route_match_api(ctx, req, segments);
}

}  // namespace ur::server
