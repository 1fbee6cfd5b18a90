// TableMatchmaking: the queue players wait in for a match (docs/protocol.md: find_match,
// cancel_match, match_found) — this node's own (Matchmaker, paired on the service strand) or, on
// a cluster with a Redis bus, the queue all nodes share (SharedMatchQueue, docs/scaling.md). Its
// own mutex guards the local queue and which player each of this node's sockets queued. The node
// whose pairing took a pair seats it (SeatPair: the table service's start_pair); a player queued
// on another node hears `match_found` from their own node, told through the bus topic
// match:<node id> (Deliver).
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "server/cluster/matchmaker.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_match.h"
#include "server/protocol/ws_dispatch.h"
#include "server/tables/live_table.h"
#include "server/tables/table_watchers.h"

namespace ur::server {

// The bus topic of the matches another node made for players of `node`.
std::string match_topic(const std::string& node);

class TableMatchmaking {
 public:
  struct Where {
    std::shared_ptr<WsClient> client;  // null: a player of another node
    std::string node;
  };
  // Seats a pair at a new table off the service strand; `requeue` runs when it could not be
  // stored, so that the pair is not lost, or with `apart` when one of the two blocks the other:
  // both go back to their places, never to be paired with each other.
  using Requeue = std::function<void(bool apart)>;
  using SeatPair = std::function<void(const MatchTicket&, const Where&, const MatchTicket&,
                                      const Where&, Requeue requeue)>;
  // A pair made on another node seats a player of this one (the topic's payload).
  using Deliver = std::function<void(const Payload&)>;
  struct Window {
    double base = 100, per_second = 25;
    std::chrono::milliseconds tick{1'000};
  };
  // `node` is this node's id (LeaseBook::node), read once the node has started.
  TableMatchmaking(LiveTable::Strand service_strand, PubSub& bus, TableWatchers& watchers,
                   Window window, const std::string& node, SeatPair seat);
  ~TableMatchmaking();
  TableMatchmaking(const TableMatchmaking&) = delete;
  TableMatchmaking& operator=(const TableMatchmaking&) = delete;

  // With a Redis bus: the shared queue, and the topic of matches made elsewhere. Then the
  // pairing ticks start (on the service strand).
  void start(Deliver deliver);
  void stop();
  // Queues the ticket of connection `c`; sends `queued` (the answer to `msg`) once the queue has
  // it, or that matchmaking is unavailable.
  void add(WsClient& c, const MatchTicket& ticket, const nlohmann::json& queued,
           const nlohmann::json& msg);
  // Takes the ticket of player `key` out of the queue; sends `ok` with `cancelled`.
  void cancel(WsClient& c, const std::string& key, nlohmann::json ok);
  // A connection closed: its ticket leaves the queue.
  void drop(std::uint64_t connection);

 private:
  void tick();
  void pair_waiting();  // on the service strand
  void start_shared_pairs(const SharedMatchQueue::Pairs& pairs);
  void requeue(MatchTicket a, MatchTicket b, bool apart);
  void requeue(SharedTicket a, SharedTicket b, bool apart);
  // Wraps a callback of the Redis thread so that it does nothing once this queue is gone.
  template <class F>
  auto guarded(F f) {
    return [alive = alive_, f = std::move(f)](auto&&... args) mutable {
      std::lock_guard lock(alive->mutex);
      if (alive->on) f(std::forward<decltype(args)>(args)...);
    };
  }

  LiveTable::Strand strand_;
  PubSub& bus_;
  TableWatchers& watchers_;
  Window window_;
  const std::string& node_;
  SeatPair seat_;
  std::atomic<bool> stopping_{false};

  std::mutex mutex_;
  Matchmaker matchmaker_;
  // With a Redis bus: the shared queue, and which player each of this node's sockets queued.
  std::unique_ptr<SharedMatchQueue> shared_;
  std::unordered_map<std::uint64_t, std::string> queued_;
  struct Alive {
    std::mutex mutex;
    bool on = true;
  };
  std::shared_ptr<Alive> alive_ = std::make_shared<Alive>();
  boost::asio::steady_timer timer_;
  Subscription sub_;  // match:<node id>: pairs made elsewhere that seat a player here
};

}  // namespace ur::server
