// The read-only game data of the HTTP API: rule sets and their boards (for the web board), the
// computer's levels, the public tables, the leaderboard, a user's match history, a finished
// game's summary and its engine JSON record. Every answer is JSON; every path parameter is
// validated before it reaches the database.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "analysis/review.h"
#include "analysis/review_json.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "rules/presets.h"
#include "server/accounts.h"
#include "server/api.h"
#include "server/game_review.h"
#include "server/http_util.h"
#include "server/log.h"
#include "server/table_service.h"
#include "server/table_solver.h"
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

std::string query_param(std::string_view target, std::string_view name) {
  auto q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    auto eq = pair.find('=');
    if (pair.substr(0, eq) == name && eq != std::string_view::npos)
      return std::string(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return {};
}

// A non-negative integer query parameter clamped to [lo, hi]; `fallback` when absent or bad.
std::int64_t int_param(std::string_view target, std::string_view name, std::int64_t fallback,
                       std::int64_t lo, std::int64_t hi) {
  std::string v = query_param(target, name);
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size()) return fallback;
  return std::clamp(out, lo, hi);
}

json match_json(const MatchRow& m, std::int64_t viewer) {
  json j{{"id", m.id},
         {"rules", m.rules},
         {"rated", m.rated},
         {"players", m.names},
         {"winner", m.winner},
         {"reason", m.reason},
         {"started_at", m.started_at},
         {"finished_at", m.finished_at},
         {"summary", json::parse(m.summary, nullptr, false)}};
  if (m.rated)
    j["ratings"] = {{"before", {std::lround(m.rating_before[0]), std::lround(m.rating_before[1])}},
                    {"after", {std::lround(m.rating_after[0]), std::lround(m.rating_after[1])}}};
  for (int s = 0; s < 2; ++s)
    if (viewer && m.user_ids[s] == viewer) {
      j["you"] = s + 1;
      j["result"] = m.winner == s + 1 ? "win" : "loss";
      j["opponent"] = m.names[1 - s];
      if (m.rated)
        j["rating_change"] = std::lround(m.rating_after[s]) - std::lround(m.rating_before[s]);
    }
  return j;
}

// Every position of a finished game, from the start to the end, for a move-by-move replay: the
// record is replayed through the checked Game, then walked back with undo (so the client needs no
// rules engine of its own).
json positions_json(const MatchRow& m) {
  auto replayed = record_from_json(json::parse(m.record, nullptr, false));
  if (auto* e = std::get_if<Error>(&replayed)) return json{{"error", e->message}};
  Game g = std::move(std::get<Game>(replayed));
  const Engine& e = g.engine();
  std::vector<json> out;
  auto snap = [&](const Game& game) {
    const Position& pos = game.position();
    json counts = json::array();
    for (int p = 0; p < 2; ++p) {
      json c = json::array();
      for (int i = 0; i <= e.off_index(); ++i) c.push_back(pos.count[p][i]);
      counts.push_back(std::move(c));
    }
    // "event": the index of the last event applied (-1: the start position).
    json j{{"event", static_cast<long>(game.events().size()) - 1},
           {"position", to_position_string(e, pos)},
           {"counts", std::move(counts)},
           {"pool", {pos.pool[0], pos.pool[1]}}};
    if (!game.events().empty()) {
      const GameEvent& ev = game.events().back();
      json d{{"seat", index_of(ev.player) + 1}};
      if (ev.type == GameEvent::Type::kThrow) {
        d["kind"] = "roll";
        d["value"] = ev.outcome;
        d["passed"] = ev.passed;
      } else if (ev.type == GameEvent::Type::kMove) {
        d["kind"] = "move";
        d["from"] = ev.move.from;
        d["to"] = ev.move.to;
      } else {
        d["kind"] = "resign";
      }
      j["last"] = std::move(d);
    }
    return j;
  };
  out.push_back(snap(g));
  while (g.undo()) out.push_back(snap(g));
  std::reverse(out.begin(), out.end());
  return json{{"id", m.id}, {"rules", m.rules}, {"positions", std::move(out)}};
}

// The record of a game in progress as far as it has gone, to whoever may watch it: anyone on a
// public table, only its players on a private one (to others it does not exist: 404, so that
// private table ids cannot be probed). The body stays a plain game record (docs/notation.md reads
// it strictly); the table version it reflects is in the X-Table-Version header.
awaitable<Response> live_record(ServerContext& ctx, const Request& req, const std::string& id) {
  auto not_found =
      json_reply(req, http::status::not_found, error_body(Errc::kNotFound, "no such game"));
  auto load = [&ctx, id] { return ctx.storage->find_table(id); };
  std::optional<TableRow> row = co_await offload(ctx, std::move(load));
  if (!row || row->status == "closed") co_return not_found;
  auto model = TableModel::from_row(*row);
  if (std::holds_alternative<Error>(model)) co_return not_found;
  const TableModel& m = std::get<TableModel>(model);
  if (!m.is_public()) {
    Identity who = co_await identify(ctx, req, "");
    if (!m.seat_of(actor_of(who, 0).key)) co_return not_found;
  }
  Response res = json_reply(req, http::status::ok, to_record(m.game()));
  res.set("X-Table-Version", std::to_string(m.version()));
  co_return res;
}

}  // namespace

