// TableRunner: what runs a live table (live_table.h) on its strand, and the only code that does.
// Every change of a table passes its gate (one operation at a time, in arrival order, across the
// co_await of the storage write); a change is written to storage first (commit: one transaction,
// version checked, from the storage pool when the backend runs several calls at once), and only
// then, on the strand, becomes the table's state and is published to the table's topic — so
// nothing is broadcast or answered that a crash could lose, and a failed write leaves the table
// as it was. The runner also owns the table's timers: the idle clock (the player to act who does
// nothing for idle_timeout loses; restarted in full after every change; its deadline stored with
// each commit), the first-move abort and the computer seat (its natural delay on the strand, its
// search on the bot pool, its move applied only if the table has not moved on). With several
// nodes only the lease holder runs the timers (LiveTable::owned), and their commits carry its
// epoch. It takes only what it uses: storage, the bus, the bot pool, the metrics and the timing.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "server/cluster/pubsub.h"
#include "server/server_context.h"
#include "server/tables/live_table.h"
#include "server/tables/table_model.h"

namespace ur::solver {
class TableStore;
}

namespace ur::server {

class TableRunner {
 public:
  using Outcome = boost::asio::awaitable<std::optional<Error>>;
  struct Timing {
    std::chrono::milliseconds idle_timeout;
    std::chrono::milliseconds first_move_abort;
    std::chrono::milliseconds bot_delay;
  };
  struct Deps {
    StorageCalls storage;
    PubSub& pubsub;
    boost::asio::thread_pool& bot_pool;
    const solver::TableStore* table_store;  // the computer's perfect level; may be null
    Timing timing;
    // With a bus shared with other nodes: only the lease holder runs a table's timers, and a
    // cached table may be behind the database.
    bool clustered;
    // This node's id in the leases (LeaseBook::node): a stored row naming another holder stops
    // this node's timers. Read on the strands once the node has started.
    const std::string& node;
    // A game has just ended and is stored: its review (game_review.h).
    std::function<void(MatchRow)> finished;
  };
  explicit TableRunner(Deps deps) : d_(std::move(deps)) {}

  // From now on no timer is armed and no server action commits (the pools stop next).
  void stop() { stopping_ = true; }
  bool stopping() const { return stopping_; }
  bool runs_timers(const LiveTable& t) const { return !d_.clustered || t.owned; }

  // Runs `op` on the table's strand when the table's gate lets it in, and resumes the caller
  // (on its own executor) with its outcome.
  Outcome run_gated(std::shared_ptr<LiveTable> t, Outcome op);
  // The same for an operation nobody awaits (a lease change, a resync): its errors are logged.
  void post_gated(std::shared_ptr<LiveTable> t, Outcome op);
  void post_gated(std::shared_ptr<LiveTable> t, std::function<void()> work);

  // Inside the gate: writes `next` to storage (on_storage: the strand free meanwhile when the
  // backend runs several calls at once), then makes it the table's state, re-arms the clock,
  // runs `before_publish` (the change is stored, nobody has heard of it), publishes `events` and
  // schedules the computer. `epoch` fences the commit (kAnyEpoch: only the version does; a
  // player's action, docs/scaling.md).
  Outcome commit(std::shared_ptr<LiveTable> t, TableModel next, TableEvents events,
                 std::function<void()> before_publish = {}, std::int64_t epoch = kAnyEpoch);
  // On the strand: the table's snapshot, `events`, its spectators and clock, to its topic.
  void publish(LiveTable& t, const TableEvents& events);

  // An action of the server itself (the idle clock, a computer seat, an expiry) for the table at
  // `version`: through the gate, applied to a copy and committed unless the table moved on
  // meanwhile; a refusal or a failed commit is logged (there is no client to answer).
  using ServerAction = std::function<std::optional<Error>(TableModel&, TableEvents&)>;
  void apply_server_action(const std::shared_ptr<LiveTable>& t, const char* what,
                           std::int64_t version, ServerAction action);

  // The idle clock (table_clock.cpp), on the strand. arm_clock restarts it for the model as it
  // is (or, with no clock yet, the first-move abort: table_abort.cpp).
  void arm_clock(const std::shared_ptr<LiveTable>& t);
  nlohmann::json clock_json(const LiveTable& t) const;
  // The seat whose idle clock runs in `m` (0: none); `started`: a clock already runs for it.
  int clock_seat_for(const LiveTable& t, const TableModel& m, bool started) const;
  // Inside the gate: a seated player's page has the table: its first move may now be timed.
  boost::asio::awaitable<void> mark_loaded(std::shared_ptr<LiveTable> t, int seat);
  // The computer seat's turn, if it is its turn (table_computer.cpp), on the strand.
  void schedule_bot(const std::shared_ptr<LiveTable>& t);
  // On the strand: this node stops the table's timers (its lease lost to another node, or
  // handed back: then nothing is logged).
  void stop_timers(LiveTable& t, bool handed_back = false);

  // Cluster (table_refresh.cpp): another node may have moved the table on. Inside the gate:
  // reads the row (on_storage), brings the cache up to it when storage has a newer version
  // (true) and re-arms the timers.
  boost::asio::awaitable<bool> reload(std::shared_ptr<LiveTable> t);

 private:
  Outcome server_action(std::shared_ptr<LiveTable> t, const char* what, std::int64_t version,
                        ServerAction action);
  // With no clock yet: the timer that aborts a game whose first player never opens the table.
  void arm_abort(const std::shared_ptr<LiveTable>& t);
  // Inside the gate, with several nodes: stores the first move's clock start (through
  // on_storage), or adopts the one another node stored first.
  boost::asio::awaitable<void> keep_clock_start(std::shared_ptr<LiveTable> t);
  void bot_turn(const std::shared_ptr<LiveTable>& t, std::int64_t version);
  // On the strand: brings the cache up to a stored row (a newer version, the stored deadline;
  // true when the model changed) and stops the timers when the row says another node holds it.
  bool apply_row(const std::shared_ptr<LiveTable>& t, const TableRow& row);

  Deps d_;
  std::atomic<bool> stopping_{false};
};

// The dice of the server: a uniform double in [0, 1) from the OS CSPRNG (libsodium).
double secure_unit();
// The computer seat's name for a level (TableModel::create's ComputerName), from ai/'s levels.
// `tables` is the server's table store: the perfect level without a solved table plays as hard.
std::optional<std::string> computer_name(const std::string& level, const RuleSet& rules,
                                         const solver::TableStore* tables);

}  // namespace ur::server
