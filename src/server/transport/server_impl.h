// Internals of Server shared by its three files (server.cpp: listener and lifecycle; the sessions
// http_session.cpp and ws_session.cpp here in transport/): the Impl state and the registry of live connections that a
// graceful shutdown walks. Not part of the server's interface; include only from those files.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/api/api.h"
#include "server/log.h"
#include "server/server.h"
#include "server/server_context.h"

namespace ur::server {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;
inline constexpr auto kNoThrow = net::as_tuple(net::use_awaitable);

// A live connection, as the shutdown sees it.
class Connection {
 public:
  virtual ~Connection() = default;
  // Begin winding down (thread-safe: posts to the connection's strand).
  virtual void shutdown() = 0;
  // Closes the socket at once. Only when no I/O thread is running (after a cut shutdown).
  virtual void force_close() = 0;
};

struct Server::Impl {
  explicit Impl(ServerConfig c) : config(std::move(c)) {}

  ServerConfig config;
  net::io_context ioc{std::max(1, config.threads)};
  net::strand<net::io_context::executor_type> strand{ioc.get_executor()};
  std::unique_ptr<ServerContext> ctx;
  std::optional<tcp::acceptor> acceptor;
  net::signal_set signals{ioc};
  net::steady_timer grace_timer{strand};
  net::steady_timer sweep_timer{strand};
  std::atomic<bool> stopping{false};
  std::atomic<bool> drained{false};  // stopping, and the last connection closed
  std::uint16_t port = 0;

  std::mutex connections_mutex;
  std::unordered_map<std::uint64_t, std::weak_ptr<Connection>> connections;

  void add_connection(std::uint64_t id, std::weak_ptr<Connection> c) {
    std::lock_guard lock(connections_mutex);
    connections.emplace(id, std::move(c));
  }

  // Registers a connection for the life of the object (the duration of its session).
  struct Registration {
    Registration(Impl& s, std::uint64_t id, std::weak_ptr<Connection> c) : server(s), conn(id) {
      server.add_connection(id, std::move(c));
    }
    ~Registration() { server.remove_connection(conn); }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    Impl& server;
    std::uint64_t conn;
  };

  void remove_connection(std::uint64_t id) {
    bool last;
    {
      std::lock_guard lock(connections_mutex);
      connections.erase(id);
      last = connections.empty();
    }
    // The grace timer only exists to cut stragglers: once the last one is gone, stop waiting.
    if (last && stopping && !drained.exchange(true)) {
      log_line("stopping: every connection closed");
      net::post(strand, [this] { grace_timer.cancel(); });
    }
  }

  void begin_stop() {
    net::post(strand, [this] {
      if (stopping.exchange(true)) return;
      log_line("shutting down");
      boost::system::error_code ec;
      if (acceptor) acceptor->close(ec);
      signals.cancel(ec);
      sweep_timer.cancel();
      std::vector<std::shared_ptr<Connection>> live;
      {
        std::lock_guard lock(connections_mutex);
        for (auto& [id, weak] : connections)
          if (auto c = weak.lock()) live.push_back(std::move(c));
      }
      for (auto& c : live) c->shutdown();
      if (live.empty()) return;
      grace_timer.expires_after(config.shutdown_grace);
      grace_timer.async_wait([this](boost::system::error_code e) {
        if (e) return;  // cancelled: everything closed in time
        log_line("grace period over; cutting remaining connections");
        ioc.stop();
      });
    });
  }

  net::awaitable<void> listen();
  net::awaitable<void> sweep_sessions();
};

// Takes over an accepted socket (already bound to its own strand).
void start_http_session(Server::Impl& server, tcp::socket socket);
// Takes over an upgraded connection: WebSocket handshake, then the message loop.
void start_ws_session(Server::Impl& server, beast::tcp_stream stream, std::string remote_ip,
                      Request upgrade);

}  // namespace ur::server
