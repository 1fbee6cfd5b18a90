// Table expiry (docs/server.md, "Table expiry"): a live table whose seated players have all been
// gone for ServerConfig::abandon_after closes, when the idle clock cannot end it (a table waiting
// for its second player, pass and play, a game against the computer, a game whose first move is
// not timed yet). Between people the idle clock decides as before. "Gone" is measured by the
// cache sweep on the service strand: no connection of this node watches the table as a player.
// The close itself is a server action (the lease holder only, fenced by its epoch and the
// table's version), so a player who acts meanwhile, on any node, keeps the table.
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <unordered_set>

#include "server/tables/table_service.h"

namespace ur::server {
using json = nlohmann::json;

namespace {

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void TableService::expire_tables() {
  const std::int64_t after = ctx_.config.abandon_after.count();
  if (after <= 0 || stopping_) return;
  std::unordered_set<std::string> present = watchers_.tables_with_players();
  std::vector<std::shared_ptr<LiveTable>> due;
  const std::int64_t now = steady_ms();
  for (auto& t : tables_.all()) {
    if (!t->live || present.contains(t->model_id)) {
      t->gone_since_ms = 0;
      continue;
    }
    if (!t->gone_since_ms) t->gone_since_ms = now;
    bool quiet = (now / 1000 - t->last_active) * 1000 >= after;
    if (now - t->gone_since_ms >= after && quiet) due.push_back(t);
  }
  for (auto& t : due) {
    // On the table's strand: the version and whether a clock runs are read together, and the
    // server action drops the close if anything moved the table on before its turn at the gate.
    boost::asio::post(t->strand, [this, t] {
      if (!t->live || !runner_.runs_timers(*t)) return;
      bool clock_runs = t->clock_seat != 0;
      runner_.apply_server_action(
          t, "table expiry", t->model.version(),
          [clock_runs](TableModel& m, TableEvents& ev) { return m.abandon(clock_runs, ev); });
    });
  }
}

std::chrono::milliseconds TableService::sweep_period() const {
  // Often enough that a table closes within a tenth of --abandon-after of its due time.
  auto period = std::chrono::milliseconds(30'000);
  auto after = ctx_.config.abandon_after;
  if (after.count() > 0)
    period = std::min(period, std::max(after / 10, std::chrono::milliseconds(50)));
  return period;
}

}  // namespace ur::server
