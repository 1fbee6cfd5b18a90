#include "server/cluster/redis_rate.h"

#include <boost/asio/use_awaitable.hpp>

#include <charconv>
#include <vector>

namespace ur::server {
namespace {

// KEYS[1]: the bucket; ARGV: burst, refill per second. Returns {allowed (0/1), retry after s}.
constexpr const char* kTake = R"(
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local burst, refill = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(v[1]) or burst, tonumber(v[2]) or now
if now > at then tokens = math.min(burst, tokens + (now - at) / 1000 * refill) end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
local full_ms, retry = 3600000, 3600
if refill > 0 then
  full_ms = math.ceil((burst - tokens) / refill * 1000)
  retry = math.ceil((1 - tokens) / refill)
end
redis.call('PEXPIRE', KEYS[1], math.max(1000, full_ms))
if tokens >= 1 then retry = 0 end
return {allowed, retry}
)";

}  // namespace

boost::asio::awaitable<std::optional<RateVerdict>> take_shared_token(RedisCommands& redis,
                                                                     std::string key, double burst,
                                                                     double refill_per_sec) {
  std::vector<std::string> command{
      "EVAL", kTake, "1", "ur:rate:" + key, redis_number(burst), redis_number(refill_per_sec)};
  RedisReply r = co_await async_redis(redis, std::move(command), boost::asio::use_awaitable);
  if (r.kind != RedisReply::Kind::kArray || r.elements.size() != 2 ||
      r.elements[0].kind != RedisReply::Kind::kInteger)
    co_return std::nullopt;
  co_return RateVerdict{r.elements[0].integer == 1, static_cast<int>(r.elements[1].integer)};
}

}  // namespace ur::server
