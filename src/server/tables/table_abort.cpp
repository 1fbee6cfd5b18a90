// A game whose first player never opens the table (a match found while they were away for good)
// would wait forever: its first move is not timed until their page has the table
// (table_clock.cpp). After `first_move_abort` without that, the game is aborted: the table closes
// with an `aborted` event that both players' sockets receive, no game is recorded and no rating
// changes (docs/server.md, "Tables"). The timer is the table's idle timer, which the clock takes
// over once the page opens; a restart or a takeover by another node starts it again in full.
#include "server/log.h"
#include "server/server_errc.h"
#include "server/tables/table_runner.h"

namespace ur::server {

std::optional<Error> TableModel::abort_unstarted(TableEvents& events) {
  int seat = seat_to_act();
  if (status_ != TableStatus::kPlaying || !seat || !game_.events().empty())
    return Error{ServerErrc::kNotPlaying, "only a game without its first move can be aborted"};
  status_ = TableStatus::kClosed;
  invite_.clear();
  events.push_back(AbortedEvent{seat});
  events.push_back(ClosedEvent{});
  bump();
  return std::nullopt;
}

void TableRunner::arm_abort(const std::shared_ptr<LiveTable>& t) {
  const TableModel& m = t->model;
  const auto after = d_.timing.first_move_abort;
  int seat = m.seat_to_act();
  if (after.count() <= 0 || stopping_ || !runs_timers(*t) || !seat || t->loaded[seat - 1] ||
      m.status() != TableStatus::kPlaying || !m.game().events().empty() || m.local())
    return;
  // Only between two people: a table against the computer was opened by its player.
  for (const Seat& s : m.seats())
    if (s.kind != SeatKind::kUser && s.kind != SeatKind::kGuest) return;
  t->idle_timer.expires_after(after);
  std::int64_t version = m.version();
  t->idle_timer.async_wait([this, weak = std::weak_ptr<LiveTable>(t),
                            version](boost::system::error_code ec) {
    auto table = weak.lock();
    if (ec || !table || stopping_ || table->model.version() != version) return;
    log_line("table " + table->model_id + ": first move never came; game aborted");
    apply_server_action(table, "first move abort", version,
                        [](TableModel& next, TableEvents& ev) { return next.abort_unstarted(ev); });
  });
}

}  // namespace ur::server
