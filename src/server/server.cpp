#include "server/server.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "rules/presets.h"
#include "server/accounts/accounts.h"
#include "server/cluster/redis_pubsub.h"
#include "server/protocol/ws_dispatch.h"
#include "server/tables/bot_service.h"
#include "server/tables/friends.h"
#include "server/tables/puzzle_seeder.h"
#include "server/tables/table_service.h"
#include "server/tables/table_solver.h"
#include "server/transport/server_impl.h"
#include "solver/table_store.h"

namespace ur::server {

namespace fs = std::filesystem;
using net::awaitable;

awaitable<void> Server::Impl::listen() {
  for (;;) {
    tcp::socket socket(net::make_strand(ioc));
    auto [ec] = co_await acceptor->async_accept(socket, kNoThrow);
    if (stopping || ec == net::error::operation_aborted) co_return;
    if (ec) {
      // Out of descriptors and the like: back off instead of spinning.
      log_line("accept: " + ec.message());
      net::steady_timer pause(ioc, std::chrono::milliseconds(100));
      co_await pause.async_wait(kNoThrow);
      continue;
    }
    // Game messages are small and latency matters more than packet count: no Nagle delay.
    boost::system::error_code opt_ec;
    socket.set_option(tcp::no_delay(true), opt_ec);
    start_http_session(*this, std::move(socket));
  }
}

awaitable<void> Server::Impl::sweep_sessions() {
  for (;;) {
    try {
      auto now = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
      auto job = [this, now] { return ctx->storage->delete_expired_sessions(now); };
      co_await offload(*ctx, std::move(job));
    } catch (const std::exception& e) {
      log_line(std::string("session sweep: ") + e.what());
    }
    if (stopping) co_return;
    sweep_timer.expires_after(std::chrono::hours(1));
    auto [ec] = co_await sweep_timer.async_wait(kNoThrow);
    if (ec || stopping) co_return;
  }
}

Server::Server(ServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Server::~Server() {
  if (ServerContext* ctx = impl_->ctx.get()) {
    // Timers and searches first, then the pools: a handler still queued on a pool must not
    // outlive the service it calls. Committed actions are already in storage.
    if (ctx->friends) ctx->friends->shutdown();
    if (ctx->tables) ctx->tables->shutdown();
    if (ctx->puzzles) ctx->puzzles->stop();
    ctx->bot_pool.stop();
    ctx->bot_pool.join();
    // A review under way finishes (its game is stored already); the queued ones are dropped and
    // made on their first request instead.
    ctx->review_pool.stop();
    ctx->review_pool.join();
    // The writes in flight finish and resume on their tables' strands, which publish and answer
    // them, before those stop.
    ctx->storage_pool.join();
    ctx->table_pool.stop();
    ctx->table_pool.join();
    ctx->workers.stop();
    ctx->workers.join();
  }
}

ServerContext& Server::context() {
  return *impl_->ctx;
}

std::uint16_t Server::port() const {
  return impl_->port;
}

std::string Server::start() {
  Impl& s = *impl_;
  const ServerConfig& cfg = s.config;
  if (!init_crypto()) return "cannot initialise libsodium";
  if (cfg.threads < 1 || cfg.threads > 256) return "--threads must be between 1 and 256";
  if (!cfg.bus.empty() && cfg.leases.renew >= cfg.leases.duration)
    return "--lease-renew-ms must be less than --lease-ms (a lease must outlive its renewal)";
  std::error_code fec;
  if (!cfg.data_dir.empty()) {
    fs::create_directories(cfg.data_dir, fec);
    if (fec) return "cannot create data directory " + cfg.data_dir + ": " + fec.message();
  }
  std::string db_path = cfg.db.rfind("sqlite:", 0) == 0 ? cfg.db.substr(7) : cfg.db;
  if (db_path.find("://") == std::string::npos) {
    fs::path parent = fs::path(db_path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, fec);
    if (fec) return "cannot create directory for the database: " + fec.message();
  }
  auto bus = open_bus(cfg.bus);
  if (auto* err = std::get_if<Error>(&bus)) return err->message;
  OpenStorageResult opened = open_storage(cfg.db, cfg.db_connections);
  if (!opened.storage) return opened.error;
  s.ctx = std::make_unique<ServerContext>(cfg, std::move(opened.storage));
  s.ctx->pubsub = std::move(std::get<std::unique_ptr<PubSub>>(bus));
  s.ctx->dispatcher = std::make_unique<Dispatcher>();
  s.ctx->dispatcher->set_metrics(&s.ctx->metrics);
  s.ctx->tables = std::make_unique<TableService>(*s.ctx);
  s.ctx->tables->register_handlers(*s.ctx->dispatcher);
  s.ctx->bots = std::make_unique<BotService>(*s.ctx);
  s.ctx->bots->register_handlers(*s.ctx->dispatcher);
  s.ctx->friends = std::make_unique<FriendService>(*s.ctx);
  s.ctx->friends->register_handlers(*s.ctx->dispatcher);
  try {
    std::size_t restored = s.ctx->tables->restore();
    if (restored) log_line("restored " + std::to_string(restored) + " live tables");
  } catch (const StorageError& e) {
    return std::string("cannot load the tables: ") + e.what();
  }
  if (fs::is_directory(cfg.web_root, fec))
    s.ctx->web_root = fs::canonical(cfg.web_root, fec);
  else if (!cfg.web_root.empty())
    log_line("note: web root " + cfg.web_root + " does not exist; serving the API only");

  boost::system::error_code ec;
  auto address = net::ip::make_address(cfg.bind, ec);
  if (ec) return "bad --bind address '" + cfg.bind + "': " + ec.message();
  tcp::endpoint endpoint(address, cfg.port);
  s.acceptor.emplace(s.ioc);
  if (s.acceptor->open(endpoint.protocol(), ec); ec) return "socket: " + ec.message();
  s.acceptor->set_option(net::socket_base::reuse_address(true), ec);
  if (s.acceptor->bind(endpoint, ec); ec)
    return "cannot listen on " + cfg.bind + ":" + std::to_string(cfg.port) + ": " + ec.message();
  if (s.acceptor->listen(net::socket_base::max_listen_connections, ec); ec)
    return "listen: " + ec.message();
  s.port = s.acceptor->local_endpoint().port();
  if (cfg.solve_tables) {
    s.ctx->solver = std::make_unique<TableSolver>(
        TableSolverConfig{cfg.solver_binary, s.ctx->table_store.get(), cfg.solve_memory});
    s.ctx->solver->start();
  }
  if (cfg.seed_puzzles) {
    s.ctx->puzzles = std::make_unique<PuzzleSeeder>(*s.ctx->storage, *s.ctx->table_store);
    s.ctx->puzzles->start();
  }
  // Map and verify the solved tables now, off the I/O threads, so that neither the first lobby
  // (GET /api/rules says which presets are solved) nor the first perfect computer seat waits.
  net::post(s.ctx->bot_pool, [store = s.ctx->table_store.get()] {
    std::string solved;
    for (const PresetInfo& info : preset_list())
      if (store->solved(*find_preset(info.id))) solved += (solved.empty() ? "" : ", ") + info.id;
    log_line(solved.empty() ? "perfect player: no solved tables (ur solve --rules R makes one); "
                              "the perfect level plays as hard"
                            : "perfect player: solved tables for " + solved);
  });
  return {};
}

void Server::run() {
  Impl& s = *impl_;
  if (!s.ctx || !s.acceptor) return;
  if (s.config.handle_signals) {
    s.signals.add(SIGINT);
    s.signals.add(SIGTERM);
    s.signals.async_wait([this](boost::system::error_code ec, int) {
      if (!ec) stop();
    });
  }
  net::co_spawn(s.ioc, s.listen(), net::detached);
  net::co_spawn(s.strand, s.sweep_sessions(), net::detached);
  // The node's name in the table leases: by default where it listens, which names it in a log.
  s.ctx->tables->start(s.config.leases.node_name.empty()
                           ? s.config.bind + ":" + std::to_string(s.port)
                           : s.config.leases.node_name);
  s.ctx->friends->start(s.ctx->tables->node());
  std::vector<std::thread> threads;
  for (int i = 1; i < s.config.threads; ++i) threads.emplace_back([&s] { s.ioc.run(); });
  s.ioc.run();
  for (auto& t : threads) t.join();
  // After a cut (grace period over) coroutines are still parked on sockets and would be destroyed
  // half-way with the io_context; close their sockets and let them unwind instead.
  for (int round = 0; round < 10; ++round) {
    std::vector<std::shared_ptr<Connection>> live;
    {
      std::lock_guard lock(s.connections_mutex);
      for (auto& [id, weak] : s.connections)
        if (auto c = weak.lock()) live.push_back(std::move(c));
    }
    if (live.empty()) break;
    for (auto& c : live) c->force_close();
    live.clear();
    s.ioc.restart();
    s.ioc.run_for(std::chrono::milliseconds(500));
  }
}

void Server::stop() {
  Impl& s = *impl_;
  if (!s.ctx) return;
  // First, before the connections drain: another node runs this node's tables from its next
  // sweep instead of a lease after the drain (docs/scaling.md, "Table leases").
  if (s.ctx->tables) s.ctx->tables->hand_back();
  s.begin_stop();
}

}  // namespace ur::server
