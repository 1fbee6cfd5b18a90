// Test harness of the server integration tests: a real Server on an ephemeral loopback port in a
// temporary directory, a real HTTP client and a real WebSocket client written with Beast. Every
// network wait has a generous deadline so that a loaded machine slows the tests down instead of
// failing them. Storage is SQLite in the temporary directory, or, when UR_TEST_PG_URL names a
// PostgreSQL server (scripts/pg-test starts one), a database of its own created for each test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "server/server.h"
#include "server/server_context.h"

namespace ur::server::test {

namespace fs = std::filesystem;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Response = http::response<http::string_body>;

inline constexpr auto kDeadline = std::chrono::seconds(20);

// Runs one client coroutine to completion on a private io_context, at most kDeadline; rethrows
// its exception. Stops as soon as the coroutine is done: timers of the stream may still be armed.
template <class F>
inline void run_client(net::io_context& ioc, F body) {
  std::exception_ptr failure;
  bool done = false;
  ioc.restart();
  net::co_spawn(ioc, std::move(body), [&](std::exception_ptr e) {
    failure = e;
    done = true;
    ioc.stop();
  });
  ioc.run_for(kDeadline);
  if (!done) throw std::runtime_error("client operation timed out");
  if (failure) std::rethrow_exception(failure);
}

struct Request {
  http::verb method = http::verb::get;
  std::string target = "/";
  std::string body;
  std::string cookie;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
};

inline Response send_http(std::uint16_t port, const Request& r) {
  net::io_context ioc;
  Response res;
  run_client(ioc, [&]() -> net::awaitable<void> {
    beast::tcp_stream stream(ioc);
    stream.expires_after(kDeadline);
    co_await stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                                  net::use_awaitable);
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

inline json body_json(const Response& res) {
  return json::parse(res.body(), nullptr, false);
}

// "ur_session=...; Path=/; ..." -> "ur_session=..."
inline std::string session_cookie(const Response& res) {
  std::string c(res[http::field::set_cookie]);
  return c.substr(0, c.find(';'));
}

// A WebSocket client: connect() performs the upgrade; read() waits for one text message.
class TestWs {
 public:
  explicit TestWs(std::uint16_t port) : port_(port), ws_(ioc_) {}

  // Returns the HTTP status of a refused upgrade (0 on success).
  unsigned connect(const std::string& cookie = "", const std::string& origin = "",
                   const std::string& target = "/ws") {
    unsigned refused = 0;
    run_client(ioc_, [&]() -> net::awaitable<void> {
      beast::get_lowest_layer(ws_).expires_after(kDeadline);
      co_await beast::get_lowest_layer(ws_).async_connect(
          tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), net::use_awaitable);
      beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
      beast::get_lowest_layer(ws_).expires_never();
      ws_.set_option(
          websocket::stream_base::timeout{kDeadline, websocket::stream_base::none(), false});
      ws_.set_option(
          websocket::stream_base::decorator([cookie, origin](websocket::request_type& r) {
            if (!cookie.empty()) r.set(http::field::cookie, cookie);
            if (!origin.empty()) r.set(http::field::origin, origin);
          }));
      websocket::response_type res;
      auto [ec] = co_await ws_.async_handshake(res, "127.0.0.1:" + std::to_string(port_), target,
                                               net::as_tuple(net::use_awaitable));
      if (ec) refused = res.result_int() ? res.result_int() : 1;
    });
    return refused;
  }

  void send(const std::string& text, bool binary = false) {
    run_client(ioc_, [&]() -> net::awaitable<void> {
      ws_.binary(binary);
      co_await ws_.async_write(net::buffer(text), net::use_awaitable);
    });
  }
  void send(const json& j) { send(j.dump()); }

  json read() {
    std::string text;
    run_client(ioc_, [&]() -> net::awaitable<void> {
      beast::flat_buffer buffer;
      co_await ws_.async_read(buffer, net::use_awaitable);
      text = beast::buffers_to_string(buffer.data());
    });
    if (std::getenv("UR_TEST_TRACE")) std::fprintf(stderr, "<< %.300s\n", text.c_str());
    return json::parse(text, nullptr, false);
  }

  // Reads until the connection ends; the error that ended it.
  beast::error_code read_until_closed() {
    beast::error_code result;
    run_client(ioc_, [&]() -> net::awaitable<void> {
      for (;;) {
        beast::flat_buffer buffer;
        auto [ec, n] = co_await ws_.async_read(buffer, net::as_tuple(net::use_awaitable));
        if (ec) {
          result = ec;
          co_return;
        }
      }
    });
    return result;
  }

  websocket::close_reason reason() const { return ws_.reason(); }

  // The first message (already received or still to come) that satisfies `pred`; the messages
  // read past on the way stay in the inbox for later calls, in order.
  template <class Pred>
  json next_if(Pred pred) {
    for (;;) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it)
        if (pred(*it)) {
          json j = std::move(*it);
          inbox_.erase(it);
          return j;
        }
      inbox_.push_back(read());
    }
  }
  // The next message of `type` (for the table broadcasts: of that table).
  json next(const std::string& type) {
    return next_if([&](const json& j) { return j.value("type", "") == type; });
  }
  // Sends `msg` with a fresh id and returns the message that answers it ("re").
  json request(json msg) {
    int id = ++last_id_;
    msg["v"] = 1;
    msg["id"] = id;
    send(msg);
    return next_if([&](const json& j) { return j.contains("re") && j["re"] == id; });
  }
  // Drops every message received so far.
  void clear_inbox() { inbox_.clear(); }

