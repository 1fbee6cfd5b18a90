#include "server/cluster/redis_match.h"

#include <charconv>
#include <cstdlib>

namespace ur::server {
namespace {

// ARGV[1] is the prefix of every key in these scripts. Times are the Redis server's, in ms.
constexpr const char* kNow = R"(
local p = ARGV[1]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function drop(q, key)
  redis.call('DEL', p .. 't:' .. key)
  redis.call('ZREM', p .. 'a:' .. q, key)
  redis.call('ZREM', p .. 'r:' .. q, key)
  if redis.call('ZCARD', p .. 'a:' .. q) == 0 then redis.call('SREM', p .. 'queues', q) end
end
)";

// ARGV: prefix, key, queue, rating, node, connection, user id, name, since (0 = now), the
// accounts the ticket avoids (",12,34,").
constexpr const char* kAdd = R"(
local key, q = ARGV[2], ARGV[3]
local old = redis.call('HGET', p .. 't:' .. key, 'q')
if old then drop(old, key) end
local since = tonumber(ARGV[9])
if since <= 0 then since = now end
redis.call('HSET', p .. 't:' .. key, 'q', q, 'rating', ARGV[4], 'node', ARGV[5], 'conn', ARGV[6],
           'user', ARGV[7], 'name', ARGV[8], 'since', since, 'avoid', ARGV[10])
redis.call('ZADD', p .. 'a:' .. q, since, key)
redis.call('ZADD', p .. 'r:' .. q, tonumber(ARGV[4]), key)
redis.call('SADD', p .. 'queues', q)
return since
)";

// ARGV: prefix, key, node ('' = any), connection.
constexpr const char* kRemove = R"(
local key = ARGV[2]
local q = redis.call('HGET', p .. 't:' .. key, 'q')
if not q then return 0 end
if ARGV[3] ~= '' then
  local v = redis.call('HMGET', p .. 't:' .. key, 'node', 'conn')
  if v[1] ~= ARGV[3] or v[2] ~= ARGV[4] then return 0 end
end
drop(q, key)
return 1
)";

// ARGV: prefix, base window, window per second. Returns, per pair, the queue and both tickets
// (key, node, connection, user id, name, rating, since, avoid): 17 strings. A candidate that
// either ticket avoids (its account in the other's avoid list) is skipped for the next nearest.
constexpr const char* kPair = R"(
local base, per = tonumber(ARGV[2]), tonumber(ARGV[3])
local alive = {}
local function live(node)
  if alive[node] == nil then alive[node] = redis.call('EXISTS', p .. 'node:' .. node) == 1 end
  return alive[node]
end
local function ticket(key)
  return redis.call('HMGET', p .. 't:' .. key, 'node', 'conn', 'user', 'name', 'rating', 'since',
                    'avoid')
end
local function avoids(t, user)
  return user ~= '0' and string.find(t[7] or '', ',' .. user .. ',', 1, true) ~= nil
end
local out = {}
for _, q in ipairs(redis.call('SMEMBERS', p .. 'queues')) do
  for _, a in ipairs(redis.call('ZRANGE', p .. 'a:' .. q, 0, -1)) do
    local ta = ticket(a)
    if not ta[1] then
      drop(q, a)  -- taken as an earlier ticket's partner in this run
    elseif not live(ta[1]) then
      drop(q, a)  -- its node died
    else
      local ra = tonumber(ta[5])
      local limit = base + per * math.max(0, (now - tonumber(ta[6])) / 1000)
      local best, tb, gap_b, since_b
      for _, b in ipairs(redis.call('ZRANGEBYSCORE', p .. 'r:' .. q, ra - limit, ra + limit)) do
        if b ~= a then
          local t = ticket(b)
          if not t[1] or not live(t[1]) then
            drop(q, b)
          elseif not avoids(ta, t[3]) and not avoids(t, ta[3]) then
            local gap, since = math.abs(tonumber(t[5]) - ra), tonumber(t[6])
            if not best or gap < gap_b or (gap == gap_b and since < since_b) then
              best, tb, gap_b, since_b = b, t, gap, since
            end
          end
        end
      end
      if best then
        drop(q, a)
        drop(q, best)
        table.insert(out, q)
        for _, pair in ipairs({{a, ta}, {best, tb}}) do
          table.insert(out, pair[1])
          for i = 1, 7 do table.insert(out, pair[2][i] or '') end
        end
      end
    end
  end
