// The WebSocket protocol layer: what the server does with each message, kept apart from the I/O
// (transport/ws_session.cpp) so that tables, the lobby and matchmaking plug in here as new message
// types without touching sockets, strands or queues. The services register their handlers (and what to do when
// a connection closes) from above; the dispatcher calls no service by name.
//
// Every message both ways is a JSON object {"v": 1, "type": "...", ...} (docs/protocol.md). A
// client message may carry "id" (a string or number of the client's choosing); the answer to it
// echoes it as "re". Malformed input is answered with {"type": "error", "code", "message"} and the
// connection stays open. Handlers start on the connection's strand, one message at a time per
// connection (the next is read when the handler's coroutine ends); what blocks runs elsewhere while
// the handler co_awaits it: a table's operations on its strand (tables/table_service.h), database
// calls and password hashing on a pool (offload, on_storage: server_context.h). WsClient::send
// may be called from any thread (a broadcast to a table's spectators, say): it queues, it never
// blocks.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rules/error.h"
#include "server/accounts/identity.h"

namespace ur::server {

class Metrics;

inline constexpr int kProtocolVersion = 1;

// One connected WebSocket client, as the dispatcher sees it.
class WsClient {
 public:
  virtual ~WsClient() = default;
  virtual std::uint64_t connection_id() const = 0;
  virtual const Identity& identity() const = 0;
  // For subscribers that must not keep a closed connection alive.
  virtual std::weak_ptr<WsClient> weak_client() = 0;
  // Queues a text frame. Thread-safe; a shared payload lets a broadcast serialise once.
  virtual void send(std::shared_ptr<const std::string> text) = 0;
  // Closes the connection (a close frame "going away"), as when the server stops. Thread-safe.
  virtual void disconnect() = 0;
  void send(const nlohmann::json& message);
};

// {"v": 1, "type": type}
nlohmann::json envelope(std::string_view type);
// {"v": 1, "type": "error", "code": code, "message": message}
nlohmann::json error_envelope(ErrorCode code, std::string_view message);

// The answer to `request`: the envelope plus "re" when the request carried an id.
nlohmann::json reply_to(std::string_view type, const nlohmann::json& request);
// An error answering `request` ("re" set when it carried an id).
nlohmann::json error_reply(const nlohmann::json& request, ErrorCode code, std::string_view message);
nlohmann::json error_reply(const nlohmann::json& request, const Error& e);

class Dispatcher {
 public:
  // A handler gets the client and the whole (validated) message; it answers through client.send.
  using Handler =
      std::function<boost::asio::awaitable<void>(WsClient& client, const nlohmann::json& message)>;

  // What to do when a connection closes (the services above drop its subscriptions, tickets,
  // online bots): registered by them, so the dispatcher knows nothing of tables or bots.
  using CloseHandler = std::function<void(WsClient& client)>;
  // What to do when a connection opens (presence: friends.h); the same shape.
  using OpenHandler = CloseHandler;

  Dispatcher();

  // Adds (or replaces) the handler of one message type. Call before the server starts.
  void add(std::string type, Handler handler);
  // Adds a handler for closed connections. Call before the server starts.
  void on_closed(CloseHandler handler);
  // Adds a handler for opened connections. Call before the server starts.
  void on_opened(OpenHandler handler);

  // Counts an account's connection (disconnect_user finds it) until on_close.
  void on_open(WsClient& client);
  // Parses, validates the envelope, routes to the handler; every failure is answered.
  boost::asio::awaitable<void> on_message(WsClient& client, std::string_view text);
  void on_close(WsClient& client);
  // Closes every open connection of the account on this node (a ban or a deletion:
  // table_moderation.cpp). Thread-safe.
  void disconnect_user(std::int64_t user_id);

  // Where the handled messages are counted and timed, by type (GET /metrics); may be null.
  void set_metrics(Metrics* metrics) { metrics_ = metrics; }

 private:
  Metrics* metrics_ = nullptr;
  std::unordered_map<std::string, Handler> handlers_;
  std::vector<CloseHandler> close_handlers_;
  std::mutex accounts_mutex_;
  // The open connections of accounts, by connection id, with their account's id.
  std::unordered_map<std::uint64_t, std::pair<std::int64_t, std::weak_ptr<WsClient>>> accounts_;
  std::vector<OpenHandler> open_handlers_;
};

}  // namespace ur::server
