// What every connection of one server shares: the configuration, the storage, the rate limiter,
// the worker pool that runs slow work (argon2id, database calls) off the I/O threads, and the
// WebSocket message dispatcher. Owned by Server; outlives every connection.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "server/config.h"
#include "server/rate_limiter.h"
#include "server/storage.h"

namespace ur::server {

class Dispatcher;

// Who is on the other end of a connection: a logged-in user, or a guest with a random id.
struct Identity {
  std::optional<User> user;
  std::string session_id;  // empty for guests
  std::string guest_id;    // "guest-" + 8 hex digits, for guests
  std::string remote_ip;
};

struct ServerContext {
  ServerContext(ServerConfig cfg, std::unique_ptr<Storage> st);
  ~ServerContext();  // out of line: Dispatcher is incomplete here

  ServerConfig config;
  std::unique_ptr<Storage> storage;
  RateLimiter auth_limiter;
  boost::asio::thread_pool workers;
  std::filesystem::path web_root;  // canonical; empty when there is no web root
  std::unique_ptr<Dispatcher> dispatcher;
  std::atomic<std::uint64_t> next_connection_id{1};
};

namespace detail {
// A plain coroutine rather than a capturing coroutine lambda: GCC 12 mishandles captures of
// coroutine lambdas and temporaries with captures inside a co_await expression (they are destroyed
// twice). Hence also: callers pass offload() a named lambda, moved, never a temporary lambda.
template <class F>
boost::asio::awaitable<std::invoke_result_t<F>> call_on_pool(std::shared_ptr<F> f) {
  co_return (*f)();
}
}  // namespace detail

// Runs `f()` on the worker pool and resumes the calling coroutine on its own executor (its strand)
// with the result; an exception thrown by `f` is rethrown in the caller.
template <class F>
boost::asio::awaitable<std::invoke_result_t<F>> offload(ServerContext& ctx, F f) {
  co_return co_await boost::asio::co_spawn(ctx.workers,
                                           detail::call_on_pool(std::make_shared<F>(std::move(f))),
                                           boost::asio::use_awaitable);
}

}  // namespace ur::server
