#include "server/server_context.h"

#include "server/ws_dispatch.h"

namespace ur::server {

ServerContext::ServerContext(ServerConfig cfg, std::unique_ptr<Storage> st)
    : config(std::move(cfg)),
      storage(std::move(st)),
      auth_limiter(config.auth_burst, config.auth_refill_per_sec),
      workers(static_cast<std::size_t>(config.worker_threads > 0 ? config.worker_threads : 1)) {}

ServerContext::~ServerContext() = default;

}  // namespace ur::server