end
return out
)";

constexpr std::size_t kPairWidth = 17;

long long to_ll(const std::string& s) {
  return std::strtoll(s.c_str(), nullptr, 10);
}

// The avoid list as the ticket's hash keeps it: ",12,34," ("" when empty).
std::string avoid_text(const std::vector<std::int64_t>& ids) {
  if (ids.empty()) return "";
  std::string out = ",";
  for (std::int64_t id : ids) out += std::to_string(id) + ",";
  return out;
}

std::vector<std::int64_t> avoid_from_text(const std::string& text) {
  std::vector<std::int64_t> ids;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t comma = text.find(',', at);
    const std::string part = text.substr(at, comma == std::string::npos ? comma : comma - at);
    if (!part.empty()) ids.push_back(to_ll(part));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return ids;
}

SharedTicket from_reply(const std::string& queue, const std::vector<RedisReply>& e,
                        std::size_t at) {
  SharedTicket s;
  s.ticket.key = e[at].str;
  s.node = e[at + 1].str;
  s.ticket.connection = std::strtoull(e[at + 2].str.c_str(), nullptr, 10);
  s.ticket.user_id = to_ll(e[at + 3].str);
  s.ticket.name = e[at + 4].str;
  s.ticket.rating = std::strtod(e[at + 5].str.c_str(), nullptr);
  s.since_ms = to_ll(e[at + 6].str);
  s.ticket.avoid = avoid_from_text(e[at + 7].str);
  s.ticket.rated = queue.rfind("r|", 0) == 0;
  s.ticket.rules = queue.substr(2);
  return s;
}

}  // namespace

std::string SharedMatchQueue::queue_of(const std::string& rules, bool rated) {
  return (rated ? "r|" : "c|") + rules;
}

void SharedMatchQueue::add(const SharedTicket& s, long long since_ms,
                           std::function<void(bool)> done) {
  const MatchTicket& t = s.ticket;
  redis_.call({"EVAL", std::string(kNow) + kAdd, "0", prefix_, t.key, queue_of(t.rules, t.rated),
               redis_number(t.rating), s.node, std::to_string(t.connection),
               std::to_string(t.user_id), t.name, std::to_string(since_ms), avoid_text(t.avoid)},
              [done = std::move(done)](RedisReply r) {
                if (done) done(r.kind == RedisReply::Kind::kInteger);
              });
}

void SharedMatchQueue::remove(const std::string& key, const std::string& node,
                              std::uint64_t connection, std::function<void(bool)> done) {
  redis_.call(
      {"EVAL", std::string(kNow) + kRemove, "0", prefix_, key, node, std::to_string(connection)},
      [done = std::move(done)](RedisReply r) {
        if (done) done(r.kind == RedisReply::Kind::kInteger && r.integer == 1);
      });
}

void SharedMatchQueue::heartbeat(const std::string& node, long long ttl_ms) {
  redis_.call({"SET", prefix_ + "node:" + node, "1", "PX", std::to_string(ttl_ms)},
              [](RedisReply) {});
}

void SharedMatchQueue::pair(std::function<void(Pairs)> done) {
  redis_.call({"EVAL", std::string(kNow) + kPair, "0", prefix_, redis_number(base_),
               redis_number(per_second_)},
              [done = std::move(done)](RedisReply r) {
                Pairs pairs;
                const auto& e = r.elements;
                if (r.kind == RedisReply::Kind::kArray && e.size() % kPairWidth == 0)
                  for (std::size_t i = 0; i < e.size(); i += kPairWidth)
                    pairs.emplace_back(from_reply(e[i].str, e, i + 1),
                                       from_reply(e[i].str, e, i + 9));
                done(std::move(pairs));
              });
}

}  // namespace ur::server
