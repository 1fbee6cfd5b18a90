// Learn from your mistakes (docs/puzzles.md, "Learn from your mistakes"): GET
// /api/games/<id>/mistakes?seat=S lists a seat's mistakes and blunders of a finished game, from
// its stored review, as puzzles: the position before each, the throw, the legal moves in the order
// of their text and the move that was played, with no chance and no best move; POST
// /api/games/<id>/mistakes/<event>/attempt {move} answers one as a puzzle attempt is answered:
// every move's chance, the best, the themes and a reason. Nothing is stored and nothing is rated:
// the review is public, so anyone may ask (the calls share the puzzles' per-address limit).
#include <boost/asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

#include "analysis/puzzle.h"
#include "analysis/puzzle_themes.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "server/api/api.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/tables/game_review.h"
#include "server/tables/table_model.h"

namespace ur::server {
namespace {

using json = nlohmann::json;
using boost::asio::awaitable;

// The most mistakes a game gives (its costliest, shown in game order): a short sequence.
constexpr std::size_t kMaxMistakes = 10;

struct MistakeSpot {
  int event = 0;
  int seat = 0;
  std::string grade;
  double cost = 0;
  Position before{};
  std::string played;
};

struct MistakeGame {
  std::optional<Game> game;  // replayed from the record
  std::vector<MistakeSpot> spots;
  bool estimate = false;
  Error error{ServerErrc::kNotFound, "no such finished game"};
};

// The review's mistakes and blunders (moves only: no award, no resignation) with the position
// before each, found by undoing the replayed record back to it.
MistakeGame load_mistakes(ServerContext& ctx, const std::string& id) {
  MistakeGame out;
  std::optional<MatchRow> m = ctx.storage->find_match(id);
  if (!m) return out;
  ReviewAnswer review = stored_review(*ctx.storage, *ctx.table_store, *m);
  if (auto* e = std::get_if<Error>(&review)) return out.error = *e, out;
  auto replayed = record_from_json(json::parse(m->record, nullptr, false));
  if (auto* e = std::get_if<Error>(&replayed))
    return out.error = Error(Errc::kBadRecord, "the game record does not replay: " + e->message),
           out;
  Game g = std::move(std::get<Game>(replayed));
  const json& r = std::get<json>(review);
  out.estimate = r.value("estimate", false);
  for (const json& mv : r.value("moves", json::array())) {
    const std::string grade = mv.value("grade", "");
    if ((grade != "mistake" && grade != "blunder") || mv.contains("award") || mv.contains("resign"))
      continue;
    out.spots.push_back(
        {mv.value("event", -1), mv.value("seat", 0), grade, mv.value("cost", 0.0), Position{}, ""});
  }
  std::sort(out.spots.begin(), out.spots.end(),
            [](const MistakeSpot& a, const MistakeSpot& b) { return a.event > b.event; });
  Game walk = g;
  for (MistakeSpot& s : out.spots) {
    while (static_cast<int>(walk.events().size()) > s.event && walk.undo()) {
    }
    s.before = walk.position();
    const GameEvent& ev = g.events().at(static_cast<std::size_t>(s.event));
    s.played = move_text(ev.move);
  }
  std::erase_if(out.spots,
                [](const MistakeSpot& s) { return s.before.phase != Phase::kAwaitingMove; });
  std::reverse(out.spots.begin(), out.spots.end());
  out.game = std::move(g);
  return out;
}

std::vector<std::string> legal_texts(const Engine& engine, const Position& p) {
  MoveList legal;
  engine.legal_moves(p, legal);
  std::vector<std::string> out;
  for (const Move& m : legal) out.push_back(move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

json mistakes_json(const MistakeGame& mg, const std::string& id, int seat) {
  std::vector<const MistakeSpot*> mine;
  for (const MistakeSpot& s : mg.spots)
    if (s.seat == seat) mine.push_back(&s);
  if (mine.size() > kMaxMistakes) {
    std::stable_sort(mine.begin(), mine.end(),
                     [](const MistakeSpot* a, const MistakeSpot* b) { return a->cost > b->cost; });
    mine.resize(kMaxMistakes);
    std::sort(mine.begin(), mine.end(),
              [](const MistakeSpot* a, const MistakeSpot* b) { return a->event < b->event; });
  }
  const Engine& engine = mg.game->engine();
  json list = json::array();
  for (const MistakeSpot* s : mine)
    list.push_back({{"event", s->event},
                    {"position", to_position_string(engine, s->before)},
                    {"throw", s->before.roll},
                    {"moves", legal_texts(engine, s->before)},
                    {"played", s->played},
                    {"grade", s->grade}});
  return json{{"id", id},
              {"rules", mg.game->rules().to_string()},
              {"seat", seat},
              {"estimate", mg.estimate},
              {"mistakes", std::move(list)}};
}

// Every move's chance at the mistake's position, from the same source as the review (exact from
// the server's table, else estimated), and what the best move does.
json mistake_answer(ServerContext& ctx, const MistakeGame& mg, const MistakeSpot& s,
                    const std::string& move) {
  const Game& g = *mg.game;
  analysis::OpenedSource src = analysis::open_source(g.rules(), ctx.table_store.get());
  const analysis::RankedMoves ranked = analysis::rank_moves(*src.source, s.before);
  const analysis::PuzzleMove& best = ranked.moves[static_cast<std::size_t>(ranked.best)];
  json moves = json::array();
  double mine = -1;
  for (const analysis::PuzzleMove& m : ranked.moves) {
    moves.push_back({{"move", move_text(m.move)}, {"value", m.value}});
    if (move_text(m.move) == move) mine = m.value;
  }
  const analysis::ThemeSet themes = analysis::puzzle_themes(g.engine(), s.before, best.move);
  const std::vector<std::string> names = analysis::theme_names(themes);
  std::string reason = "it keeps the best winning chance";
  analysis::Theme first;
  if (!names.empty() && analysis::theme_from_name(names.front(), first))
    reason = std::string(analysis::theme_reason(first));
  // A move as good as the best (a tie) is right too.
  return json{{"correct", mine >= best.value - 1e-9},
              {"best", move_text(best.move)},
              {"moves", std::move(moves)},
              {"themes", names},
              {"reason", reason},
              {"played", s.played},
              {"grade", s.grade},
              {"estimate", !src.source->exact()}};
}

awaitable<Response> mistake_attempt(ServerContext& ctx, const Request& req, const std::string& id,
                                    int event) {
  json body = json::parse(req.body(), nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("move") ||
      !body["move"].is_string())
    co_return error_json(req, Errc::kBadRequest, "expected {\"move\": \"FROM->TO\"}");
  const std::string move = body["move"].get<std::string>();
  auto job = [&ctx, id, event, move]() -> std::variant<json, Error> {
    MistakeGame mg = load_mistakes(ctx, id);
    if (!mg.game) return mg.error;
    auto it = std::find_if(mg.spots.begin(), mg.spots.end(),
                           [&](const MistakeSpot& s) { return s.event == event; });
    if (it == mg.spots.end()) return Error(ServerErrc::kNotFound, "no mistake at this event");
    const auto legal = legal_texts(mg.game->engine(), it->before);
    if (std::find(legal.begin(), legal.end(), move) == legal.end())
      return Error(Errc::kIllegalMove, "move: not a legal move here");
    return mistake_answer(ctx, mg, *it, move);
  };
  auto answer = co_await offload(ctx, std::move(job));
  if (auto* e = std::get_if<Error>(&answer)) co_return error_json(req, e->code, e->message);
  co_return json_reply(req, http::status::ok, std::get<json>(answer));
}

}  // namespace

awaitable<Response> route_mistakes_api(ServerContext& ctx, const Request& req,
                                       const std::vector<std::string_view>& segments,
                                       const std::string& ip) {
  if (!ctx.puzzle_ip_limiter.allow(ip)) {
    Response res =
        error_json(req, ServerErrc::kRateLimited, "too many puzzle requests; wait a little");
    res.set(http::field::retry_after, "1");
    co_return res;
  }
  const std::string id(segments[1]);
  if (!is_table_id(id)) co_return error_json(req, ServerErrc::kNotFound, "no such game");
  const bool list = segments.size() == 3;
  const bool attempt = segments.size() == 5 && segments[4] == "attempt";
  const http::verb want = list ? http::verb::get : http::verb::post;
  if (!list && !attempt) co_return error_json(req, ServerErrc::kNotFound, "no such endpoint");
  if (req.method() != want) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "method not allowed on this endpoint");
    res.set(http::field::allow, http::to_string(want));
    co_return res;
  }
  if (attempt) {
    if (!is_json_request(req))
      co_return error_json(req, ServerErrc::kNotJson, "send Content-Type: application/json");
    int event = -1;
    const std::string_view e = segments[3];
    auto [end, ec] = std::from_chars(e.data(), e.data() + e.size(), event);
    if (ec != std::errc{} || end != e.data() + e.size() || event < 0)
      co_return error_json(req, ServerErrc::kNotFound, "no mistake at this event");
    co_return co_await mistake_attempt(ctx, req, id, event);
  }
  const std::string seat_text = query_param(req.target(), "seat");
  if (seat_text != "1" && seat_text != "2")
    co_return error_json(req, Errc::kBadRequest, "seat: 1 or 2");
  const int seat = seat_text[0] - '0';
  auto job = [&ctx, id, seat]() -> std::variant<json, Error> {
    MistakeGame mg = load_mistakes(ctx, id);
    if (!mg.game) return mg.error;
    return mistakes_json(mg, id, seat);
  };
  auto answer = co_await offload(ctx, std::move(job));
  if (auto* e = std::get_if<Error>(&answer)) co_return error_json(req, e->code, e->message);
  co_return json_reply(req, http::status::ok, std::get<json>(answer));
}

}  // namespace ur::server
