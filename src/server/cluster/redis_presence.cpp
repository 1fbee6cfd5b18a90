#include "server/cluster/redis_presence.h"

#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace ur::server {
namespace {

// KEYS: the accounts' sets; ARGV: node, until (ms), now (ms), ttl (ms). Drops the entries that
// ran out and keeps each key at least as long as this entry.
constexpr const char* kHoldPresence = R"(
for _, k in ipairs(KEYS) do
  redis.call('ZADD', k, ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', k, '-inf', '(' .. ARGV[3])
  if redis.call('PTTL', k) < tonumber(ARGV[4]) then redis.call('PEXPIRE', k, ARGV[4]) end
end
return #KEYS
)";

// KEYS: the accounts' sets; ARGV: now (ms). How many entries of each still hold.
constexpr const char* kOnlineCount = R"(
local out = {}
for i, k in ipairs(KEYS) do out[i] = redis.call('ZCOUNT', k, '(' .. ARGV[1], '+inf') end
return out
)";

constexpr std::size_t kPresenceKeysPerScript = 500;

std::string presence_key(std::int64_t user) {
  return "ur:online:" + std::to_string(user);
}

}  // namespace

void SharedPresence::hold(const std::vector<std::int64_t>& users, std::int64_t now_ms) {
  for (std::size_t at = 0; at < users.size(); at += kPresenceKeysPerScript) {
    std::size_t n = std::min(kPresenceKeysPerScript, users.size() - at);
    std::vector<std::string> command{"EVAL", kHoldPresence, std::to_string(n)};
    for (std::size_t i = 0; i < n; ++i) command.push_back(presence_key(users[at + i]));
    command.push_back(node_);
    command.push_back(std::to_string(now_ms + kPresenceTtl.count()));
    command.push_back(std::to_string(now_ms));
    command.push_back(std::to_string(kPresenceTtl.count()));
    redis_.call(std::move(command), [](RedisReply) {});  // a lost renewal: the next one
  }
}

void SharedPresence::drop(std::int64_t user) {
  redis_.call({"ZREM", presence_key(user), node_}, [](RedisReply) {});
}

boost::asio::awaitable<std::optional<std::vector<bool>>> SharedPresence::online(
    std::vector<std::int64_t> users, std::int64_t now_ms) {
  std::vector<bool> out;
  for (std::size_t at = 0; at < users.size(); at += kPresenceKeysPerScript) {
    std::size_t n = std::min(kPresenceKeysPerScript, users.size() - at);
    std::vector<std::string> command{"EVAL", kOnlineCount, std::to_string(n)};
    for (std::size_t i = 0; i < n; ++i) command.push_back(presence_key(users[at + i]));
    command.push_back(std::to_string(now_ms));
    RedisReply r = co_await async_redis(redis_, std::move(command), boost::asio::use_awaitable);
    if (r.kind != RedisReply::Kind::kArray || r.elements.size() != n) co_return std::nullopt;
    for (const RedisReply& e : r.elements)
      out.push_back(e.kind == RedisReply::Kind::kInteger && e.integer > 0);
  }
  co_return out;
}

}  // namespace ur::server
