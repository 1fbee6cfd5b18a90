// One live table as the table service keeps it (table_service.h) and its runner runs it
// (table_runner.h): its strand, its gate, its model and timers, the watchers counted on this node, and what a cluster node knows of its lease;
// and the name of its topic on the bus (pubsub.h).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "ai/agent.h"
#include "server/cluster/pubsub.h"
#include "server/tables/table_model.h"

namespace ur::server {

// The bus topic of a table: its watchers' subscriptions and its broadcasts (pubsub.h). The one
// place the topic's name is written: table_of_topic reads it back.
inline constexpr std::string_view kTableTopicPrefix = "table:";
inline std::string table_topic(const std::string& table_id) {
  return std::string(kTableTopicPrefix) + table_id;
}
// The table a topic is the topic of; nullopt for any other topic (a node's match topic).
inline std::optional<std::string> table_of_topic(std::string_view topic) {
  if (!topic.starts_with(kTableTopicPrefix)) return std::nullopt;
  return std::string(topic.substr(kTableTopicPrefix.size()));
}

// A table broadcast hidden from some accounts (a quick message from a player they block:
// table_chat.cpp, docs/server.md "Blocking"): kHiddenMark, the accounts' ids each followed by
// ',', then '\n' and the message. No JSON text starts with this byte, so a watcher tells it from
// an ordinary broadcast by one comparison, and a lease holder's reader (which parses only
// `table` messages) passes over it.
inline constexpr char kHiddenMark = '\x1e';
std::string hidden_from(const std::vector<std::int64_t>& users, std::string_view message);
// What a watcher signed in as `user` (0: a guest) is sent of a hidden broadcast: its message, or
// nullopt when `user` is one it is hidden from.
std::optional<std::string> shown_to(std::string_view payload, std::int64_t user);

// The steady clock in seconds: when a table was last active (LiveTable::last_active).
inline std::int64_t steady_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One operation of a table at a time, in arrival order, including across the co_await of its
// storage write (a strand alone orders only what runs without suspending). Used on the table's
// strand only. The turn passes straight from one operation to the next waiting one.
class TableGate {
 public:
  // Resumes the calling coroutine (on its strand) when its turn comes.
  boost::asio::awaitable<void> enter();
  // Ends the turn of the operation inside: the next waiting one goes in.
  void leave();

  // Leaves the gate when the operation's coroutine ends, however it ends.
  class Pass {
   public:
    explicit Pass(TableGate& g) : gate_(g) {}
    ~Pass() { gate_.leave(); }
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;

   private:
    TableGate& gate_;
  };

 private:
  bool busy_ = false;
  std::deque<std::function<void()>> waiting_;  // each resumes one coroutine on its strand
};

struct LiveTable {
  using Strand = boost::asio::strand<boost::asio::thread_pool::executor_type>;
  LiveTable(Strand s, TableModel m)
      : model_id(m.id()),
        rules(m.rules()),
        strand(s),
        model(std::move(m)),
        idle_timer(s),
        bot_timer(s) {}

  const std::string model_id;  // readable off the strand
  const std::string rules;     // the same: GET /metrics counts the live tables by rule set
  Strand strand;
  TableGate gate;    // on the strand: whatever changes the model goes through it
  TableModel model;  // touched only on the strand
  boost::asio::steady_timer idle_timer;
  boost::asio::steady_timer bot_timer;
  int clock_seat = 0;  // whose idle clock runs (0: none)
  // Seats whose page has opened (or joined) the table: a game's first move is not timed before.
  std::array<bool, 2> loaded{};
  std::chrono::steady_clock::time_point clock_deadline{};
  std::unique_ptr<ai::Agent> bot;
  std::stop_source bot_stop;
  bool bot_busy = false;
  std::atomic<int> spectators{0};
  std::atomic<std::int64_t> last_active{0};  // steady clock, seconds: for the cache sweep
  // Steady clock, ms: since when the sweep has seen no player's page on the table (0: a player
  // is there). On the service strand (table_expiry.cpp).
  std::int64_t gone_since_ms = 0;
  // Steady clock, ms: each seat's last quick message (table_chat.cpp). On the strand.
  std::array<std::int64_t, 2> last_quick_ms{};
  // Connections of this node that watch the table as each seat's player (table_watchers.cpp):
  // a seat going from 0 to 1 or back is broadcast as `presence`.
  std::array<std::atomic<int>, 2> present{};
  std::atomic<bool> live{true};  // model.live(), readable off the strand
  // The idle deadline as stored (unix ms, 0 = none): written by the last commit, so a node that
  // takes the table over keeps the remaining time. On the strand.
  std::int64_t deadline_ms = 0;
  // Cluster (table_leases.cpp), on the strand: whether this node holds the table's lease, at
  // which epoch, and the subscription through which the holder hears of other nodes' commits.
  bool owned = false;
  std::int64_t epoch = 0;
  Subscription lease_sub;
};

}  // namespace ur::server
