// A node of a cluster keeps tables in its cache that other nodes change: every node may accept
// an action through the same versioned commit (docs/scaling.md). The database row is the truth;
// a cached table is brought up to it when this node learns that it is behind: a client quotes a
// newer version, a commit meets `conflict`, a client opens the table, or the bus reconnected
// after losing messages (then the table is broadcast again, so every watcher resyncs by its
// version), or — the lease holder — another node's broadcast carries a newer version. Always
// inside the table's gate, the read through on_storage: with PostgreSQL the strand's thread
// serves other tables while it is in the database.
#include <chrono>

#include "server/log.h"
#include "server/server_context.h"
#include "server/tables/table_runner.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;

net::awaitable<bool> TableRunner::reload(std::shared_ptr<LiveTable> t) {
  auto load = [calls = d_.storage, id = t->model_id] { return calls.db().find_table(id); };
  std::optional<TableRow> row;
  try {
    row = co_await on_storage(d_.storage, std::move(load));
  } catch (const StorageError& e) {
    log_line("table " + t->model_id + ": cannot reload: " + e.what());
    co_return false;
  }
  co_return row&& apply_row(t, *row);
}

bool TableRunner::apply_row(const std::shared_ptr<LiveTable>& t, const TableRow& row) {
  // The row names the lease holder: a node that lost its lease stops the table's timers here.
  if (d_.clustered && t->owned && (row.owner_node != d_.node || row.epoch != t->epoch))
    stop_timers(*t);
  if (row.version < t->model.version()) return false;
  bool newer = row.version > t->model.version();
  if (newer) {
    auto model = TableModel::from_row(row);
    if (auto* e = std::get_if<Error>(&model)) {
      log_line("table " + t->model_id + ": cannot reload: " + e->message);
      return false;
    }
    t->model = std::move(std::get<TableModel>(model));
    t->live = t->model.live();
    t->last_active = steady_seconds();
  }
  // The idle clock runs to the stored deadline (the node that committed set it); a first move
  // whose clock this node started from the player's page keeps it.
  bool deadline_moved = (newer || row.clock_deadline) && row.clock_deadline != t->deadline_ms;
  if (newer || row.clock_deadline) t->deadline_ms = row.clock_deadline;
  if (!newer && !deadline_moved) return false;
  // A computer seat to act is scheduled (its move is committed only if nobody moved meanwhile).
  arm_clock(t);
  schedule_bot(t);
  return newer;
}

void TableService::resync(const std::string& topic, bool lost) {
  auto id = table_of_topic(topic);
  if (!id || stopping_) return;
  if (auto t = tables_.find(*id)) runner_.post_gated(t, resync_table(t, lost));
}

TableService::Outcome TableService::resync_table(std::shared_ptr<LiveTable> t, bool lost) {
  if (stopping_) co_return std::nullopt;
  bool newer = co_await runner_.reload(t);
  // After a lost link every watcher may be behind: the snapshot goes again (the same version is
  // ignored by a client that has it; one behind draws it). After a first subscription the
  // watchers have what this node had read, so only a newer row is news to them.
  if (lost || newer) runner_.publish(*t, {});
  co_return std::nullopt;
}

}  // namespace ur::server