 private:
  std::uint16_t port_;
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  std::deque<json> inbox_;
  int last_id_ = 0;
};

// `url` with its database replaced: "postgresql://u@h:1/postgres" -> "postgresql://u@h:1/NAME".
inline std::string pg_url_with_database(const std::string& url, const std::string& name) {
  std::size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  std::size_t path = url.find_first_of("/?", start);
  if (path == std::string::npos) return url + "/" + name;
  std::size_t query = url.find('?', path);
  return url.substr(0, path) + "/" + name + (query == std::string::npos ? "" : url.substr(query));
}

// A database of its own on the PostgreSQL server named by UR_TEST_PG_URL, created by the
// constructor (which throws if it cannot) and dropped by the destructor, connections and all.
class TestPgDatabase {
 public:
  // The server to use, or null: then the tests use SQLite.
  static const char* admin_url() {
    const char* url = std::getenv("UR_TEST_PG_URL");
    return url && *url ? url : nullptr;
  }

  TestPgDatabase() : admin_(admin_url() ? admin_url() : "") {
    if (admin_.empty()) throw std::runtime_error("UR_TEST_PG_URL is not set");
    std::random_device rd;
    std::uniform_int_distribution<unsigned long long> dist;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", dist(rd));
    name_ = std::string("ur_t_") + hex;
    url_ = pg_url_with_database(admin_, name_);
    exec("CREATE DATABASE " + name_);
  }
  ~TestPgDatabase() {
    try {
      exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception& e) {
      ADD_FAILURE() << "cannot drop test database " << name_ << ": " << e.what();
    }
  }
  TestPgDatabase(const TestPgDatabase&) = delete;
  TestPgDatabase& operator=(const TestPgDatabase&) = delete;

  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

  // Runs `sql` on the server's maintenance database (outside any transaction).
  pqxx::result exec(const std::string& sql) const {
    pqxx::connection c(admin_);
    pqxx::nontransaction tx(c);
    return tx.exec(sql);
  }

 private:
  std::string admin_, name_, url_;
};

class ServerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ur_server_it_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = fs::canonical(tmpl);
    db_ = (dir_ / "data" / "ur.db").string();
    if (TestPgDatabase::admin_url()) {
      ASSERT_NO_THROW(pg_ = std::make_unique<TestPgDatabase>());
      db_ = pg_->url();
    }
    fs::create_directories(dir_ / "web" / "assets");
    std::ofstream(dir_ / "web" / "index.html") << "<!doctype html><title>ur</title>home page";
    std::ofstream(dir_ / "web" / "assets" / "app.js") << "console.log('ur');";
    std::ofstream(dir_ / "web" / "assets" / "style.css") << "body{}";
    std::ofstream(dir_ / "secret.txt") << "TOP-SECRET";
  }

  void TearDown() override {
    stop_server();
    pg_.reset();
    fs::remove_all(dir_);
  }

  // The backend that Storage::backend() names for this run.
  std::string expected_backend() const { return pg_ ? "postgresql" : "sqlite"; }

  ServerConfig base_config() {
    ServerConfig c;
    c.port = 0;
    c.data_dir = (dir_ / "data").string();
    c.db = db_;
    c.web_root = (dir_ / "web").string();
    c.handle_signals = false;
    c.access_log = std::getenv("UR_TEST_LOG") != nullptr;  // set it to see the server's log
    c.threads = 2;
    c.auth_burst = 1000;
    c.max_body_bytes = 4096;
    c.max_ws_message_bytes = 1024;
    c.allow_origins = {"http://localhost:5173"};
    c.pwhash_opslimit = 1;  // the real cost is argon2id "interactive"; tests need speed only
    c.pwhash_memlimit = 8 * 1024;
    return c;
  }

  void start_server(ServerConfig c) {
    server_ = std::make_unique<Server>(std::move(c));
    std::string err = server_->start();
    ASSERT_EQ(err, "");
    port_ = server_->port();
    thread_ = std::thread([this] { server_->run(); });
  }
  void start_server() { start_server(base_config()); }

  void stop_server() {
    if (!server_) return;
    server_->stop();
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }

  Response post(const std::string& target, const json& body, const std::string& cookie = "") {
    Request r;
    r.method = http::verb::post;
    r.target = target;
    r.body = body.dump();
    r.cookie = cookie;
    return send_http(port_, r);
  }
  Response get(const std::string& target, const std::string& cookie = "") {
    Request r;
    r.target = target;
    r.cookie = cookie;
    return send_http(port_, r);
  }
  // Registers and returns the session cookie.
  std::string register_user(const std::string& name, const std::string& pw = "password123") {
    Response res = post("/api/register", {{"username", name}, {"password", pw}});
    EXPECT_EQ(res.result_int(), 201) << res.body();
    return session_cookie(res);
  }

  fs::path dir_;
  std::string db_;  // what --db would say: an SQLite path or a PostgreSQL URL
  std::unique_ptr<TestPgDatabase> pg_;
  std::unique_ptr<Server> server_;
  std::thread thread_;
  std::uint16_t port_ = 0;
};

}  // namespace ur::server::test
