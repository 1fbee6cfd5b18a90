// Matchmaking's messages (docs/protocol.md: find_match, cancel_match, match_found) and what the
// table service does with a pair the queue (table_matchmaking.h) made: the node whose pairing
// took a pair creates the table (start_pair, which the bot service's challenges and accepted
// challenges use too); a player queued on another node hears `match_found` from their own node,
// which the pairing node tells through the bus topic match:<node id> (deliver_remote_match).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "rules/rule_set.h"
#include "server/accounts/accounts.h"
#include "server/log.h"
#include "server/server_errc.h"
#include "server/tables/table_fields.h"
#include "server/tables/table_service.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

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
    c.send(error_reply(msg, ServerErrc::kLoginRequired, "rated games need an account"));
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
  json j = reply_to("queued", msg);
  j["rules"] = ticket.rules;
  j["rated"] = rated;
  j["rating"] = std::lround(actor.rating);
  matchmaking_.add(c, ticket, j, msg);
}

awaitable<void> TableService::on_cancel_match(WsClient& c, const json& msg) {
  matchmaking_.cancel(c, actor_of(c.identity(), c.connection_id()).key, reply_to("ok", msg));
  co_return;
}

// The new table's write leaves the service strand, which runs on a table thread (post_storage:
// the storage pool with PostgreSQL's connection pool, so a slow database stalls no table; inline
// with SQLite's one connection, where it would wait for that connection anyway). A block
// between the two accounts is read there too, when the pair is formed (the database holds
// every node's blocks): such a pair is not seated, and both go back to their places to be
// paired with someone else (docs/server.md, "Blocking").
void TableService::seat_pair(const MatchTicket& a, const Where& wa, const MatchTicket& b,
                             const Where& wb, TableMatchmaking::Requeue requeue) {
  bool a_light = secure_unit() < 0.5;
  auto actor = [](const MatchTicket& t) { return Actor{t.key, t.user_id, t.name, t.rating}; };
  PairSeat pa{wa.client, actor(a), nullptr, wa.node, a.connection};
  PairSeat pb{wb.client, actor(b), nullptr, wb.node, b.connection};
  if (!a_light) std::swap(pa, pb);
  auto store = [this, rules = a.rules, rated = a.rated, light = std::move(pa), dark = std::move(pb),
                requeue = std::move(requeue)] {
    const std::int64_t l = light.actor.user_id, d = dark.actor.user_id;
    bool blocked = false;
    try {
      AccountStore& accounts = ctx_.storage->accounts();
      blocked = l && d && (accounts.blocks(l, d) || accounts.blocks(d, l));
    } catch (const StorageError& e) {
      log_line(std::string("matchmaking: ") + e.what());
      if (requeue) requeue(false);
      return;
    }
    if (blocked) {
      if (requeue) requeue(true);
      return;
    }
    auto made = start_pair(rules, rated, light, dark);
    if (auto* e = std::get_if<Error>(&made)) {
      log_line("matchmaking: " + e->message);
      if (requeue) requeue(false);
    }
  };
  post_storage(ctx_, std::move(store));
}

Result<std::shared_ptr<LiveTable>> TableService::start_pair(const std::string& rules, bool rated,
                                                            PairSeat light, PairSeat dark) {
  auto made = TableModel::create_match(random_token_hex(8), rules, rated, light.actor, dark.actor,
                                       unix_now());
  if (auto* e = std::get_if<Error>(&made)) return *e;
  try {
    if (!ctx_.storage->save_table(std::get<TableModel>(made).to_row(unix_now()), -1))
      return Error{ServerErrc::kConflict, "the new table could not be stored; try again"};
  } catch (const StorageError& e) {
    log_line(std::string("start table: ") + e.what());
    return Error{Errc::kInternal, "the new table could not be stored"};
  }
  auto t = add_table(std::move(std::get<TableModel>(made)));
  // A player of another node: that node seats them (the table is stored already).
  for (const PairSeat* p : {&light, &dark})
    if (!p->client)
      ctx_.pubsub->publish(match_topic(p->node), std::make_shared<const std::string>(json{
                                                     {"table", t->model_id},
                                                     {"key", p->actor.key},
                                                     {"connection", p->connection}}.dump()));
  net::post(t->strand, [this, t, light, dark] {
    for (const PairSeat* p : {&light, &dark})
      if (p->client) watchers_.watch(*p->client, t, false);
    runner_.arm_clock(t);
    for (const PairSeat* p : {&light, &dark}) {
      if (!p->client) continue;
      json j = joined_message(*t, p->actor);
      j["type"] = "match_found";
      if (!p->re.is_null()) j["re"] = p->re;
      p->client->send(j);
    }
  });
  return t;
}

// A pair made on another node seated a player of this one: their socket watches the new table
// and hears `match_found`, as if the pair had been made here.
awaitable<void> TableService::deliver_remote_match(Payload payload) {
  json note = json::parse(*payload, nullptr, false);
  if (!note.is_object() || !note["table"].is_string() || !note["key"].is_string() ||
      !note["connection"].is_number_unsigned()) {
    log_line("matchmaking: ignoring a malformed match message");
    co_return;
  }
  std::string id = note["table"];
  auto client = watchers_.local_client(note["connection"].get<std::uint64_t>());
  Actor actor;
  if (client) actor = actor_of(client->identity(), client->connection_id());
  if (!client || actor.key != note["key"]) {
    // As when a page looks away: the game waits for the player to open it (docs/protocol.md).
    log_line("matchmaking: the player of table " + id + " left before it was found");
    co_return;
  }
  auto t = co_await find(id);
  if (!t) co_return;
  auto seat = [this, t, client, actor] {
    watchers_.watch(*client, t, false);
    json j = joined_message(*t, actor);
    j["type"] = "match_found";
    client->send(j);
  };
  co_await run_on(t->strand, std::move(seat));
}

void TableService::start_matchmaking() {
  auto deliver = [this](const Payload& p) {
    net::co_spawn(service_strand_, deliver_remote_match(p), [](std::exception_ptr e) {
      try {
        if (e) std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        log_line(std::string("matchmaking: ") + ex.what());
      }
    });
  };
  matchmaking_.start(std::move(deliver));
}

}  // namespace ur::server