awaitable<std::optional<Response>> route_game_api(ServerContext& ctx, const Request& req,
                                                  const std::string& path) {
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
  if (req.method() != http::verb::get) {
    Response res =
        json_reply(req, http::status::method_not_allowed,
                   error_body(Errc::kMethodNotAllowed, "this endpoint answers GET only"));
    res.set(http::field::allow, "GET");
    co_return res;
  }
  auto not_found = [&](std::string_view what) {
    return json_reply(req, http::status::not_found, error_body(Errc::kNotFound, std::string(what)));
  };

  if (head == "rules" && segments.size() == 1) {
    // Off the I/O thread: the first look at a solved table maps and verifies it (once: the
    // table store keeps the answer).
    auto load = [&ctx] {
      json list = json::array();
      for (const PresetInfo& info : preset_list()) {
        const RuleSet* r = find_preset(info.id);
        // solved: a table exists, so the perfect level plays perfectly (else as hard); solve:
        // the background solve of a missing table (table_solver.h), null when there is none.
        list.push_back({{"id", info.id},
                        {"name", r->name},
                        {"summary", r->summary},
                        {"solved", ctx.table_store->solved(*r)},
                        {"solve", ctx.solver ? ctx.solver->status(info.id) : json(nullptr)}});
      }
      return list;
    };
    json list = co_await offload(ctx, std::move(load));
    co_return json_reply(req, http::status::ok, json{{"presets", std::move(list)}});
  }
  if (head == "levels" && segments.size() == 1)
    co_return json_reply(req, http::status::ok, levels_json());
  if (head == "rules" && segments.size() == 2) {
    const RuleSet* r = find_preset(segments[1]);
    if (!r) co_return not_found("no such rule set");
    co_return json_reply(req, http::status::ok, rules_json(*r));
  }
  if (head == "explore" && segments.size() == 1) {
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
  if (head == "tables" && segments.size() == 1) {
    int limit =
        static_cast<int>(int_param(req.target(), "limit", kLobbyPageDefault, 1, kLobbyPageMax));
    int offset = static_cast<int>(int_param(req.target(), "offset", 0, 0, 1'000'000));
    auto load = [&ctx, limit, offset] { return ctx.tables->public_tables(limit, offset); };
    co_return json_reply(req, http::status::ok, co_await offload(ctx, std::move(load)));
  }
  if (head == "leaderboard" && segments.size() == 1) {
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
  if (head == "users" && segments.size() == 3 && segments[2] == "matches") {
    std::string name(segments[1]);
    if (check_username(name)) co_return not_found("no such user");
    int limit = static_cast<int>(int_param(req.target(), "limit", 20, 1, 100));
    std::int64_t before = int_param(req.target(), "before", 0, 0, INT64_MAX);
    std::string before_id = query_param(req.target(), "before_id");
    if (!is_table_id(before_id)) before_id.clear();
    auto load = [&ctx, name, limit, before, before_id] {
      std::optional<User> u = ctx.storage->find_user_by_name(name);
      std::vector<MatchRow> rows;
      if (u) rows = ctx.storage->user_matches(u->id, limit, before, before_id);
      return std::tuple{u, rows, review_summaries(*ctx.storage, rows)};
    };
    auto [user, rows, reviews] = co_await offload(ctx, std::move(load));
    if (!user) co_return not_found("no such user");
    json list = json::array();
    for (const MatchRow& m : rows) {
      json j = match_json(m, user->id);
      // Each seat's accuracy once the game is reviewed (game_review.h), else null.
      auto r = reviews.find(m.id);
      j["accuracy"] = r == reviews.end() ? json(nullptr) : json(r->second.accuracy);
      j["accuracy_estimate"] = r != reviews.end() && r->second.estimate;
      list.push_back(std::move(j));
    }
    json u{{"username", user->username},
           {"rating", std::lround(user->rating)},
           {"games", user->games},
           {"wins", user->wins}};
    co_return json_reply(req, http::status::ok, json{{"user", u}, {"matches", std::move(list)}});
  }
  if (head == "games" && segments.size() == 3 && segments[2] == "analysis") {
    std::string id(segments[1]);
    if (!is_table_id(id)) co_return not_found("no such game");
    auto load = [&ctx, id] {
      std::optional<MatchRow> m = ctx.storage->find_match(id);
      using Answer = std::optional<std::pair<http::status, json>>;
      return m ? Answer(stored_review(*ctx.storage, *ctx.table_store, *m)) : std::nullopt;
    };
    auto answer = co_await offload(ctx, std::move(load));
    if (!answer) co_return not_found("no such finished game");
    co_return json_reply(req, answer->first, answer->second);
  }
  if (head == "games" && segments.size() == 3 && segments[2] == "positions") {
    std::string id(segments[1]);
    if (!is_table_id(id)) co_return not_found("no such game");
    auto load = [&ctx, id] {
      std::optional<MatchRow> m = ctx.storage->find_match(id);
      return m ? std::optional<json>(positions_json(*m)) : std::nullopt;
    };
    std::optional<json> positions = co_await offload(ctx, std::move(load));
    if (!positions) co_return not_found("no such finished game");
    co_return json_reply(req, http::status::ok, *positions);
  }
  if (head == "games" &&
      (segments.size() == 2 || (segments.size() == 3 && segments[2] == "record"))) {
    std::string id(segments[1]);
    if (!is_table_id(id)) co_return not_found("no such game");
    bool record = segments.size() == 3;
    auto load = [&ctx, id] { return ctx.storage->find_match(id); };
    std::optional<MatchRow> match = co_await offload(ctx, std::move(load));
    if (!match) {
      if (!record) co_return not_found("no such finished game");
      co_return co_await live_record(ctx, req, id);
    }
    if (!record) co_return json_reply(req, http::status::ok, match_json(*match, 0));
    Response res = json_reply(req, http::status::ok, json::parse(match->record, nullptr, false));
    if (query_param(req.target(), "download") == "1")
      res.set(http::field::content_disposition, "attachment; filename=\"ur-" + id + ".json\"");
    co_return res;
  }
  co_return not_found("no such endpoint");
}

}  // namespace ur::server
