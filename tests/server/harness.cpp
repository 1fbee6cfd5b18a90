// The network clients of the test harness (harness.h), compiled once for every server test
// program: each runs one coroutine on a private io_context with a deadline.
#include "harness.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <pqxx/pqxx>

#include <cstdio>
#include <random>

namespace ur::server::test {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// Runs one client coroutine to completion on a private io_context, at most kDeadline; rethrows
// its exception. Stops as soon as the coroutine is done: timers of the stream may still be armed.
template <class F>
void run_client(net::io_context& ioc, F body,
                std::chrono::steady_clock::duration deadline = kDeadline) {
  std::exception_ptr failure;
  bool done = false;
  ioc.restart();
  net::co_spawn(ioc, std::move(body), [&](std::exception_ptr e) {
    failure = e;
    done = true;
    ioc.stop();
  });
  ioc.run_for(deadline);
  if (!done) throw std::runtime_error("client operation timed out");
  if (failure) std::rethrow_exception(failure);
}

tcp::endpoint loopback(std::uint16_t port) {
  return tcp::endpoint(net::ip::make_address("127.0.0.1"), port);
}

}  // namespace

Response send_http(std::uint16_t port, const Request& r) {
  net::io_context ioc;
  Response res;
  run_client(ioc, [&]() -> net::awaitable<void> {
    beast::tcp_stream stream(ioc);
    stream.expires_after(kDeadline);
    co_await stream.async_connect(loopback(port), net::use_awaitable);
    http::request<http::string_body> req{r.method, r.target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    if (!r.body.empty() || r.method == http::verb::post)
      req.set(http::field::content_type, r.content_type);
    if (!r.cookie.empty()) req.set(http::field::cookie, r.cookie);
    for (auto& [k, v] : r.headers) req.set(k, v);
    req.body() = r.body;
    req.prepare_payload();
    co_await http::async_write(stream, req, net::use_awaitable);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.skip(r.method == http::verb::head);
    co_await http::async_read(stream, buffer, parser, net::use_awaitable);
    res = parser.release();
  });
  return res;
}

RawExchange raw_exchange(std::uint16_t port, const std::string& bytes,
                         std::chrono::milliseconds wait) {
  net::io_context ioc;
  RawExchange out;
  run_client(ioc, [&]() -> net::awaitable<void> {
    beast::tcp_stream stream(ioc);
    stream.expires_after(kDeadline);
    co_await stream.async_connect(loopback(port), net::use_awaitable);
    co_await net::async_write(stream, net::buffer(bytes), net::use_awaitable);
    stream.expires_after(wait);
    char buf[4096];
    for (;;) {
      auto [ec, n] =
          co_await stream.async_read_some(net::buffer(buf), net::as_tuple(net::use_awaitable));
      out.received.append(buf, n);
      if (ec) {
        out.closed = ec == net::error::eof || ec == net::error::connection_reset;
        co_return;
      }
    }
  });
  return out;
}

unsigned raw_request_status(std::uint16_t port, const std::string& bytes) {
  net::io_context ioc;
  unsigned status = 0;
  run_client(ioc, [&]() -> net::awaitable<void> {
    beast::tcp_stream s(ioc);
    s.expires_after(kDeadline);
    co_await s.async_connect(loopback(port), net::use_awaitable);
    co_await net::async_write(s, net::buffer(bytes), net::use_awaitable);
    s.socket().shutdown(tcp::socket::shutdown_send);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    auto [ec, n] = co_await http::async_read(s, buf, res, net::as_tuple(net::use_awaitable));
    if (!ec) status = res.result_int();
  });
  return status;
}

struct TestWs::Connection {
  explicit Connection(std::uint16_t p) : port(p), ws(ioc) {}
  std::uint16_t port;
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws;
};

TestWs::TestWs(std::uint16_t port) : conn_(std::make_unique<Connection>(port)) {}
TestWs::~TestWs() = default;

unsigned TestWs::connect(const std::string& cookie, const std::string& origin,
                         const std::string& target) {
  return handshake(cookie, origin, "", target);
}

unsigned TestWs::connect_bearer(const std::string& token) {
  return handshake("", "", "Bearer " + token, "/ws");
}

unsigned TestWs::handshake(const std::string& cookie, const std::string& origin,
                           const std::string& authorization, const std::string& target) {
  unsigned refused = 0;
  auto& ws = conn_->ws;
  run_client(
      conn_->ioc,
      [&]() -> net::awaitable<void> {
        beast::get_lowest_layer(ws).expires_after(kDeadline);
        co_await beast::get_lowest_layer(ws).async_connect(loopback(conn_->port),
                                                           net::use_awaitable);
        beast::get_lowest_layer(ws).socket().set_option(tcp::no_delay(true));
        beast::get_lowest_layer(ws).expires_never();
        ws.set_option(
            websocket::stream_base::timeout{kDeadline, websocket::stream_base::none(), false});
        ws.set_option(websocket::stream_base::decorator(
            [cookie, origin, authorization](websocket::request_type& r) {
              if (!cookie.empty()) r.set(http::field::cookie, cookie);
              if (!origin.empty()) r.set(http::field::origin, origin);
              if (!authorization.empty()) r.set(http::field::authorization, authorization);
            }));
        websocket::response_type res;
        auto [ec] = co_await ws.async_handshake(res, "127.0.0.1:" + std::to_string(conn_->port),
                                                target, net::as_tuple(net::use_awaitable));
        if (ec) refused = res.result_int() ? res.result_int() : 1;
      },
      read_deadline_);
  return refused;
}

void TestWs::send(const std::string& text, bool binary) {
  auto& ws = conn_->ws;
  run_client(conn_->ioc, [&]() -> net::awaitable<void> {
    ws.binary(binary);
    co_await ws.async_write(net::buffer(text), net::use_awaitable);
  });
}

json TestWs::read() {
  std::string text;
  auto& ws = conn_->ws;
  run_client(
      conn_->ioc,
      [&]() -> net::awaitable<void> {
        beast::flat_buffer buffer;
        co_await ws.async_read(buffer, net::use_awaitable);
        text = beast::buffers_to_string(buffer.data());
      },
      read_deadline_);
  if (std::getenv("UR_TEST_TRACE")) std::fprintf(stderr, "<< %.300s\n", text.c_str());
  return json::parse(text, nullptr, false);
}

beast::error_code TestWs::read_until_closed() {
  beast::error_code result;
  auto& ws = conn_->ws;
  run_client(conn_->ioc, [&]() -> net::awaitable<void> {
    for (;;) {
      beast::flat_buffer buffer;
      auto [ec, n] = co_await ws.async_read(buffer, net::as_tuple(net::use_awaitable));
      if (ec) {
        result = ec;
        co_return;
      }
    }
  });
  return result;
}

websocket::close_reason TestWs::reason() const {
  return conn_->ws.reason();
}

std::string pg_url_with_database(const std::string& url, const std::string& name) {
  std::size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  std::size_t path = url.find_first_of("/?", start);
  if (path == std::string::npos) return url + "/" + name;
  std::size_t query = url.find('?', path);
  return url.substr(0, path) + "/" + name + (query == std::string::npos ? "" : url.substr(query));
}

std::string pg_query_value(const std::string& url, const std::string& sql) {
  pqxx::connection c(url);
  pqxx::nontransaction tx(c);
  pqxx::result r = tx.exec(sql);
  if (r.empty() || r.columns() == 0 || r[0][0].is_null()) return "";
  return r[0][0].c_str();
}

TestPgDatabase::TestPgDatabase() : admin_(admin_url() ? admin_url() : "") {
  if (admin_.empty()) throw std::runtime_error("UR_TEST_PG_URL is not set");
  std::random_device rd;
  std::uniform_int_distribution<unsigned long long> dist;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", dist(rd));
  name_ = std::string("ur_t_") + hex;
  url_ = pg_url_with_database(admin_, name_);
  exec("CREATE DATABASE " + name_);
}

TestPgDatabase::~TestPgDatabase() {
  try {
    exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  } catch (const std::exception& e) {
    ADD_FAILURE() << "cannot drop test database " << name_ << ": " << e.what();
  }
}

}  // namespace ur::server::test
