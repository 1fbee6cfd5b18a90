// The table messages around a game (docs/protocol.md): the rematch after a finished game and the
// lobby's list of public tables. Matchmaking is in table_match.cpp.
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "rules/rule_set.h"
#include "server/accounts/accounts.h"
#include "server/log.h"
#include "server/tables/table_fields.h"
#include "server/tables/table_service.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

awaitable<void> TableService::on_rematch(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  bool accept = f.boolean("accept").value_or(true);
  if (f.failed) co_return;
  TableWork answer = [this, &c, &msg, accept](std::shared_ptr<LiveTable> t, Actor actor) {
    return answer_rematch(std::move(t), c, msg, std::move(actor), accept);
  };
  co_await on_table_message(c, msg, *id, std::move(answer));
}

TableService::Outcome TableService::answer_rematch(std::shared_ptr<LiveTable> t, WsClient& c,
                                                   const json& msg, Actor actor, bool accept) {
  TableModel next = t->model;
  TableEvents events;
  if (auto e = next.rematch(actor, accept, events)) co_return e;
  std::shared_ptr<LiveTable> fresh;
  if (next.rematch_agreed()) {
    // Both said yes: a new table with the colours swapped, stored before anyone hears of it.
    std::array<Actor, 2> players = next.rematch_players();
    auto made = TableModel::create_match(random_token_hex(8), next.rules(), next.rated(),
                                         players[0], players[1], unix_now(), next.is_public());
    if (auto* e = std::get_if<Error>(&made)) co_return *e;
    TableModel& m = std::get<TableModel>(made);
    auto store = [this, row = m.to_row(unix_now())] { return ctx_.storage->save_table(row, -1); };
    bool stored = false;
    try {
      stored = co_await on_storage(ctx_, std::move(store));
    } catch (const StorageError& e) {
      log_line(std::string("rematch: ") + e.what());
    }
    if (!stored)
      co_return Error{Errc::kInternal, "could not create the rematch's table; try again"};
    next.start_rematch(m.id(), events);
    fresh = add_table(std::move(m));
  }
  if (!events.empty()) {
    auto done = runner_.commit(t, std::move(next), std::move(events));
    if (auto e = co_await std::move(done)) co_return e;
  }
  if (fresh) net::post(fresh->strand, [this, fresh] { runner_.arm_clock(fresh); });
  json j = reply_to("ok", msg);
  j["table"] = t->model.id();
  j["rematch"] = rematch_view(t->model);
  c.send(j);
  co_return std::nullopt;
}

json TableService::public_tables(int limit, int offset) {
  limit = std::clamp(limit, 1, kLobbyPageMax);
  offset = std::max(0, offset);
  // One more than asked for tells whether there is a next page.
  std::vector<TableRow> rows = ctx_.storage->public_tables({limit + 1, offset, unix_now()});
  bool more = rows.size() > static_cast<std::size_t>(limit);
  if (more) rows.pop_back();
  json list = json::array();
  for (const TableRow& row : rows) {
    json state = json::parse(row.state, nullptr, false);
    json seats = json::array();
    if (state.is_object() && state.contains("seats") && state["seats"].is_array())
      for (const json& s : state["seats"])
        seats.push_back(s.value("kind", "") == "empty" ? json(nullptr) : s.value("name", json()));
    list.push_back(json{{"id", row.id},
                        {"rules", row.rules},
                        {"status", row.status},
                        {"rated", row.rated},
                        {"version", row.version},
                        {"players", std::move(seats)},
                        {"updated_at", row.updated_at}});
  }
  return json{{"tables", std::move(list)},
              {"offset", offset},
              {"limit", limit},
              {"next_offset", more ? json(offset + limit) : json(nullptr)}};
}

awaitable<void> TableService::on_list(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto limit = f.integer("limit", false);
  auto offset = f.integer("offset", false);
  if (!f.failed && ((limit && (*limit < 1 || *limit > kLobbyPageMax)) || (offset && *offset < 0)))
    f.fail("field \"limit\" must be 1 to 100 and \"offset\" at least 0");
  if (f.failed) co_return;
  auto load = [this, l = static_cast<int>(limit.value_or(kLobbyPageDefault)),
               o = offset.value_or(0)] {
    return public_tables(l, static_cast<int>(std::min<std::int64_t>(o, 1'000'000)));
  };
  json j = reply_to("tables", msg);
  j.update(co_await offload(ctx_, std::move(load)));
  c.send(j);
}

}  // namespace ur::server
