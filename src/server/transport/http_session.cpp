#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <chrono>
#include <tuple>
#include <vector>

#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/transport/server_impl.h"

namespace ur::server {
namespace {

namespace websocket = beast::websocket;
using net::awaitable;

std::string remote_ip_of(const tcp::socket& socket) {
  boost::system::error_code ec;
  auto ep = socket.remote_endpoint(ec);
  return ec ? std::string("unknown") : ep.address().to_string();
}

class HttpSession final : public Connection, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(Server::Impl& server, tcp::socket&& socket)
      : server_(server),
        ctx_(*server.ctx),
        strand_(socket.get_executor()),
        ip_(remote_ip_of(socket)),
        id_(ctx_.next_connection_id++),
        stream_(std::move(socket)) {}

  void shutdown() override {
    net::post(strand_, [self = shared_from_this()] {
      // Idle between requests: close now. Mid-request: the loop closes after this response.
      if (self->reading_ && !self->handed_off_) self->stream_.cancel();
    });
  }

  void force_close() override {
    if (!handed_off_) stream_.close();
  }

  awaitable<void> run() {
    auto self = shared_from_this();
    const ServerConfig& cfg = ctx_.config;
    const Server::Impl::Registration registration(server_, id_, weak_from_this());

    beast::flat_buffer buffer;
    for (;;) {
      if (server_.stopping) break;
      beast::http::request_parser<beast::http::string_body> parser;
      parser.header_limit(static_cast<std::uint32_t>(cfg.max_header_bytes));
      parser.body_limit(cfg.max_body_bytes);
      stream_.expires_after(cfg.http_timeout);
      reading_ = true;
      auto [ec, refused] = co_await read_request(buffer, parser);
      if (refused) co_return;
      reading_ = false;
      if (ec == beast::http::error::body_limit) {
        co_await fail_and_close(
            ServerErrc::kTooLarge,
            "request body exceeds " + std::to_string(cfg.max_body_bytes) + " bytes");
        co_return;
      }
      if (ec == beast::http::error::header_limit) {
        co_await fail_and_close(http::status::request_header_fields_too_large,
                                ServerErrc::kTooLarge, "request headers too large");
        co_return;
      }
      if (ec &&
          ec.category() ==
              beast::http::make_error_code(beast::http::error::bad_target).category() &&
          ec != beast::http::error::end_of_stream && ec != beast::http::error::partial_message) {
        co_await fail_and_close(Errc::kBadRequest, "malformed request");
        co_return;
      }
      if (ec) break;  // end of stream, timeout, reset

      Request req = parser.release();
      const std::string ip = client_address(ip_, req["X-Forwarded-For"], cfg.trusted_proxies);
      if (websocket::is_upgrade(req)) {
        co_await upgrade(std::move(req), ip);
        co_return;
      }

      std::string line;
      if (cfg.access_log)
        line = ip + " " + std::string(req.method_string()) + " " + std::string(req.target());
      auto started = std::chrono::steady_clock::now();
      HttpAnswer answer = co_await handle_http(ctx_, std::move(req), ip);
      bool keep_alive = answer.message.keep_alive() && !server_.stopping;
      stream_.expires_after(cfg.http_timeout);
      auto [wec, wn] = co_await beast::async_write(stream_, std::move(answer.message), kNoThrow);
      ctx_.metrics.http_request(answer.status, std::chrono::steady_clock::now() - started);
      if (cfg.access_log) {
        auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
        log_line(line + " " + std::to_string(answer.status) + " " + std::to_string(wn) + "B " +
                 std::to_string(us / 1000.0) + "ms");
      }
      if (wec || !keep_alive) break;
    }
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

 private:
  // Hands a WebSocket upgrade of /ws, from an allowed origin and an address below its limit,
  // to a WebSocket session; answers anything else with an error and closes.
  awaitable<void> upgrade(Request req, const std::string& ip) {
    const ServerConfig& cfg = ctx_.config;
    std::string_view target = req.target();
    if (target.substr(0, target.find('?')) != "/ws") {
      co_await fail_and_close(ServerErrc::kNotFound, "WebSocket endpoint is /ws");
      co_return;
    }
    if (!origin_allowed(req[beast::http::field::origin], req[beast::http::field::host],
                        cfg.public_origins, cfg.allow_origins)) {
      ctx_.metrics.ws_refused();
      if (cfg.access_log) log_line(ip + " ws refused: origin not allowed");
      co_await fail_and_close(ServerErrc::kBadOrigin, "origin not allowed");
      co_return;
    }
    if (!ctx_.try_add_ws(ip)) {
      ctx_.metrics.ws_refused();
      if (cfg.access_log) log_line(ip + " ws refused: too many connections from this address");
      co_await fail_and_close(ServerErrc::kRateLimited,
                              "too many open connections from your address");
      co_return;
    }
    handed_off_ = true;
    stream_.expires_never();
    ctx_.metrics.ws_opened();
    start_ws_session(server_, std::move(stream_), ip, std::move(req));
  }

  // Reads one request into `parser`. True when it broke the framing rules: then it has been
  // answered and the connection closed.
  awaitable<std::pair<boost::system::error_code, bool>> read_request(
      beast::flat_buffer& buffer, beast::http::request_parser<beast::http::string_body>& parser) {
    auto ec = co_await read_header_block(buffer, ctx_.config.max_header_bytes);
    if (!ec) {
      // The header block is whole in the buffer: checked as raw bytes before Beast parses it
      // (Beast unfolds obsolete line folding), then its framing fields once parsed.
      std::string_view raw(static_cast<const char*>(buffer.data().data()), buffer.size());
      std::size_t start = raw.find_first_not_of("\r\n");
      raw = start == std::string_view::npos ? std::string_view() : raw.substr(start);
      if (auto bad = check_header_block(raw.substr(0, raw.find("\r\n\r\n")))) {
        co_await refuse_framing(*bad);
        co_return std::pair{ec, true};
      }
      std::tie(ec, std::ignore) =
          co_await beast::http::async_read_header(stream_, buffer, parser, kNoThrow);
    }
    if (!ec) {
      std::vector<std::string_view> te, cl;
      for (const auto& field : parser.get()) {
        if (field.name() == beast::http::field::transfer_encoding) te.push_back(field.value());
        if (field.name() == beast::http::field::content_length) cl.push_back(field.value());
      }
      if (auto bad = check_framing(te, cl)) {
        co_await refuse_framing(*bad);
        co_return std::pair{ec, true};
      }
      if (!parser.is_done())
        std::tie(ec, std::ignore) =
            co_await beast::http::async_read(stream_, buffer, parser, kNoThrow);
    }
    co_return std::pair{ec, false};
  }

  // Reads until the buffer holds a whole header block (up to its empty line), or fails with
  // header_limit once `limit` bytes came without one. Bytes already buffered (a pipelined
  // request) count.
  awaitable<boost::system::error_code> read_header_block(beast::flat_buffer& buffer,
                                                         std::size_t limit) {
    for (;;) {
      std::string_view have(static_cast<const char*>(buffer.data().data()), buffer.size());
      // A bare-LF end is Beast's to refuse (400), not a reason to wait for the timeout.
      if (have.find("\r\n\r\n") != std::string_view::npos ||
          have.find("\n\n") != std::string_view::npos)
        co_return boost::system::error_code{};
      if (have.size() > limit) co_return beast::http::error::header_limit;
      auto [ec, n] = co_await stream_.async_read_some(buffer.prepare(4096), kNoThrow);
      if (ec) {
        // The same "clean end" Beast reports when a connection closes between requests.
        if (ec == net::error::eof)
          co_return have.empty() ? beast::http::error::end_of_stream
                                 : beast::http::error::partial_message;
        co_return ec;
      }
      buffer.commit(n);
    }
  }

  awaitable<void> refuse_framing(const FramingError& bad) {
    if (ctx_.config.access_log) log_line(ip_ + " request refused: " + bad.message);
    co_await fail_and_close(
        static_cast<http::status>(bad.status),
        bad.status == 501 ? ErrorCode(ServerErrc::kNotImplemented) : ErrorCode(Errc::kBadRequest),
        bad.message);
  }

  // Answers with an error and closes, reading (and discarding) what the client still sends for a
  // moment first: closing with unread data makes the kernel send RST, which can destroy the error
  // response before the client reads it.
  awaitable<void> fail_and_close(ErrorCode code, std::string message) {
    co_await fail_and_close(http_status(code), code, std::move(message));
  }

  // The same with a status finer than the code's own (431 for headers too large).
  awaitable<void> fail_and_close(http::status status, ErrorCode code, std::string message) {
    stream_.expires_after(ctx_.config.http_timeout);
    co_await beast::async_write(stream_, error_response(11, false, status, code, message),
                                kNoThrow);
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(2));
    std::vector<char> sink(16 * 1024);
    std::size_t drained = 0;
    while (drained < (1u << 20)) {
      auto [ec, n] = co_await stream_.async_read_some(net::buffer(sink), kNoThrow);
      if (ec) break;
      drained += n;
    }
  }

  Server::Impl& server_;
  ServerContext& ctx_;
  net::any_io_executor strand_;
  std::string ip_;
  std::uint64_t id_;
  beast::tcp_stream stream_;
  bool reading_ = false;
  bool handed_off_ = false;
};

}  // namespace

void start_http_session(Server::Impl& server, tcp::socket socket) {
  auto executor = socket.get_executor();
  auto session = std::make_shared<HttpSession>(server, std::move(socket));
  net::co_spawn(executor, session->run(), net::detached);
}

}  // namespace ur::server
