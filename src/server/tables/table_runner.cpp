#include "server/tables/table_runner.h"

#include <sodium.h>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/cluster/table_lease.h"
#include "server/log.h"
#include "server/protocol/ws_dispatch.h"
#include "server/server_errc.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

double secure_unit() {
  std::uint64_t x;
  randombytes_buf(&x, sizeof x);
  return static_cast<double>(x >> 11) * 0x1.0p-53;
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

TableRunner::Outcome TableRunner::run_gated(std::shared_ptr<LiveTable> t, Outcome op) {
  auto inside = through_gate(t, std::move(op));
  co_return co_await net::co_spawn(t->strand, std::move(inside), net::use_awaitable);
}

void TableRunner::post_gated(std::shared_ptr<LiveTable> t, Outcome op) {
  auto strand = t->strand;
  net::co_spawn(strand, through_gate(std::move(t), std::move(op)), log_failure);
}

void TableRunner::post_gated(std::shared_ptr<LiveTable> t, std::function<void()> work) {
  post_gated(std::move(t), call(std::move(work)));
}

TableRunner::Outcome TableRunner::commit(std::shared_ptr<LiveTable> t, TableModel next,
                                         TableEvents events, std::function<void()> before_publish,
                                         std::int64_t epoch) {
  std::int64_t now = unix_now();
  std::int64_t expected = t->model.version();
  bool finishing = t->model.status() == TableStatus::kPlaying &&
                   next.status() != TableStatus::kPlaying && next.game().is_over();
  // The clock restarts in full with every change; its deadline is stored with the change.
  std::int64_t deadline =
      clock_seat_for(*t, next, false) ? unix_now_ms() + d_.timing.idle_timeout.count() : 0;
  // The write runs on the storage pool while this coroutine waits (on_storage: with PostgreSQL's
  // connection pool; SQLite's one connection is written inline): the strand serves other
  // tables meanwhile, and this table's gate holds its next operation back. `next` lives in this
  // frame until the write returns.
  auto write = [this, &next, expected, finishing, now, deadline, epoch] {
    TableRow row = next.to_row(now);
    row.clock_deadline = deadline;
    if (!finishing) {
      bool saved = d_.storage.db().save_table(row, expected, epoch);
      if (saved) next.saved();  // the next commit appends after this one
      return saved;
    }
    MatchRow match = next.match_row(now);
    bool ok = d_.storage.db().finish_game(row, expected, match, epoch);
    if (ok) next.saved();
    if (ok) d_.finished(match);
    if (ok && match.rated) {
      next.set_ratings(match.rating_before, match.rating_after);
      // The ratings are in the match already; the table's own copy is for its summary.
      d_.storage.db().save_table(next.to_row(now), next.version(), epoch);
    }
    return ok;
  };
  bool ok = false;
  try {
    ok = co_await on_storage(d_.storage, std::move(write));
  } catch (const StorageError& e) {
    log_line(std::string("table commit failed: ") + e.what());
    co_return Error{Errc::kInternal, "the server could not save that; nothing was changed"};
  }
  if (!ok) {
    log_line("table " + t->model.id() + ": version or epoch conflict in storage; change refused");
    // Another node moved it on: the retry starts from the stored state.
    if (d_.clustered) co_await reload(t);
    co_return Error{ServerErrc::kConflict, "the table changed elsewhere; reload it and try again"};
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

void TableRunner::apply_server_action(const std::shared_ptr<LiveTable>& t, const char* what,
                                      std::int64_t version, ServerAction action) {
  net::co_spawn(t->strand, through_gate(t, server_action(t, what, version, std::move(action))),
                log_failure);
}

TableRunner::Outcome TableRunner::server_action(std::shared_ptr<LiveTable> t, const char* what,
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
  auto done =
      commit(t, std::move(next), std::move(events), {}, d_.clustered ? t->epoch : kAnyEpoch);
  if (auto e = co_await std::move(done)) log_line(std::string(what) + " not saved: " + e->message);
  co_return std::nullopt;
}

void TableRunner::publish(LiveTable& t, const TableEvents& events) {
  json msg = envelope("table");
  msg["table"] = table_snapshot(t.model);
  msg["events"] = events_json(events);
  msg["spectators"] = t.spectators.load();
  msg["clock"] = clock_json(t);
  d_.pubsub.publish(table_topic(t.model.id()),
                    std::make_shared<const std::string>(
                        msg.dump(-1, ' ', false, json::error_handler_t::replace)));
}

void TableRunner::stop_timers(LiveTable& t, bool handed_back) {
  if (!t.owned) return;
  // A finished game simply leaves the renewals.
  if (t.model.live() && !handed_back)
    log_line("table " + t.model_id + ": lease lost to another node; its timers stop here");
  t.owned = false;
  t.lease_sub.reset();
  t.idle_timer.cancel();
  t.bot_timer.cancel();
}

}  // namespace ur::server
