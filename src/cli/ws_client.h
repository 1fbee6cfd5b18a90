// A WebSocket client of the ur server (docs/protocol.md) for the command line's own clients:
// `ur loadtest` (thousands of guests on one thread) and `ur bot` (one bot account). Coroutines on
// the caller's io_context; nothing here throws: every step returns the error that stopped it.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ur::cli {

namespace net = boost::asio;
namespace beast = boost::beast;
using WsStream = beast::websocket::stream<beast::tcp_stream>;
inline constexpr auto kNoThrow = net::as_tuple(net::use_awaitable);

// Where a server listens: "http://HOST:PORT", "ws://HOST:PORT" (a trailing "/" or "/ws" is
// allowed) or "HOST:PORT". nullopt for anything else (https/wss are not spoken here).
struct ServerAddress {
  std::string host;
  std::uint16_t port = 0;
};
std::optional<ServerAddress> parse_server_address(std::string_view url);

struct WsConnect {
  beast::error_code error;  // set when the connection or the upgrade failed
  unsigned status = 0;      // the HTTP status of a refused upgrade (0 otherwise)
  std::string body;         // and its body (the server's JSON error)
};

// Connects to the server and upgrades on /ws, sending `headers` with the upgrade request (a bot
// token). Sets TCP_NODELAY and the client-side WebSocket timeouts (pings answered while reading).
net::awaitable<WsConnect> ws_connect(
    WsStream& ws, const ServerAddress& server,
    const std::vector<std::pair<std::string, std::string>>& headers);

// One message written as a text frame.
net::awaitable<beast::error_code> ws_send(WsStream& ws, const nlohmann::json& message);

// The next message; a frame that is not JSON comes back as a discarded value. The error ends
// the connection.
net::awaitable<beast::error_code> ws_read(WsStream& ws, nlohmann::json& message);

}  // namespace ur::cli
