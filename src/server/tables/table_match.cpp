// Matchmaking (docs/protocol.md: find_match, cancel_match, match_found): the queue of one node
// (Matchmaker, paired on the service strand) or, on a cluster with a Redis bus, the queue all
// nodes share (SharedMatchQueue, docs/scaling.md). The node whose pairing took a pair creates the
// table (start_pair, which the bot service's challenges use too); a player queued on another
// node hears `match_found` from their own node, which the pairing node tells through the bus
// topic match:<node id>.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
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

namespace {
std::string match_topic(const std::string& node) {
  return "match:" + node;
}
json unavailable(const json& msg) {
  return error_reply(msg, Errc::kInternal, "matchmaking is unavailable right now; try again");
}
}  // namespace

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
  json j = reply_to("queued", msg);
  j["rules"] = ticket.rules;
  j["rated"] = rated;
  j["rating"] = std::lround(actor.rating);
  if (shared_match_) {
    {
      std::lock_guard lock(match_mutex_);
      queued_[c.connection_id()] = ticket.key;
    }
    // Answered once Redis has the ticket, so `queued` always comes before `match_found`.
    auto done = [this, client = c.weak_client(), j, msg](bool ok) {
      auto live = client.lock();
      if (live) live->send(ok ? j : unavailable(msg));
      if (ok) net::post(service_strand_, [this] { pair_waiting(); });
    };
    shared_match_->add(SharedTicket{ticket, leases_.node(), 0}, 0, guarded(std::move(done)));
    co_return;
  }
  {
    std::lock_guard lock(match_mutex_);
    matchmaker_.add(ticket);
  }
  c.send(j);
  net::post(service_strand_, [this] { pair_waiting(); });
}

awaitable<void> TableService::on_cancel_match(WsClient& c, const json& msg) {
  std::string key = actor_of(c.identity(), c.connection_id()).key;
  json j = reply_to("ok", msg);
  if (shared_match_) {
    {
      std::lock_guard lock(match_mutex_);
      queued_.erase(c.connection_id());
    }
    auto done = [client = c.weak_client(), j](bool removed) mutable {
      j["cancelled"] = removed;
      if (auto live = client.lock()) live->send(j);
    };
    shared_match_->remove(key, "", 0, guarded(std::move(done)));
    co_return;
  }
  bool removed;
  {
    std::lock_guard lock(match_mutex_);
    removed = matchmaker_.remove_key(key);
  }
  j["cancelled"] = removed;
  c.send(j);
}

void TableService::drop_ticket(std::uint64_t connection) {
  if (!shared_match_) {
    std::lock_guard lock(match_mutex_);
    matchmaker_.remove_connection(connection);
    return;
  }
  std::string key;
  {
    std::lock_guard lock(match_mutex_);
    auto it = queued_.find(connection);
    if (it == queued_.end()) return;
    key = std::move(it->second);
    queued_.erase(it);
  }
  // Only the ticket this socket queued: the player may have queued again from another one.
  shared_match_->remove(key, leases_.node(), connection, {});
}

