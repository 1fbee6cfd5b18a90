// The idle clock of a live table: whose clock runs, until when, and the timer that ends the game
// when it runs out. The deadline is unix milliseconds, stored with every commit (TableRow::
// clock_deadline), so that with several nodes the one taking a table over keeps the remaining
// time; every node shows the clock, only the lease holder runs the timer (table_lease.h).
#include <algorithm>
#include <chrono>

#include "server/log.h"
#include "server/tables/table_service.h"

namespace ur::server {
using json = nlohmann::json;

json TableService::clock_json(const LiveTable& t) const {
  if (!t.clock_seat) return nullptr;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      t.clock_deadline - std::chrono::steady_clock::now());
  return json{{"seat", t.clock_seat},
              {"remaining_ms", std::max<std::int64_t>(0, left.count())},
              {"timeout_ms", ctx_.config.idle_timeout.count()}};
}

int TableService::clock_seat_for(const LiveTable& t, const TableModel& m, bool started) const {
  int seat = m.seat_to_act();
  if (!seat || m.bot_to_act() || ctx_.config.idle_timeout.count() <= 0) return 0;
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

void TableService::arm_clock(const std::shared_ptr<LiveTable>& t) {
  t->idle_timer.cancel();
  t->clock_seat = 0;
  if (stopping_) return;
  int seat = clock_seat_for(*t, t->model, t->deadline_ms != 0);
  if (!seat) return;
  std::int64_t now_ms = unix_now_ms();
  if (!t->deadline_ms) t->deadline_ms = now_ms + ctx_.config.idle_timeout.count();
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
                            [](TableModel& m, json& ev) { return m.time_out(ev); });
      });
}

void TableService::mark_loaded(const std::shared_ptr<LiveTable>& t, int seat) {
  if (seat < 1 || seat > 2 || t->loaded[seat - 1]) return;
  t->loaded[seat - 1] = true;
  if (!t->clock_seat && t->model.seat_to_act() == seat) arm_clock(t);
}

}  // namespace ur::server
