// The idle clock of a live table: whose clock runs, until when, and the timer that ends the game
// when it runs out. The deadline is unix milliseconds, stored with every commit (TableRow::
// clock_deadline) and, with several nodes, when a game's first move starts being timed (its
// player's page opened the table), so that the node taking a table over keeps the remaining
// time; every node shows the clock, only the lease holder runs the timer (table_lease.h).
#include <algorithm>
#include <chrono>

#include "server/cluster/table_lease.h"
#include "server/log.h"
#include "server/tables/table_runner.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

json TableRunner::clock_json(const LiveTable& t) const {
  if (!t.clock_seat) return nullptr;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      t.clock_deadline - std::chrono::steady_clock::now());
  return json{{"seat", t.clock_seat},
              {"remaining_ms", std::max<std::int64_t>(0, left.count())},
              {"timeout_ms", d_.timing.idle_timeout.count()}};
}

int TableRunner::clock_seat_for(const LiveTable& t, const TableModel& m, bool started) const {
  int seat = m.seat_to_act();
  if (!seat || m.bot_to_act() || d_.timing.idle_timeout.count() <= 0) return 0;
  // Against the computer nobody waits for the player: no clock, so a newcomer who stops to read
  // the board never loses on time.
  const auto& seats = m.seats();
  if (std::any_of(seats.begin(), seats.end(),
                  [](const Seat& s) { return s.kind == SeatKind::kBot; }))
    return 0;
  // Two people at one device (pass and play) take the time they like.
  if (m.local()) return 0;
  // The game's first move waits for the player's page (a match found while they looked away).
  if (m.game().events().empty() && !t.loaded[seat - 1] && !started) return 0;
  return seat;
}

void TableRunner::arm_clock(const std::shared_ptr<LiveTable>& t) {
  t->idle_timer.cancel();
  t->clock_seat = 0;
  if (stopping_) return;
  int seat = clock_seat_for(*t, t->model, t->deadline_ms != 0);
  if (!seat) return arm_abort(t);
  std::int64_t now_ms = unix_now_ms();
  if (!t->deadline_ms) t->deadline_ms = now_ms + d_.timing.idle_timeout.count();
  // Every node shows the clock (clock_json); only the lease holder runs it.
  t->clock_seat = seat;
  t->clock_deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(t->deadline_ms - now_ms);
  if (!runs_timers(*t)) return;
  t->idle_timer.expires_at(t->clock_deadline);
  std::int64_t version = t->model.version();
  t->idle_timer.async_wait(
      [this, weak = std::weak_ptr<LiveTable>(t), version](boost::system::error_code ec) {
        auto table = weak.lock();
        if (ec || !table || stopping_ || table->model.version() != version) return;
        apply_server_action(table, "idle timeout", version,
                            [](TableModel& m, TableEvents& ev) { return m.time_out(ev); });
      });
}

net::awaitable<void> TableRunner::mark_loaded(std::shared_ptr<LiveTable> t, int seat) {
  if (seat < 1 || seat > 2 || t->loaded[seat - 1]) co_return;
  t->loaded[seat - 1] = true;
  if (t->clock_seat || t->model.seat_to_act() != seat) co_return;
  arm_clock(t);
  if (d_.clustered && t->clock_seat) co_await keep_clock_start(t);
}

net::awaitable<void> TableRunner::keep_clock_start(std::shared_ptr<LiveTable> t) {
  // The first move's clock starts here, between commits, on whichever node the page opened:
  // stored, so that the holder and a node taking the table over run the same clock. The gate
  // holds the table's next operation until the row answers; the strand's thread does not wait.
  auto store = [calls = d_.storage, id = t->model_id, version = t->model.version(),
                deadline = t->deadline_ms] {
    return calls.db().start_clock(id, version, deadline);
  };
  bool stored = false;
  try {
    stored = co_await on_storage(d_.storage, std::move(store));
  } catch (const StorageError& e) {
    log_line("table " + t->model_id + ": clock start not stored: " + e.what());
    co_return;  // this node's clock runs; a takeover would start it again
  }
  if (!stored) {
    // Another node started it first, or the table moved on: the stored row says which.
    t->deadline_ms = 0;
    co_await reload(t);
    co_return;
  }
  // The holder hears of it from this broadcast (same version, a clock where it had none).
  publish(*t, {});
}

}  // namespace ur::server
