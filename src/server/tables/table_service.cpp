#include "server/tables/table_service.h"

#include <algorithm>

#include <sodium.h>

#include <boost/asio/post.hpp>

#include "server/log.h"
#include "server/tables/game_review.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

namespace {

std::int64_t steady_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string topic_of(const std::string& table_id) {
  return "table:" + table_id;
}

}  // namespace

double secure_unit() {
  std::uint64_t x;
  randombytes_buf(&x, sizeof x);
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

TableService::TableService(ServerContext& ctx)
    : ctx_(ctx),
      matchmaker_(ctx.config.match_window, ctx.config.match_window_per_sec),
      service_strand_(net::make_strand(ctx.table_pool.get_executor())),
      match_timer_(service_strand_),
      sweep_timer_(service_strand_),
      lease_timer_(service_strand_),
      leases_(*ctx.storage, ctx.config.leases) {}

TableService::~TableService() {
  std::lock_guard lock(alive_->mutex);
  alive_->on = false;
}

std::shared_ptr<LiveTable> TableService::add_table(TableModel model) {
  std::lock_guard lock(tables_mutex_);
  auto it = tables_.find(model.id());
  if (it != tables_.end()) return it->second;  // someone loaded it first: theirs is current
  auto t = std::make_shared<LiveTable>(net::make_strand(ctx_.table_pool.get_executor()),
                                       std::move(model));
  t->last_active = steady_seconds();
  t->live = t->model.live();
  tables_.emplace(t->model.id(), t);
  // With several nodes, the first node to have a table (its creator, usually) runs its timers.
  if (clustered_) net::post(t->strand, [this, t] { claim(t); });
  return t;
}

std::size_t TableService::cached_tables() {
  std::lock_guard lock(tables_mutex_);
  return tables_.size();
}

std::size_t TableService::restore() {
  // With several nodes the tables are shared: each node takes the expired leases (lease_tick).
  if (clustered_) return 0;
  std::vector<TableRow> rows = ctx_.storage->live_tables();
  std::size_t restored = 0;
  for (const TableRow& row : rows) {
    auto model = TableModel::from_row(row);
    if (auto* e = std::get_if<Error>(&model)) {
      log_line("not restoring table: " + e->message);
      continue;
    }
    auto t = add_table(std::move(std::get<TableModel>(model)));
    net::post(t->strand, [this, t] {
      arm_clock(t);
      schedule_bot(t);
    });
    ++restored;
  }
  return restored;
}

net::awaitable<std::shared_ptr<LiveTable>> TableService::find(std::string id) {
  {
    std::lock_guard lock(tables_mutex_);
    if (auto it = tables_.find(id); it != tables_.end()) co_return it->second;
  }
  auto load = [this, id] { return ctx_.storage->find_table(id); };
  std::optional<TableRow> row = co_await offload(ctx_, std::move(load));
  if (!row) co_return nullptr;
  auto model = TableModel::from_row(*row);
  if (auto* e = std::get_if<Error>(&model)) {
    log_line(e->message);
    co_return nullptr;
  }
  auto t = add_table(std::move(std::get<TableModel>(model)));
  auto arm = [this, t, stored = *row] {
    // The stored idle deadline is kept across nodes; one node alone restarts it in full.
    if (clustered_ && t->model.version() == stored.version) t->deadline_ms = stored.clock_deadline;
    arm_clock(t);
    schedule_bot(t);
  };
  co_await run_on(t->strand, std::move(arm));
  co_return t;
}

std::optional<Error> TableService::commit(const std::shared_ptr<LiveTable>& t, TableModel next,
                                          const json& events,
                                          const std::function<void()>& before_publish,
                                          std::int64_t epoch) {
  std::int64_t now = unix_now();
  std::int64_t expected = t->model.version();
  bool finishing = t->model.status() == TableStatus::kPlaying &&
                   next.status() != TableStatus::kPlaying && next.game().is_over();
  // The clock restarts in full with every change; its deadline is stored with the change.
  std::int64_t deadline =
      clock_seat_for(*t, next, false) ? unix_now_ms() + ctx_.config.idle_timeout.count() : 0;
  try {
    bool ok;
    TableRow row = next.to_row(now);
    row.clock_deadline = deadline;
    if (finishing) {
      MatchRow match = next.match_row(now);
      ok = ctx_.storage->finish_game(row, expected, match, epoch);
      if (ok) review_in_background(ctx_, match);
      if (ok && match.rated) {
        next.set_ratings(match.rating_before, match.rating_after);
        // The ratings are in the match already; the table's own copy is for its summary.
        ctx_.storage->save_table(next.to_row(now), next.version(), epoch);
      }
    } else {
      ok = ctx_.storage->save_table(row, expected, epoch);
    }
    if (!ok) {
      log_line("table " + t->model.id() + ": version or epoch conflict in storage; change refused");
      // Another node moved it on: the retry starts from the stored state.
      if (clustered_) refresh(t);
      return Error{Errc::kConflict, "the table changed elsewhere; reload it and try again"};
    }
  } catch (const StorageError& e) {
    log_line(std::string("table commit failed: ") + e.what());
    return Error{Errc::kInternal, "the server could not save that; nothing was changed"};
  }
  t->model = std::move(next);
  t->last_active = steady_seconds();
  t->live = t->model.live();
  t->deadline_ms = deadline;
  arm_clock(t);
  if (before_publish) before_publish();
  publish(*t, events);
  schedule_bot(t);
  return std::nullopt;
}

void TableService::apply_server_action(
    const std::shared_ptr<LiveTable>& t, const char* what,
    const std::function<std::optional<Error>(TableModel&, json&)>& action) {
  if (!runs_timers(*t)) return;  // the lease went to another node meanwhile
  TableModel next = t->model;
  json events = json::array();
  if (auto e = action(next, events)) {
    log_line(std::string(what) + " refused: " + e->message);
    return;
  }
  // Fenced by the epoch: a holder whose lease was taken over cannot commit a server action.
  if (auto e = commit(t, std::move(next), events, {}, clustered_ ? t->epoch : kAnyEpoch))
    log_line(std::string(what) + " not saved: " + e->message);
}

void TableService::publish(LiveTable& t, const json& events) {
  json msg = envelope("table");
  msg["table"] = table_snapshot(t.model);
  msg["events"] = events;
  msg["spectators"] = t.spectators.load();
  msg["clock"] = clock_json(t);
  ctx_.pubsub->publish(topic_of(t.model.id()),
                       std::make_shared<const std::string>(
                           msg.dump(-1, ' ', false, json::error_handler_t::replace)));
}

void TableService::publish_spectators(LiveTable& t) {
  json msg = envelope("spectators");
  msg["table"] = t.model_id;
  msg["count"] = t.spectators.load();
  ctx_.pubsub->publish(topic_of(t.model_id), std::make_shared<const std::string>(msg.dump()));
}

void TableService::evict_spectators(LiveTable& t) {
  std::vector<std::shared_ptr<WsClient>> told;
  {
    std::lock_guard lock(conns_mutex_);
    for (auto& [id, conn] : conns_) {
      auto it = conn.watching.find(t.model_id);
      if (it == conn.watching.end() || !it->second.spectator) continue;
      conn.watching.erase(it);  // unsubscribes: nothing more reaches this connection
      t.spectators--;
      if (auto client = conn.client.lock()) told.push_back(std::move(client));
    }
  }
  if (told.empty()) return;
  json msg = envelope("table_private");
  msg["table"] = t.model_id;
  msg["message"] = "this table became private: you are no longer watching it";
  auto payload =
      std::make_shared<const std::string>(msg.dump(-1, ' ', false, json::error_handler_t::replace));
  for (auto& client : told) client->send(payload);
}

void TableService::watch(WsClient& c, const std::shared_ptr<LiveTable>& t, bool spectator) {
  const std::string& id = t->model_id;
  std::weak_ptr<WsClient> weak = c.weak_client();
  std::lock_guard lock(conns_mutex_);
  Conn& conn = conns_[c.connection_id()];
  conn.client = weak;
  auto it = conn.watching.find(id);
  if (it != conn.watching.end()) {
    if (it->second.spectator == spectator) return;
    if (it->second.spectator) {
      t->spectators--;
      publish_spectators(*t);
    }
    conn.watching.erase(it);
  }
  Watch w;
  w.table = t;
  w.spectator = spectator;
  w.sub = ctx_.pubsub->subscribe(topic_of(id), [weak](const Payload& p) {
    if (auto client = weak.lock()) client->send(p);
  });
  conn.watching.emplace(id, std::move(w));
  if (spectator) {
    t->spectators++;
    publish_spectators(*t);
  }
}

void TableService::unwatch(std::uint64_t connection, const std::string& table_id) {
  std::lock_guard lock(conns_mutex_);
  auto c = conns_.find(connection);
  if (c == conns_.end()) return;
  auto it = c->second.watching.find(table_id);
  if (it == c->second.watching.end()) return;
  std::shared_ptr<LiveTable> t = it->second.spectator ? it->second.table.lock() : nullptr;
  c->second.watching.erase(it);
  if (t) {
    t->spectators--;
    publish_spectators(*t);
  }
}

void TableService::release(Conn& conn) {
  std::vector<std::shared_ptr<LiveTable>> watched;
  for (auto& [id, w] : conn.watching)
    if (w.spectator)
      if (auto t = w.table.lock()) watched.push_back(std::move(t));
  conn.watching.clear();  // unsubscribes
  for (auto& t : watched) {
    t->spectators--;
    publish_spectators(*t);
  }
}

void TableService::on_close(WsClient& client) {
  Conn gone;
  {
    std::lock_guard lock(conns_mutex_);
    auto it = conns_.find(client.connection_id());
    if (it != conns_.end()) {
      gone = std::move(it->second);
      conns_.erase(it);
    }
  }
  release(gone);
  drop_ticket(client.connection_id());
}

void TableService::start(const std::string& node_name) {
  ctx_.pubsub->set_resync([this](const std::string& topic) { resync(topic); });
  leases_.start(node_name);
  start_matchmaking();
  net::post(service_strand_, [this] {
    match_tick();
    sweep_cache();
    if (clustered_) lease_tick();
  });
}

void TableService::shutdown() {
  stopping_ = true;
  ctx_.pubsub->set_resync({});
  match_sub_.reset();
  net::post(service_strand_, [this] {
    match_timer_.cancel();
    sweep_timer_.cancel();
    lease_timer_.cancel();
  });
  // Usually handed back already (hand_back, at the start of a graceful stop; then this does
  // nothing). Here, not on the service strand: the pools stop right after this. The other nodes
  // take the tables at their next sweep, within one renewal period, not a whole lease after
  // this node is gone; a renewal still under way cannot take them back (LeaseBook::release).
  if (clustered_) {
    try {
      if (std::size_t n = leases_.release())
        log_line("table leases: handed back " + std::to_string(n) + " on stopping");
    } catch (const StorageError& e) {
      log_line(std::string("table leases: not handed back: ") + e.what());
    }
  }
  std::lock_guard lock(tables_mutex_);
  for (auto& [id, t] : tables_) {
    t->bot_stop.request_stop();
    net::post(t->strand, [t] {
      t->idle_timer.cancel();
      t->bot_timer.cancel();
    });
  }
}

void TableService::sweep_cache() {
  if (stopping_) return;
  std::int64_t now = steady_seconds();
  auto ttl = std::chrono::duration_cast<std::chrono::seconds>(ctx_.config.table_cache_ttl).count();
  {
    std::lock_guard lock(tables_mutex_);
    std::erase_if(tables_, [&](const auto& entry) {
      const auto& t = entry.second;
      // An evicted table is simply loaded again on demand.
      return !t->live && t->last_active + ttl <= now && t->spectators == 0 &&
             ctx_.pubsub->subscribers(topic_of(entry.first)) == 0;
    });
  }
  {
    // A connection that closed while matchmaking seated it may have left an entry behind.
    std::lock_guard lock(conns_mutex_);
    for (auto it = conns_.begin(); it != conns_.end();) {
      if (!it->second.client.expired()) {
        ++it;
        continue;
      }
      release(it->second);
      it = conns_.erase(it);
    }
  }
  sweep_timer_.expires_after(std::chrono::seconds(30));
  sweep_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) sweep_cache();
  });
}

}  // namespace ur::server
