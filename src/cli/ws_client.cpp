#include "cli/ws_client.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http.hpp>

#include <charconv>

namespace ur::cli {

namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

std::optional<ServerAddress> parse_server_address(std::string_view url) {
  for (std::string_view scheme : {"http://", "ws://"})
    if (url.substr(0, scheme.size()) == scheme) url.remove_prefix(scheme.size());
  for (std::string_view tail : {"/ws", "/"})
    if (url.size() > tail.size() && url.substr(url.size() - tail.size()) == tail)
      url.remove_suffix(tail.size());
  auto colon = url.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  std::string_view digits = url.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (ec != std::errc() || end != digits.data() + digits.size() || port == 0 || port > 65535)
    return std::nullopt;
  std::string_view host = url.substr(0, colon);
  if (host.find_first_of("/?#@ ") != std::string_view::npos) return std::nullopt;
  return ServerAddress{std::string(host), static_cast<std::uint16_t>(port)};
}

net::awaitable<WsConnect> ws_connect(
    WsStream& ws, const ServerAddress& server,
    const std::vector<std::pair<std::string, std::string>>& headers) {
  WsConnect out;
  auto& sock = beast::get_lowest_layer(ws);
  tcp::resolver resolver(co_await net::this_coro::executor);
  auto [rec, endpoints] =
      co_await resolver.async_resolve(server.host, std::to_string(server.port), kNoThrow);
  if (rec) {
    out.error = rec;
    co_return out;
  }
  auto [cec, ep] = co_await sock.async_connect(endpoints, kNoThrow);
  if (cec) {
    out.error = cec;
    co_return out;
  }
  sock.socket().set_option(tcp::no_delay(true));
  sock.expires_never();
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& r) {
    for (const auto& [name, value] : headers) r.set(name, value);
  }));
  websocket::response_type res;
  std::string host = server.host + ":" + std::to_string(server.port);
  auto [hec] = co_await ws.async_handshake(res, host, "/ws", kNoThrow);
  if (hec) {
    out.error = hec;
    out.status = res.result_int();
    out.body = res.body();
  }
  co_return out;
}

net::awaitable<beast::error_code> ws_send(WsStream& ws, const nlohmann::json& message) {
  std::string text = message.dump();
  auto [ec, n] = co_await ws.async_write(net::buffer(text), kNoThrow);
  co_return ec;
}

net::awaitable<beast::error_code> ws_read(WsStream& ws, nlohmann::json& message) {
  beast::flat_buffer buffer;
  auto [ec, n] = co_await ws.async_read(buffer, kNoThrow);
  if (!ec) message = nlohmann::json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
  co_return ec;
}

}  // namespace ur::cli
