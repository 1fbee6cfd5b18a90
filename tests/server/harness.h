// Test harness of the server integration tests: a real Server on an ephemeral loopback port in a
// temporary directory, a real HTTP client and a real WebSocket client written with Beast. Every
// network wait has a generous deadline so that a loaded machine slows the tests down instead of
// failing them. Storage is SQLite in the temporary directory, or, when UR_TEST_PG_URL names a
// PostgreSQL server (scripts/pg-test starts one), a database of its own created for each test.
//
// The clients are compiled once, in harness.cpp: instantiating Beast's WebSocket stream and
// Asio's coroutines in every test file cost about a minute of compile time per file. This header
// names only the message types the tests look at.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/cluster/redis_commands.h"
#include "server/server.h"
#include "server/server_context.h"

namespace ur::server::test {

namespace fs = std::filesystem;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using json = nlohmann::json;
using Response = http::response<http::string_body>;

inline constexpr auto kDeadline = std::chrono::seconds(20);

struct Request {
  http::verb method = http::verb::get;
  std::string target = "/";
  std::string body;
  std::string cookie;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
};

// One request on a fresh connection; throws when there is no answer within kDeadline.
Response send_http(std::uint16_t port, const Request& r);

// Sends raw `bytes` on one connection and returns everything the server sends back until it
// closes the connection (or `wait` passes: then `closed` is false).
struct RawExchange {
  std::string received;
  bool closed = false;
};
RawExchange raw_exchange(std::uint16_t port, const std::string& bytes,
                         std::chrono::milliseconds wait = std::chrono::milliseconds(3000));

// Sends raw `bytes`, half-closes the connection (a request left waiting for more bytes ends at
// once instead of timing out) and reads one HTTP response: its status, or 0 when none came.
unsigned raw_request_status(std::uint16_t port, const std::string& bytes);

// The action due at `table` (a snapshot): a throw when one is due, else its first legal move.
inline json first_action(const json& table, const std::string& action_id) {
  json msg{{"table", table["id"]}, {"version", table["version"]}, {"action_id", action_id}};
  const json& moves = table["game"]["legal_moves"];
  msg["type"] = moves.empty() ? "roll" : "move";
  if (!moves.empty()) {
    msg["from"] = moves[0]["from"];
    msg["to"] = moves[0]["to"];
    msg["kind"] = moves[0]["kind"];
  }
  return msg;
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
  explicit TestWs(std::uint16_t port);
  ~TestWs();
  TestWs(const TestWs&) = delete;
  TestWs& operator=(const TestWs&) = delete;

  // Returns the HTTP status of a refused upgrade (0 on success).
  unsigned connect(const std::string& cookie = "", const std::string& origin = "",
                   const std::string& target = "/ws");
  // The same with `Authorization: Bearer <token>` (a bot account, docs/server.md).
  unsigned connect_bearer(const std::string& token);

  void send(const std::string& text, bool binary = false);
  void send(const json& j) { send(j.dump()); }

  json read();

  // Reads until the connection ends; the error that ended it.
  beast::error_code read_until_closed();

  websocket::close_reason reason() const;

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
  // How long connect() and read() (so next_if and request) wait before they throw (kDeadline
  // unless set):
  // a client of a node cut off from its database gives up sooner and reconnects elsewhere. The
  // connection is not usable after such a throw.
  void set_read_deadline(std::chrono::milliseconds d) { read_deadline_ = d; }

 private:
  unsigned handshake(const std::string& cookie, const std::string& origin,
                     const std::string& authorization, const std::string& target);

  struct Connection;  // the Beast stream and its io_context (harness.cpp)
  std::unique_ptr<Connection> conn_;
  std::deque<json> inbox_;
  int last_id_ = 0;
  std::chrono::steady_clock::duration read_deadline_ = kDeadline;
};

// `url` with its database replaced: "postgresql://u@h:1/postgres" -> "postgresql://u@h:1/NAME".
std::string pg_url_with_database(const std::string& url, const std::string& name);

// Runs `sql` on the PostgreSQL database at `url` (outside any transaction) and returns the first
// column of the first row as text ("" when there is no row or it is NULL).
std::string pg_query_value(const std::string& url, const std::string& sql);

// A database of its own on the PostgreSQL server named by UR_TEST_PG_URL, created by the
// constructor (which throws if it cannot) and dropped by the destructor, connections and all.
class TestPgDatabase {
 public:
  // The server to use, or null: then the tests use SQLite.
  static const char* admin_url() {
    const char* url = std::getenv("UR_TEST_PG_URL");
    return url && *url ? url : nullptr;
  }

  TestPgDatabase();
  ~TestPgDatabase();
  TestPgDatabase(const TestPgDatabase&) = delete;
  TestPgDatabase& operator=(const TestPgDatabase&) = delete;

  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

  // Runs `sql` on the server's maintenance database; the first cell of the answer as text.
  std::string exec(const std::string& sql) const { return pg_query_value(admin_, sql); }

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

// One Redis command, waited for (the tests only: the server never waits for Redis).
inline RedisReply redis_sync(RedisCommands& redis, std::vector<std::string> args) {
  std::promise<RedisReply> answer;
  redis.call(std::move(args), [&answer](RedisReply r) { answer.set_value(std::move(r)); });
  return answer.get_future().get();
}

}  // namespace ur::server::test
