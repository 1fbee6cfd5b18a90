// Presence shared by the nodes of a cluster (docs/scaling.md, "Friends and presence"): which
// accounts have a live WebSocket on some node. Each account with a socket somewhere has a Redis
// sorted set ur:online:<user id> whose members are the nodes holding one of its sockets, each
// scored with the unix ms until which its entry holds (the node's clock + kPresenceTtl). A node
// adds its entry when an account's first socket opens there, renews every entry it holds each
// kPresenceRenew, and removes its entry when the account's last socket there closes; a node that
// dies leaves its entries to run out (within kPresenceTtl). The set's key expires with its
// newest entry, so nothing outlives the accounts that were online.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/cluster/redis_commands.h"

namespace ur::server {

inline constexpr std::chrono::milliseconds kPresenceTtl{30'000};
inline constexpr std::chrono::milliseconds kPresenceRenew{10'000};

class SharedPresence {
 public:
  SharedPresence(RedisCommands& redis, std::string node) : redis_(redis), node_(std::move(node)) {}

  // Adds or renews this node's entry of each account (a few hundred keys per script). Queued in
  // order with drop(): a caller that orders its calls (under one lock) has them applied so.
  void hold(const std::vector<std::int64_t>& users, std::int64_t now_ms);
  // Removes this node's entry of the account.
  void drop(std::int64_t user);
  // Which of `users` some node holds at `now_ms`, in their order; nullopt when Redis did not
  // answer (the caller then knows only its own node).
  boost::asio::awaitable<std::optional<std::vector<bool>>> online(std::vector<std::int64_t> users,
                                                                  std::int64_t now_ms);

 private:
  RedisCommands& redis_;
  const std::string node_;
};

}  // namespace ur::server