// On the service strand.
void TableService::pair_waiting() {
  if (shared_match_) {
    // A node that stops ticking (dead) has its tickets dropped after three ticks.
    shared_match_->heartbeat(leases_.node(),
                             std::max<long long>(3 * ctx_.config.match_tick.count(), 3'000));
    shared_match_->pair(guarded([this](SharedMatchQueue::Pairs pairs) {
      if (!pairs.empty())
        net::post(service_strand_, [this, p = std::move(pairs)] { start_shared_pairs(p); });
    }));
    return;
  }
  std::vector<std::pair<MatchTicket, MatchTicket>> pairs;
  {
    std::lock_guard lock(match_mutex_);
    pairs = matchmaker_.pair(std::chrono::steady_clock::now());
  }
  for (auto& [a, b] : pairs) {
    std::shared_ptr<WsClient> ca = local_client(a.connection), cb = local_client(b.connection);
    if (!ca || !cb) {  // one of them left meanwhile: the other waits on
      requeue(a, b);
      continue;
    }
    // Back in the queue at their old places if the table could not be stored (the database
    // away): paired again at the next tick, instead of waiting for a match that never comes.
    seat_pair(a, {ca, {}}, b, {cb, {}}, [this, a, b] { requeue(a, b); });
  }
}

// Each ticket of the pair whose socket is still here goes back to the queue, at its old place.
void TableService::requeue(const MatchTicket& a, const MatchTicket& b) {
  bool a_here = local_client(a.connection) != nullptr;
  bool b_here = local_client(b.connection) != nullptr;
  std::lock_guard lock(match_mutex_);
  if (a_here) matchmaker_.add(a);
  if (b_here) matchmaker_.add(b);
}

// The same in the shared queue: a player of another node is requeued (their node's heartbeat
// decides), one of this node only while their socket is here.
void TableService::requeue(const SharedTicket& a, const SharedTicket& b) {
  for (const SharedTicket* t : {&a, &b})
    if (t->node != leases_.node() || local_client(t->ticket.connection))
      shared_match_->add(*t, t->since_ms, {});
}

void TableService::keep_connection(WsClient& c) {
  std::lock_guard lock(conns_mutex_);
  conns_[c.connection_id()].client = c.weak_client();
}

std::shared_ptr<WsClient> TableService::local_client(std::uint64_t connection) {
  std::lock_guard lock(conns_mutex_);
  auto it = conns_.find(connection);
  return it == conns_.end() ? nullptr : it->second.client.lock();
}

// On the service strand: pairs the shared queue gave this node. A player of this node whose
// socket closed meanwhile is gone; the other goes back to the queue at their old place. A
// player of another node is told by that node (deliver_remote_match).
void TableService::start_shared_pairs(const SharedMatchQueue::Pairs& pairs) {
  const std::string& me = leases_.node();
  for (const auto& [a, b] : pairs) {
    std::shared_ptr<WsClient> ca, cb;
    if (a.node == me) ca = local_client(a.ticket.connection);
    if (b.node == me) cb = local_client(b.ticket.connection);
    if ((a.node == me && !ca) || (b.node == me && !cb)) {
      requeue(a, b);
      continue;
    }
    seat_pair(a.ticket, {ca, a.node == me ? "" : a.node}, b.ticket,
              {cb, b.node == me ? "" : b.node}, [this, a, b] { requeue(a, b); });
  }
}

// The new table's write leaves the service strand, which runs on a table thread (post_storage:
// the storage pool with PostgreSQL's connection pool, so a slow database stalls no table; inline
// with SQLite's one connection, where it would wait for that connection anyway).
void TableService::seat_pair(const MatchTicket& a, const Where& wa, const MatchTicket& b,
                             const Where& wb, std::function<void()> requeue) {
  bool a_light = secure_unit() < 0.5;
  auto actor = [](const MatchTicket& t) { return Actor{t.key, t.user_id, t.name, t.rating}; };
  PairSeat pa{wa.client, actor(a), nullptr, wa.node, a.connection};
  PairSeat pb{wb.client, actor(b), nullptr, wb.node, b.connection};
  if (!a_light) std::swap(pa, pb);
  auto store = [this, rules = a.rules, rated = a.rated, light = std::move(pa), dark = std::move(pb),
                requeue = std::move(requeue)] {
    auto made = start_pair(rules, rated, light, dark);
    if (auto* e = std::get_if<Error>(&made)) {
      log_line("matchmaking: " + e->message);
      if (requeue) requeue();
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
      return Error{Errc::kConflict, "the new table could not be stored; try again"};
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
      if (p->client) watch(*p->client, t, false);
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
  auto client = local_client(note["connection"].get<std::uint64_t>());
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
    watch(*client, t, false);
    json j = joined_message(*t, actor);
    j["type"] = "match_found";
    client->send(j);
  };
  co_await run_on(t->strand, std::move(seat));
}

void TableService::start_matchmaking() {
  RedisCommands* redis = ctx_.pubsub->redis();
  if (!redis) return;
  shared_match_ = std::make_unique<SharedMatchQueue>(*redis, "ur:match:", ctx_.config.match_window,
                                                     ctx_.config.match_window_per_sec);
  auto deliver = [this](const Payload& p) {
    net::co_spawn(service_strand_, deliver_remote_match(p), [](std::exception_ptr e) {
      try {
        if (e) std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        log_line(std::string("matchmaking: ") + ex.what());
      }
    });
  };
  match_sub_ = ctx_.pubsub->subscribe(match_topic(leases_.node()), guarded(std::move(deliver)));
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
