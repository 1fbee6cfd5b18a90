// RedisCommands: plain Redis commands (EVAL of a script, mostly) on a cluster's Redis server, for
// the state that the nodes share besides the event bus: the matchmaking queue (redis_match.h) and
// the per-address limits of the account endpoints (redis_rate.h). RedisPubSub implements it on
// its publishing connection, so no extra connection or thread is needed (docs/scaling.md).
//
// call() never blocks: it queues the command for the bus's thread, and `done` runs there with the
// reply — or with an error reply at once when Redis is away, so a caller always hears back and
// falls back to what one node can do alone. async_redis() is the same as an Asio operation, for
// a coroutine: it resumes on the coroutine's own executor.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>

#include <charconv>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ur::server {

// A number as a command's argument: the shortest text that reads back as the same double (what
// Lua's tonumber() parses in the scripts).
inline std::string redis_number(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? end : buf);
}

struct RedisReply {
  enum class Kind { kNil, kInteger, kString, kArray, kError };
  Kind kind = Kind::kNil;
  long long integer = 0;
  std::string str;  // a string, a status or an error's text
  std::vector<RedisReply> elements;

  bool error() const { return kind == Kind::kError; }
  static RedisReply failure(std::string why) {
    RedisReply r;
    r.kind = Kind::kError;
    r.str = std::move(why);
    return r;
  }
};

class RedisCommands {
 public:
  using Done = std::function<void(RedisReply)>;
  virtual ~RedisCommands() = default;
  // Queues `args` (binary-safe) as one command; `done` runs on the Redis thread, exactly once.
  virtual void call(std::vector<std::string> args, Done done) = 0;
};

// call() as an Asio asynchronous operation with the signature void(RedisReply): the completion
// handler runs on its associated executor (a coroutine's strand), never on the Redis thread.
template <class Token>
auto async_redis(RedisCommands& redis, std::vector<std::string> args, Token&& token) {
  auto init = [&redis](auto handler, std::vector<std::string> command) {
    using Handler = std::decay_t<decltype(handler)>;
    auto h = std::make_shared<Handler>(std::move(handler));
    redis.call(std::move(command), [h](RedisReply reply) {
      auto ex = boost::asio::get_associated_executor(*h);
      boost::asio::post(ex, [h, r = std::move(reply)]() mutable { (*h)(std::move(r)); });
    });
  };
  return boost::asio::async_initiate<Token, void(RedisReply)>(init, token, std::move(args));
}

}  // namespace ur::server
