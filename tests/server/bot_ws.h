// The WebSocket client of a bot account in the server tests: connects with
// `Authorization: Bearer <token>` (docs/server.md, "Bot accounts") and answers requests, in the
// manner of harness.h's TestWs (which connects with cookies only).
#pragma once

#include "harness.h"

namespace ur::server::test {

class BotWs {
 public:
  explicit BotWs(std::uint16_t port) : port_(port), ws_(ioc_) {}

  // The HTTP status of a refused upgrade (0 on success).
  unsigned connect(const std::string& token) {
    unsigned refused = 0;
    run_client(ioc_, [&]() -> net::awaitable<void> {
      auto& sock = beast::get_lowest_layer(ws_);
      sock.expires_after(kDeadline);
      co_await sock.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_),
                                  net::use_awaitable);
      sock.expires_never();
      std::string auth = "Bearer " + token;
      ws_.set_option(websocket::stream_base::decorator(
          [auth](websocket::request_type& r) { r.set(http::field::authorization, auth); }));
      websocket::response_type res;
      auto [ec] = co_await ws_.async_handshake(res, "127.0.0.1:" + std::to_string(port_), "/ws",
                                               net::as_tuple(net::use_awaitable));
      if (ec) refused = res.result_int() ? res.result_int() : 1;
    });
    return refused;
  }

  // Sends `msg` with a fresh id; the answer to it. Other messages wait in the inbox for next().
  json request(json msg) {
    msg["v"] = 1;
    msg["id"] = ++last_id_;
    int id = last_id_;
    run_client(ioc_, [&]() -> net::awaitable<void> {
      std::string text = msg.dump();
      co_await ws_.async_write(net::buffer(text), net::use_awaitable);
    });
    return next_if([&](const json& j) { return j.value("re", json()) == id; });
  }
  json next(const std::string& type) {
    return next_if([&](const json& j) { return j.value("type", "") == type; });
  }

 private:
  template <class Pred>
  json next_if(Pred pred) {
    for (;;) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it)
        if (pred(*it)) {
          json j = std::move(*it);
          inbox_.erase(it);
          return j;
        }
      std::string text;
      run_client(ioc_, [&]() -> net::awaitable<void> {
        beast::flat_buffer buffer;
        co_await ws_.async_read(buffer, net::use_awaitable);
        text = beast::buffers_to_string(buffer.data());
      });
      inbox_.push_back(json::parse(text, nullptr, false));
    }
  }

  std::uint16_t port_;
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  std::deque<json> inbox_;
  int last_id_ = 0;
};

}  // namespace ur::server::test
