// A token bucket kept in Redis, shared by every node of a cluster (docs/scaling.md, "Shared rate
// limits"): `burst` requests at once per key, refilled at `refill_per_sec`, as RateLimiter does
// in one process. Behind a balancer a client reaches every node, so a bucket per node would give
// it one quota per node; this one is counted once. One Lua script per request, atomic in Redis,
// timed by the Redis server's clock; the bucket's key expires once it would be full again.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

#include "server/cluster/redis_commands.h"

namespace ur::server {

struct RateVerdict {
  bool allowed = false;
  int retry_after_seconds = 0;  // when refused: until the next token
};

// Takes a token from the shared bucket `key` (under "ur:rate:"); nullopt when Redis could not
// answer (the caller then falls back to its own node's limiter).
boost::asio::awaitable<std::optional<RateVerdict>> take_shared_token(RedisCommands& redis,
                                                                     std::string key, double burst,
                                                                     double refill_per_sec);

}  // namespace ur::server
