#include "server/server_context.h"

#include <sodium.h>

#include <chrono>

#include "server/cluster/pubsub.h"
#include "server/protocol/ws_dispatch.h"
#include "server/tables/bot_service.h"
#include "server/tables/friends.h"
#include "server/tables/puzzle_seeder.h"
#include "server/tables/table_service.h"
#include "server/tables/table_solver.h"
#include "solver/table_store.h"

namespace ur::server {
namespace {
// A guest without a cookie is known by its connection id ("c:<id>" in a seat): ids start at a
// random point so that two nodes of a cluster (or a node before and after a restart) do not
// hand out the same one. Below 2^52: the id is sent to clients, where JSON numbers are doubles.
std::uint64_t first_connection_id() {
  std::uint64_t r;
  randombytes_buf(&r, sizeof r);
  return (r >> 24) << 12 | 1;
}

std::size_t at_least_one(int n) {
  return static_cast<std::size_t>(n > 0 ? n : 1);
}
}  // namespace

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ServerContext::ServerContext(ServerConfig cfg, std::unique_ptr<Storage> st)
    : config(std::move(cfg)),
      storage(std::move(st)),
      table_store(std::make_unique<solver::TableStore>(config.data_dir)),
      auth_limiter(config.auth_burst, config.auth_refill_per_sec),
      workers(at_least_one(config.worker_threads)),
      table_pool(at_least_one(config.table_threads)),
      storage_pool(at_least_one(config.db_connections)),
      bot_pool(at_least_one(config.bot_threads)),
      review_pool(1),
      pubsub(std::make_unique<InProcessPubSub>()),
      ws_ip_limiter(config.ws_ip_burst, config.ws_ip_refill_per_sec),
      puzzle_ip_limiter(config.puzzle_ip_burst, config.puzzle_ip_refill_per_sec),
      puzzle_user_limiter(config.puzzle_user_burst, config.puzzle_user_refill_per_sec),
      next_connection_id(first_connection_id()) {}

ServerContext::~ServerContext() = default;

bool ServerContext::try_add_ws(const std::string& ip) {
  std::lock_guard lock(ws_ip_mutex_);
  int& n = ws_per_ip_[ip];
  if (n >= config.max_ws_per_ip) return false;
  ++n;
  return true;
}

int ServerContext::ws_open() {
  std::lock_guard lock(ws_ip_mutex_);
  int n = 0;
  for (const auto& [ip, count] : ws_per_ip_) n += count;
  return n;
}

void ServerContext::remove_ws(const std::string& ip) {
  std::lock_guard lock(ws_ip_mutex_);
  auto it = ws_per_ip_.find(ip);
  if (it != ws_per_ip_.end() && --it->second <= 0) ws_per_ip_.erase(it);
}

}  // namespace ur::server
