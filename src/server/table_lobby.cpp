// The table messages around a game (docs/protocol.md): the rematch after a finished game, the
// lobby's list of public tables and matchmaking (the queue of find_match, paired on the service
// strand, and the new table of a pair, which the bot service's challenges use too).
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "rules/rule_set.h"
#include "server/accounts.h"
#include "server/log.h"
#include "server/table_fields.h"
#include "server/table_service.h"
#include "server/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

awaitable<void> TableService::on_rematch(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  bool accept = f.boolean("accept").value_or(true);
  if (f.failed) co_return;
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  auto answer = [this, t, &c, &msg, actor, accept]() -> std::optional<Error> {
    TableModel next = t->model;
    json events = json::array();
    if (auto e = next.rematch(actor, accept, events)) return e;
    std::shared_ptr<LiveTable> fresh;
    if (next.rematch_agreed()) {
      // Both said yes: a new table with the colours swapped, stored before anyone hears of it.
      auto [light, dark] = next.rematch_players();
      auto made = TableModel::create_match(random_token_hex(8), next.rules(), next.rated(), light,
                                           dark, unix_now(), next.is_public());
      if (auto* e = std::get_if<Error>(&made)) return *e;
      TableModel& m = std::get<TableModel>(made);
      try {
        if (!ctx_.storage->save_table(m.to_row(unix_now()), -1))
          return Error{Errc::kInternal, "could not create the rematch's table; try again"};
      } catch (const StorageError& e) {
        log_line(std::string("rematch: ") + e.what());
        return Error{Errc::kInternal, "could not create the rematch's table; try again"};
      }
      next.start_rematch(m.id(), events);
      fresh = add_table(std::move(m));
    }
    if (!events.empty())
      if (auto e = commit(t, std::move(next), events)) return e;
    if (fresh) net::post(fresh->strand, [this, fresh] { arm_clock(fresh); });
    json j = reply_to("ok", msg);
    j["table"] = t->model.id();
    j["rematch"] = rematch_view(t->model);
    c.send(j);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(answer))) send_table_error(c, msg, *e, *id);
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

awaitable<void> TableService::on_find_match(WsClient& c, const json& msg) {
  Fields f{c, msg};
  std::string rules_text = "finkel";
  bool rated = false;
  if (auto v = f.string("rules", false, 200)) rules_text = *v;
  if (auto v = f.boolean("rated")) rated = *v;
  if (f.failed) co_return;
  auto parsed = parse_rule_set(rules_text);
  if (auto* e = std::get_if<Error>(&parsed)) {
    c.send(error_reply(msg, Errc::kBadRules, "rules: " + e->reason));
    co_return;
  }
  Actor actor = co_await fresh_actor(c);
  if (rated && !actor.is_user()) {
    c.send(error_reply(msg, Errc::kLoginRequired, "rated games need an account"));
    co_return;
  }
  MatchTicket ticket{actor.key,
                     actor.user_id,
                     actor.name,
                     c.connection_id(),
                     std::get<RuleSet>(parsed).to_string(),
                     rated,
                     actor.rating,
                     std::chrono::steady_clock::now()};
  {
    std::lock_guard lock(conns_mutex_);
    conns_[c.connection_id()].client = c.weak_client();
  }
  {
    std::lock_guard lock(match_mutex_);
    matchmaker_.add(ticket);
  }
  json j = reply_to("queued", msg);
  j["rules"] = ticket.rules;
  j["rated"] = rated;
  j["rating"] = std::lround(actor.rating);
  c.send(j);
  net::post(service_strand_, [this] { pair_waiting(); });
}

awaitable<void> TableService::on_cancel_match(WsClient& c, const json& msg) {
  bool removed;
  {
    std::lock_guard lock(match_mutex_);
    removed = matchmaker_.remove_key(actor_of(c.identity(), c.connection_id()).key);
  }
  json j = reply_to("ok", msg);
  j["cancelled"] = removed;
  c.send(j);
  co_return;
}

// On the service strand.
void TableService::pair_waiting() {
  std::vector<std::pair<MatchTicket, MatchTicket>> pairs;
  {
    std::lock_guard lock(match_mutex_);
    pairs = matchmaker_.pair(std::chrono::steady_clock::now());
  }
  for (auto& [a, b] : pairs) {
    std::shared_ptr<WsClient> ca, cb;
    {
      std::lock_guard lock(conns_mutex_);
      if (auto it = conns_.find(a.connection); it != conns_.end()) ca = it->second.client.lock();
      if (auto it = conns_.find(b.connection); it != conns_.end()) cb = it->second.client.lock();
    }
    if (!ca || !cb) {  // one of them left meanwhile: the other waits on
      std::lock_guard lock(match_mutex_);
      if (ca) matchmaker_.add(a);
      if (cb) matchmaker_.add(b);
      continue;
    }
    bool a_light = secure_unit() < 0.5;
    auto actor = [](const MatchTicket& t) { return Actor{t.key, t.user_id, t.name, t.rating}; };
    PairSeat light{a_light ? ca : cb, actor(a_light ? a : b), nullptr};
    PairSeat dark{a_light ? cb : ca, actor(a_light ? b : a), nullptr};
    auto made = start_pair(a.rules, a.rated, std::move(light), std::move(dark));
    if (auto* e = std::get_if<Error>(&made)) log_line("matchmaking: " + e->message);
  }
}

Result<std::shared_ptr<LiveTable>> TableService::start_pair(const std::string& rules, bool rated,
                                                            PairSeat light, PairSeat dark) {
  auto made = TableModel::create_match(random_token_hex(8), rules, rated, light.actor, dark.actor,
                                       unix_now());
  if (auto* e = std::get_if<Error>(&made)) return *e;
  try {
    if (!ctx_.storage->save_table(std::get<TableModel>(made).to_row(unix_now()), -1))
      return Error{Errc::kConflict, "the new table could not be stored; try again"};
  } catch (const StorageError& e) {
    log_line(std::string("start table: ") + e.what());
    return Error{Errc::kInternal, "the new table could not be stored"};
  }
  auto t = add_table(std::move(std::get<TableModel>(made)));
  net::post(t->strand, [this, t, light, dark] {
    watch(*light.client, t, false);
    watch(*dark.client, t, false);
    arm_clock(t);
    for (const PairSeat* p : {&light, &dark}) {
      json j = joined_message(*t, p->actor);
      j["type"] = "match_found";
      if (!p->re.is_null()) j["re"] = p->re;
      p->client->send(j);
    }
  });
  return t;
}

void TableService::match_tick() {
  if (stopping_) return;
  pair_waiting();
  match_timer_.expires_after(ctx_.config.match_tick);
  match_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) match_tick();
  });
}

}  // namespace ur::server
