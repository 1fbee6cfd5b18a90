// What every connection of one server shares: the configuration, the storage, the solved tables
// (solver::TableStore, listed from DATA_DIR/tables at start-up), the rate limiter,
// the worker pool that runs slow work (argon2id, database calls) off the I/O threads, and the
// WebSocket message dispatcher. Owned by Server; outlives every connection.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "server/accounts/identity.h"
#include "server/accounts/rate_limiter.h"
#include "server/config.h"
#include "server/metrics.h"
#include "server/storage/storage.h"

namespace ur::solver {
class TableStore;
}

namespace ur::server {

class Dispatcher;
class PubSub;
class TableService;
class BotService;
class FriendService;
class TableSolver;
class PuzzleSeeder;

struct ServerContext {
  ServerContext(ServerConfig cfg, std::unique_ptr<Storage> st);
  ~ServerContext();  // out of line: Dispatcher is incomplete here

  ServerConfig config;
  std::unique_ptr<Storage> storage;
  // Before the pools: a task still queued on them may ask it until they are joined.
  std::unique_ptr<solver::TableStore> table_store;
  RateLimiter auth_limiter;
  boost::asio::thread_pool workers;
  std::filesystem::path web_root;       // canonical; empty when there is no web root
  boost::asio::thread_pool table_pool;  // tables' strands: actions, timers, publishing
  // The tables' database writes, off their strands (table_service.h): one thread a connection.
  boost::asio::thread_pool storage_pool;
  boost::asio::thread_pool bot_pool;     // computer players' searches
  boost::asio::thread_pool review_pool;  // finished games' reviews (game_review.h): one thread
  std::unique_ptr<Dispatcher> dispatcher;
  std::unique_ptr<PubSub> pubsub;
  std::unique_ptr<TableService> tables;
  std::unique_ptr<BotService> bots;
  std::unique_ptr<FriendService> friends;  // presence and challenges (friends.h)
  std::unique_ptr<TableSolver> solver;     // null unless config.solve_tables
  std::unique_ptr<PuzzleSeeder> puzzles;   // null unless config.seed_puzzles
  RateLimiter ws_ip_limiter;
  RateLimiter puzzle_ip_limiter;    // /api/puzzles/ per address
  RateLimiter puzzle_user_limiter;  // /api/puzzles/ per account
  std::atomic<std::uint64_t> next_connection_id{1};
  Metrics metrics;  // GET /metrics (metrics.h)

  // WebSocket connections per IP (max_ws_per_ip): try_add_ws is false when at the limit.
  bool try_add_ws(const std::string& ip);
  void remove_ws(const std::string& ip);
  int ws_open();  // WebSockets open now, all addresses together

 private:
  std::mutex ws_ip_mutex_;
  std::unordered_map<std::string, int> ws_per_ip_;
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

// Runs `f()` on `executor` (a strand, a pool) and resumes the calling coroutine on its own
// executor with the result; an exception thrown by `f` is rethrown in the caller.
template <class Executor, class F>
boost::asio::awaitable<std::invoke_result_t<F>> run_on(Executor executor, F f) {
  co_return co_await boost::asio::co_spawn(executor,
                                           detail::call_on_pool(std::make_shared<F>(std::move(f))),
                                           boost::asio::use_awaitable);
}

// What on_storage uses: the storage, the storage pool, the metrics that time each call (a
// service that needs no more of the server takes this, not the ServerContext). The storage is
// read from its owner at each call, as through the context: a wrapper put in its place before
// the server serves (a test's held or failing database) is the one called.
struct StorageCalls {
  std::unique_ptr<Storage>& owner;
  boost::asio::thread_pool& pool;
  Metrics& metrics;
  Storage& db() const { return *owner; }
};
inline StorageCalls storage_calls(ServerContext& ctx) {
  return {ctx.storage, ctx.storage_pool, ctx.metrics};
}

// Runs the storage call `f()` for a coroutine on a table's strand, resuming it there with the
// result (an exception thrown by `f` is rethrown in the caller). When the backend runs several
// calls at once (PostgreSQL's connection pool) the call goes to the storage pool, so the strand
// serves other tables meanwhile. With one connection (SQLite) it runs inline: every call waits
// for that one connection anyway, so the hop to a storage thread and back bought no concurrency
// and cost two thread wake-ups per action (the load test's p99 ~45 -> ~33 ms, docs/scaling.md).
inline bool storage_runs_calls_at_once(const ServerContext& ctx) {
  return ctx.storage->connections() > 1;
}
template <class F>
boost::asio::awaitable<std::invoke_result_t<F>> on_storage(StorageCalls calls, F f) {
  // Timed where it runs: the database's time, without the wait for a pool thread.
  auto timed = [&metrics = calls.metrics, f = std::move(f)]() mutable {
    auto started = std::chrono::steady_clock::now();
    try {
      if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
        f();
        metrics.db_call(std::chrono::steady_clock::now() - started);
      } else {
        auto result = f();
        metrics.db_call(std::chrono::steady_clock::now() - started);
        return result;
      }
    } catch (...) {
      metrics.db_error();
      throw;
    }
  };
  if (calls.db().connections() > 1)
    co_return co_await run_on(calls.pool.get_executor(), std::move(timed));
  co_return timed();
}
template <class F>
boost::asio::awaitable<std::invoke_result_t<F>> on_storage(ServerContext& ctx, F f) {
  return on_storage(storage_calls(ctx), std::move(f));
}

// The same rule for a storage call nobody awaits (`f` handles its own result and errors):
// posted to the storage pool, or run inline with one connection. The pool is joined before the
// services it calls go away (Server::~Server).
template <class F>
void post_storage(ServerContext& ctx, F f) {
  if (storage_runs_calls_at_once(ctx))
    boost::asio::post(ctx.storage_pool, std::move(f));
  else
    f();
}

// Runs `f()` on the worker pool and resumes the calling coroutine on its own executor (its strand)
// with the result; an exception thrown by `f` is rethrown in the caller.
template <class F>
boost::asio::awaitable<std::invoke_result_t<F>> offload(ServerContext& ctx, F f) {
  co_return co_await boost::asio::co_spawn(ctx.workers,
                                           detail::call_on_pool(std::make_shared<F>(std::move(f))),
                                           boost::asio::use_awaitable);
}

}  // namespace ur::server
