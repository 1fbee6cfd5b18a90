// `ur serve`: the HTTP + WebSocket server on Boost.Beast/Asio with C++20 coroutines.
//
// Shape (after Beast's awaitable and chat-multi examples): one listener accepts each connection
// onto its own strand; an HTTP session reads requests with a body limit and a timeout and answers
// them (api/api.h), or hands a WebSocket upgrade on /ws (Origin checked) to a WebSocket session, which
// reads messages into the Dispatcher (protocol/ws_dispatch.h) and writes from an outbound queue with at most
// one write in flight. Slow work (argon2id, the database) runs on a worker pool, never on I/O
// threads. stop() (or SIGINT/SIGTERM) closes the listener, closes every WebSocket with "going
// away", lets HTTP sessions finish their current response, and cuts what is left after a grace
// period.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "server/config.h"

namespace ur::server {

struct ServerContext;

class Server {
 public:
  explicit Server(ServerConfig config);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Creates the data directory, opens and migrates the storage, binds the port. Returns an empty
  // string on success, else a message for the user (nothing is left listening).
  std::string start();
  // The bound port (the kernel's choice when the configured port is 0). Valid after start().
  std::uint16_t port() const;
  // Serves on config.threads threads (the caller's included) until stop(); returns when every
  // connection has ended.
  void run();
  // Begins a graceful shutdown. Thread-safe, idempotent, may be called before run().
  void stop();
  // Shared state (storage, dispatcher): for tests and for adding message handlers before run().
  ServerContext& context();

  struct Impl;  // public only so that the sessions (transport/server_impl.h) can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ur::server
