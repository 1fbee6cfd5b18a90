// The `hint` message (docs/protocol.md): the best move for the player whose move it is, in an
// unrated game against the computer. The server knows the position, so the client sends only
// the table. The move is the explorer's best (analysis/explore.h): exact from the solved table
// when the server has one, else estimated by search, and marked so. Each hint given is counted
// for the seat in the table's state (a version bump, broadcast like any change), so the game's
// summary and its review say how many hints each player used. A rated game, a game between two
// people, a spectator or a player who must throw first is refused with a code.
//
// The search runs on the worker pool, never on the table's strand; the table may move on
// meanwhile (the computer cannot: it waits for this player), so the count is committed (through
// the table's gate) only if the version is still the one the hint was computed for.
#include "analysis/explore.h"
#include "server/log.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

namespace {

struct HintQuestion {
  std::optional<Error> error;
  RuleSet rules;
  Position position{};
  std::int64_t version = 0;
  int seat = 0;
};

struct HintAnswer {
  Move best{};
  double value = 0;  // the player's winning chance after the best move
  bool estimate = false;
};

HintAnswer best_move(const solver::TableStore& tables, const RuleSet& rules, const Position& p) {
  analysis::OpenedSource src = analysis::open_source(rules, &tables);
  if (src.table == analysis::TableState::kRefused)
    log_line("hint: table refused, estimating: " + src.why);
  const analysis::Exploration x = analysis::explore(*src.source, p);
  HintAnswer out;
  out.estimate = x.estimate;
  for (const analysis::ExploredMove& m : x.moves)
    if (m.best) out.best = m.move, out.value = m.value;
  return out;
}

}  // namespace

awaitable<void> TableService::on_hint(WsClient& c, const json& msg) {
  auto field = msg.find("table");
  if (field == msg.end() || !field->is_string() || !is_table_id(field->get<std::string>())) {
    c.send(error_reply(msg, Errc::kBadRequest, "field \"table\" is not a table id"));
    co_return;
  }
  const std::string id = field->get<std::string>();
  auto t = co_await find_or_answer(c, msg, id);
  if (!t) co_return;
  const Actor actor = actor_of(c.identity(), c.connection_id());
  auto ask = [t, actor] {
    const TableModel& m = t->model;
    return HintQuestion{m.check_hint(actor), m.game().rules(), m.game().position(), m.version(),
                        m.seat_of(actor.key)};
  };
  HintQuestion q = co_await run_on(t->strand, std::move(ask));
  if (q.error) {
    json j = error_reply(msg, q.error->code, q.error->message);
    j["table"] = id;
    c.send(j);
    co_return;
  }
  auto search = [tables = ctx_.table_store.get(), rules = q.rules, p = q.position] {
    return best_move(*tables, rules, p);
  };
  const HintAnswer a = co_await offload(ctx_, std::move(search));
  json answer = reply_to("hint", msg);
  answer["table"] = id;
  answer["from"] = a.best.from;
  answer["to"] = a.best.to;
  answer["kind"] = move_kind_name(a.best.kind);
  answer["value"] = a.value;
  answer["estimate"] = a.estimate;
  auto give = give_hint(t, c, actor, q.version, q.seat, std::move(answer));
  if (auto e = co_await runner_.run_gated(t, std::move(give))) {
    json j = error_reply(msg, e->code, e->message);
    j["table"] = id;
    c.send(j);
  }
}

TableService::Outcome TableService::give_hint(std::shared_ptr<LiveTable> t, WsClient& c,
                                              Actor actor, std::int64_t version, int seat,
                                              json answer) {
  if (t->model.version() != version)
    co_return Error{ServerErrc::kStaleVersion, "the table has changed since; ask for a hint again"};
  if (auto e = t->model.check_hint(actor)) co_return e;
  TableModel next = t->model;
  TableEvents events;
  next.count_hint(seat, events);
  auto done = runner_.commit(t, std::move(next), std::move(events));
  if (auto e = co_await std::move(done)) co_return e;
  answer["hints"] = t->model.hints()[seat - 1];
  answer["version"] = t->model.version();
  c.send(answer);
  co_return std::nullopt;
}

}  // namespace ur::server
