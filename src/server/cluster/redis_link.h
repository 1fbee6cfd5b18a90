// RedisLink: one asynchronous hiredis connection driven by an Asio io_context.
//
// hiredis's async API does no I/O of its own: it asks its event library to watch the socket
// (addRead/delRead/addWrite/delWrite) and expects redisAsyncHandleRead/Write when it is ready.
// Here those hooks arm async_wait on a posix::stream_descriptor over hiredis's socket; the
// descriptor is released, never closed, on cleanup because the socket belongs to hiredis.
// Every call, including the hooks and the callbacks, runs on the one thread of that io_context.
//
// A link is reused across reconnects: start() opens a new hiredis context each time. When the
// connection fails or drops, hiredis frees its context and the link reports `lost` (posted, so
// that the owner never runs inside a hiredis callback).
#pragma once

#include <hiredis/async.h>

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ur::server {

class RedisLink {
 public:
  using Event = std::function<void(RedisLink&)>;
  RedisLink(boost::asio::io_context& ioc, std::string host, int port, Event connected, Event lost);
  ~RedisLink();  // frees a live connection (its pending callbacks get a null reply)
  RedisLink(const RedisLink&) = delete;
  RedisLink& operator=(const RedisLink&) = delete;
  struct Watch;  // the socket watch behind hiredis's event hooks (redis_link.cpp)

  // Begins connecting; false (and `lost` is not reported) when that fails at once.
  bool start();
  bool active() const { return ac_ != nullptr; }  // connecting or connected
  bool ready() const { return ac_ != nullptr && connected_; }
  const std::string& error() const { return error_; }
  // Queues a command (binary-safe arguments); false when the link is not ready.
  bool command(redisCallbackFn* callback, void* privdata,
               const std::vector<std::string_view>& args);

 private:
  static void on_connect(const redisAsyncContext* ac, int status);
  static void on_disconnect(const redisAsyncContext* ac, int status);
  void report_lost(const std::string& why);

  boost::asio::io_context& ioc_;
  const std::string host_;
  const int port_;
  Event connected_event_, lost_event_;
  redisAsyncContext* ac_ = nullptr;
  bool connected_ = false;
  std::string error_;
};

}  // namespace ur::server
