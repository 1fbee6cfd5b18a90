// The finished games of the HTTP API: a user's match history, a game's summary, its record (also
// of a game still in progress), its positions for a replay, and its stored review. Every path
// parameter is validated before it reaches the database.
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "engine/game_record.h"
#include "engine/notation.h"
#include "rules/rule_set.h"
#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/tables/game_review.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

Response not_found(const Request& req, std::string_view what) {
  return json_reply(req, http::status::not_found,
                    error_body(ServerErrc::kNotFound, std::string(what)));
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
  Response missing = not_found(req, "no such game");
  auto load = [&ctx, id] { return ctx.storage->find_table(id); };
  std::optional<TableRow> row = co_await offload(ctx, std::move(load));
  if (!row || row->status == "closed") co_return missing;
  auto model = TableModel::from_row(*row);
  if (std::holds_alternative<Error>(model)) co_return missing;
  const TableModel& m = std::get<TableModel>(model);
  if (!m.is_public()) {
    Identity who = co_await identify(ctx, req, "");
    if (!m.seat_of(actor_of(who, 0).key)) co_return missing;
  }
  Response res = json_reply(req, http::status::ok, to_record(m.game()));
  res.set("X-Table-Version", std::to_string(m.version()));
  co_return res;
}

// GET /api/users/<name>/matches: a page of the user's finished games, newest first.
awaitable<Response> user_matches(ServerContext& ctx, const Request& req, std::string name) {
  if (check_username(name)) co_return not_found(req, "no such user");
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
  if (!user) co_return not_found(req, "no such user");
  json list = json::array();
  for (const MatchRow& m : rows) {
    json j = match_json(m, user->id);
    // Each seat's accuracy once the game is reviewed (game_review.h), else null.
    auto r = reviews.find(m.id);
    // A seat that made no decision has no accuracy (stored negative: game_review.cpp).
    json accuracy = nullptr;
    if (r != reviews.end()) {
      accuracy = json::array();
      for (double a : r->second.accuracy) accuracy.push_back(a < 0 ? json(nullptr) : json(a));
    }
    j["accuracy"] = std::move(accuracy);
    j["accuracy_estimate"] = r != reviews.end() && r->second.estimate;
    list.push_back(std::move(j));
  }
  json u{{"username", user->username},
         {"rating", std::lround(user->rating)},
         {"games", user->games},
         {"wins", user->wins}};
  co_return json_reply(req, http::status::ok, json{{"user", u}, {"matches", std::move(list)}});
}

// GET /api/games/<id>/analysis: the stored review, made now if there is none yet.
awaitable<Response> game_analysis(ServerContext& ctx, const Request& req, std::string id) {
  if (!is_table_id(id)) co_return not_found(req, "no such game");
  auto load = [&ctx, id] {
    std::optional<MatchRow> m = ctx.storage->find_match(id);
    using Answer = std::optional<ReviewAnswer>;
    return m ? Answer(stored_review(*ctx.storage, *ctx.table_store, *m)) : std::nullopt;
  };
  auto answer = co_await offload(ctx, std::move(load));
  if (!answer) co_return not_found(req, "no such finished game");
  // The record is the server's own, so the words may quote it.
  if (auto* e = std::get_if<Error>(&*answer)) co_return error_json(req, e->code, e->message);
  co_return json_reply(req, http::status::ok, std::get<json>(*answer));
}

// GET /api/games/<id>/positions: every position of the game, for a replay.
awaitable<Response> game_positions(ServerContext& ctx, const Request& req, std::string id) {
  if (!is_table_id(id)) co_return not_found(req, "no such game");
  auto load = [&ctx, id] {
    std::optional<MatchRow> m = ctx.storage->find_match(id);
    return m ? std::optional<json>(positions_json(*m)) : std::nullopt;
  };
  std::optional<json> positions = co_await offload(ctx, std::move(load));
  if (!positions) co_return not_found(req, "no such finished game");
  co_return json_reply(req, http::status::ok, *positions);
}

// GET /api/games/<id> (the summary) and /api/games/<id>/record (the game record).
awaitable<Response> game(ServerContext& ctx, const Request& req, std::string id, bool record) {
  if (!is_table_id(id)) co_return not_found(req, "no such game");
  auto load = [&ctx, id] { return ctx.storage->find_match(id); };
  std::optional<MatchRow> match = co_await offload(ctx, std::move(load));
  if (!match) {
    if (!record) co_return not_found(req, "no such finished game");
    co_return co_await live_record(ctx, req, id);
  }
  if (!record) co_return json_reply(req, http::status::ok, match_json(*match, 0));
  const json rec = json::parse(match->record, nullptr, false);
  Response res = json_reply(req, http::status::ok, rec);
  // ?format=text: the record laid out for people as `ur replay --json` writes it (one event per
  // line; still a record that `ur replay` reads).
  const bool text = query_param(req.target(), "format") == "text" && rec.is_object();
  if (text) {
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = record_to_string(rec);
    res.prepare_payload();
  }
  if (query_param(req.target(), "download") == "1")
    res.set(http::field::content_disposition,
            "attachment; filename=\"ur-" + id + (text ? ".txt" : ".json") + "\"");
  co_return res;
}

}  // namespace

// The rule set's name for people ("Finkel", "Masters"): the stored id is a canonical string.
std::string rules_name(const std::string& rules) {
  auto parsed = parse_rule_set(rules);
  const auto* set = std::get_if<RuleSet>(&parsed);
  return set && !set->name.empty() ? set->name : rules;
}

json match_json(const MatchRow& m, std::int64_t viewer) {
  json j{{"id", m.id},
         {"rules", m.rules},
         {"rules_name", rules_name(m.rules)},
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
      // Who ended a game that ended by leaving, resigning or the clock: the loser (`you` when
      // this viewer lost), so that the page says "you left" and not "the opponent left".
      if (m.reason != "bore-off") j["ended_by"] = m.winner == 1 ? 2 : 1;
      j["opponent"] = m.names[1 - s];
      if (m.rated)
        j["rating_change"] = std::lround(m.rating_after[s]) - std::lround(m.rating_before[s]);
    }
  return j;
}

awaitable<Response> route_match_api(ServerContext& ctx, const Request& req,
                                    const std::vector<std::string_view>& segments) {
  std::string_view head = segments[0];
  std::size_t n = segments.size();
  std::string_view last = n == 3 ? segments[2] : std::string_view();
  if (head == "users" && n == 3 && last == "profile")
    co_return co_await user_profile(ctx, req, std::string(segments[1]));
  if (head == "users" && n == 3 && last == "matches")
    co_return co_await user_matches(ctx, req, std::string(segments[1]));
  if (head == "games" && n == 3 && last == "analysis")
    co_return co_await game_analysis(ctx, req, std::string(segments[1]));
  if (head == "games" && n == 3 && last == "positions")
    co_return co_await game_positions(ctx, req, std::string(segments[1]));
  if (head == "games" && (n == 2 || (n == 3 && last == "record")))
    co_return co_await game(ctx, req, std::string(segments[1]), n == 3);
  co_return not_found(req, "no such endpoint");
}

}  // namespace ur::server
