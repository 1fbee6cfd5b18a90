#include "server/tables/table_service.h"

#include <algorithm>

#include <sodium.h>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/log.h"
#include "server/tables/game_review.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

namespace {

std::int64_t steady_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
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
  auto made = std::make_shared<LiveTable>(net::make_strand(ctx_.table_pool.get_executor()),
                                          std::move(model));
  made->last_active = steady_seconds();
  made->live = made->model.live();
  auto [t, added] = tables_.insert(std::move(made));
  // With several nodes, the first node to have a table (its creator, usually) runs its timers.
  if (added && clustered_) post_gated(t, claim(t));
  return t;
}

std::size_t TableService::cached_tables() {
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
  if (auto t = tables_.find(id)) co_return t;
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

awaitable<void> TableGate::enter() {
  if (!busy_) {
    busy_ = true;
    co_return;
  }
  auto wait = [this](auto handler) {
    // Handlers are move-only; the queue holds copyable functions.
    auto h = std::make_shared<decltype(handler)>(std::move(handler));
    waiting_.push_back([h] {
      auto ex = net::get_associated_executor(*h);
      net::post(ex, std::move(*h));
    });
  };
  co_await net::async_initiate<const net::use_awaitable_t<>, void()>(wait, net::use_awaitable);
}

void TableGate::leave() {
  if (waiting_.empty()) {
    busy_ = false;
    return;
  }
  // busy_ stays set: the turn goes to the first in line, never to a newcomer.
  auto next = std::move(waiting_.front());
  waiting_.pop_front();
  next();
}

namespace {

// On the table's strand: `op` once the gate lets it in.
awaitable<std::optional<Error>> through_gate(std::shared_ptr<LiveTable> t,
                                             awaitable<std::optional<Error>> op) {
  co_await t->gate.enter();
  TableGate::Pass pass(t->gate);
  co_return co_await std::move(op);
}

// A plain function as an operation (a plain coroutine: see detail::call_on_pool).
awaitable<std::optional<Error>> call(std::function<void()> work) {
  work();
  co_return std::nullopt;
}

// The end of an operation nobody awaits: its error was logged where it arose; an exception is
// logged here.
void log_failure(std::exception_ptr e, const std::optional<Error>&) {
  try {
    if (e) std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    log_line(std::string("table: ") + ex.what());
  }
}

}  // namespace

TableService::Outcome TableService::on_table(std::shared_ptr<LiveTable> t, Outcome op) {
  auto inside = through_gate(t, std::move(op));
  co_return co_await net::co_spawn(t->strand, std::move(inside), net::use_awaitable);
}

void TableService::post_gated(std::shared_ptr<LiveTable> t, Outcome op) {
  auto strand = t->strand;
  net::co_spawn(strand, through_gate(std::move(t), std::move(op)), log_failure);
}

void TableService::post_gated(std::shared_ptr<LiveTable> t, std::function<void()> work) {
  post_gated(std::move(t), call(std::move(work)));
}

TableService::Outcome TableService::commit(std::shared_ptr<LiveTable> t, TableModel next,
                                           TableEvents events, std::function<void()> before_publish,
                                           std::int64_t epoch) {
  std::int64_t now = unix_now();
  std::int64_t expected = t->model.version();
  bool finishing = t->model.status() == TableStatus::kPlaying &&
                   next.status() != TableStatus::kPlaying && next.game().is_over();
  // The clock restarts in full with every change; its deadline is stored with the change.
  std::int64_t deadline =
      clock_seat_for(*t, next, false) ? unix_now_ms() + ctx_.config.idle_timeout.count() : 0;
  // The write runs on the storage pool while this coroutine waits (on_storage: with PostgreSQL's
  // connection pool; SQLite's one connection is written inline): the strand serves other
  // tables meanwhile, and this table's gate holds its next operation back. `next` lives in this
  // frame until the write returns.
  auto write = [this, &next, expected, finishing, now, deadline, epoch] {
    TableRow row = next.to_row(now);
    row.clock_deadline = deadline;
    if (!finishing) {
      bool saved = ctx_.storage->save_table(row, expected, epoch);
      if (saved) next.saved();  // the next commit appends after this one
      return saved;
    }
    MatchRow match = next.match_row(now);
    bool ok = ctx_.storage->finish_game(row, expected, match, epoch);
    if (ok) next.saved();
    if (ok) review_in_background(ctx_, match);
    if (ok && match.rated) {
      next.set_ratings(match.rating_before, match.rating_after);
      // The ratings are in the match already; the table's own copy is for its summary.
      ctx_.storage->save_table(next.to_row(now), next.version(), epoch);
    }
    return ok;
  };
  bool ok = false;
  try {
    ok = co_await on_storage(ctx_, std::move(write));
  } catch (const StorageError& e) {
    log_line(std::string("table commit failed: ") + e.what());
    co_return Error{Errc::kInternal, "the server could not save that; nothing was changed"};
  }
  if (!ok) {
    log_line("table " + t->model.id() + ": version or epoch conflict in storage; change refused");
    // Another node moved it on: the retry starts from the stored state.
    if (clustered_) co_await reload(t);
    co_return Error{Errc::kConflict, "the table changed elsewhere; reload it and try again"};
  }
  t->model = std::move(next);
  t->last_active = steady_seconds();
  t->live = t->model.live();
  t->deadline_ms = deadline;
  arm_clock(t);
  if (before_publish) before_publish();
  publish(*t, events);
  schedule_bot(t);
  co_return std::nullopt;
}

void TableService::apply_server_action(const std::shared_ptr<LiveTable>& t, const char* what,
                                       std::int64_t version, ServerAction action) {
  net::co_spawn(t->strand, through_gate(t, server_action(t, what, version, std::move(action))),
                log_failure);
}

TableService::Outcome TableService::server_action(std::shared_ptr<LiveTable> t, const char* what,
                                                  std::int64_t version, ServerAction action) {
  // The lease went to another node, or an operation that waited at the gate moved the table on
  // (its commit armed the clock and scheduled the computer anew).
  if (stopping_ || !runs_timers(*t) || t->model.version() != version) co_return std::nullopt;
  TableModel next = t->model;
  TableEvents events;
  if (auto e = action(next, events)) {
    log_line(std::string(what) + " refused: " + e->message);
    co_return std::nullopt;
  }
  // Fenced by the epoch: a holder whose lease was taken over cannot commit a server action.
  auto done = commit(t, std::move(next), std::move(events), {}, clustered_ ? t->epoch : kAnyEpoch);
  if (auto e = co_await std::move(done)) log_line(std::string(what) + " not saved: " + e->message);
  co_return std::nullopt;
}

void TableService::publish(LiveTable& t, const TableEvents& events) {
  json msg = envelope("table");
  msg["table"] = table_snapshot(t.model);
  msg["events"] = events_json(events);
  msg["spectators"] = t.spectators.load();
  msg["clock"] = clock_json(t);
  ctx_.pubsub->publish(table_topic(t.model.id()),
                       std::make_shared<const std::string>(
                           msg.dump(-1, ' ', false, json::error_handler_t::replace)));
}

void TableService::start(const std::string& node_name) {
  ctx_.pubsub->set_resync([this](const std::string& topic, bool lost) { resync(topic, lost); });
  // Accounts banned or deleted on any node (table_moderation.cpp publishes there).
  accounts_sub_ =
      ctx_.pubsub->subscribe("accounts", [this](const Payload& p) { account_closed(p); });
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
  accounts_sub_.reset();
  net::post(service_strand_, [this] {
    match_timer_.cancel();
    sweep_timer_.cancel();
    lease_timer_.cancel();
  });
  // Usually handed back already (hand_back, at the start of a graceful stop; then this does
  // nothing). Here, not on the service strand: the pools stop right after this. The other nodes
  // take the tables at their next sweep, within one renewal period, not a whole lease after
  // this node is gone; a renewal still under way cannot take them back (LeaseBook::release).
  if (clustered_) release_leases();
  for (auto& t : tables_.all()) {
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
  tables_.evict_if([&](const std::string& id, const LiveTable& t) {
    return !t.live && t.last_active + ttl <= now && t.spectators == 0 &&
           ctx_.pubsub->subscribers(table_topic(id)) == 0;
  });
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
  expire_tables();
  sweep_timer_.expires_after(sweep_period());
  sweep_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) sweep_cache();
  });
}

}  // namespace ur::server
