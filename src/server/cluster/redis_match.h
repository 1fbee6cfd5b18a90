// SharedMatchQueue: the "Find Match" queue of a cluster, in Redis (docs/scaling.md,
// "Matchmaking across nodes"), with the pairing rule of the in-process Matchmaker
// (matchmaker.h): the oldest ticket first, with the ticket of the same queue (rule set and rated
// flag) nearest in rating within the window of the one who waited longer, base + per_second *
// seconds waited. Wait times use the Redis server's clock (TIME), so nodes' clocks do not matter.
//
// Every operation is one Lua script, which Redis runs atomically: two nodes pairing at the same
// moment never take the same ticket, so each pair is made exactly once, by the node whose script
// took it; that node creates the table. A ticket names the node and connection that queued it;
// each node refreshes a heartbeat key every tick, and a ticket whose node's heartbeat has expired
// (the node died) is dropped by the next pairing instead of being matched.
//
// Keys (all under `prefix`, "ur:match:" for a server): t:<player key> a hash per ticket,
// a:<queue> (arrival order) and r:<queue> (rating) sorted sets, `queues` the set of queues with
// tickets, node:<node id> the heartbeats. One Redis server, not Redis Cluster (the scripts use
// keys they compute).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "server/cluster/matchmaker.h"
#include "server/cluster/redis_commands.h"

namespace ur::server {

// A ticket as the queue keeps it: the in-process one plus the node that queued it.
struct SharedTicket {
  MatchTicket ticket;  // `since` is not used: the wait is measured by Redis
  std::string node;
  long long since_ms = 0;  // when it was queued (Redis time)
};

class SharedMatchQueue {
 public:
  using Pairs = std::vector<std::pair<SharedTicket, SharedTicket>>;
  SharedMatchQueue(RedisCommands& redis, std::string prefix, double base_window,
                   double window_per_second)
      : redis_(redis),
        prefix_(std::move(prefix)),
        base_(base_window),
        per_second_(window_per_second) {}

  // Queues `t` (replacing the player's ticket, if any). `since_ms` > 0 keeps an earlier arrival
  // (a ticket put back); 0 = now. `done(ok)`: false when Redis did not take it.
  void add(const SharedTicket& t, long long since_ms, std::function<void(bool)> done);
  // Removes the player's ticket; `done(removed)`. With a node and a connection, only a ticket
  // queued from that connection (a socket that closed must not cancel a newer ticket).
  void remove(const std::string& key, const std::string& node, std::uint64_t connection,
              std::function<void(bool)> done);
  // This node is alive for `ttl_ms` more: its tickets may be paired.
  void heartbeat(const std::string& node, long long ttl_ms);
  // Takes every pair that can be made now out of the queue (empty on an error).
  void pair(std::function<void(Pairs)> done);

  // The queue of a rule set and rated flag, as a key part.
  static std::string queue_of(const std::string& rules, bool rated);

 private:
  RedisCommands& redis_;
  const std::string prefix_;
  const double base_, per_second_;
};

}  // namespace ur::server
