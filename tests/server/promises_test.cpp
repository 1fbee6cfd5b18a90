// Promises of docs/server.md and docs/protocol.md checked from the outside: /api/health answers
// 503 while the database is down; WebSocket upgrades are checked against the server's public
// origins, so a DNS-rebound page (Host = Origin = the attacker's name) is refused; `open_table`
// by a player who left answers `you: null`; a game whose first player never opens the table is
// aborted, unrated, and both players hear of it. No test here fails on a timing: the abort is
// waited for with the harness's deadline.
#include "holding_storage.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class PromisesTest : public TableFixture {
 protected:
  // The upgrade request a browser sends, with the Host and Origin a test chooses; its status.
  unsigned upgrade(const std::string& host, const std::string& origin) {
    std::string req = "GET /ws HTTP/1.1\r\nHost: " + host +
                      "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\nOrigin: " +
                      origin + "\r\n\r\n";
    return raw_request_status(port_, req);
  }
  std::string self() const { return "127.0.0.1:" + std::to_string(port_); }
};

TEST_F(PromisesTest, HealthAnswers503WhileTheDatabaseIsDown) {
  server_ = std::make_unique<Server>(config());
  ASSERT_EQ(server_->start(), "");
  std::unique_ptr<Storage>& storage = server_->context().storage;
  auto holding = std::make_unique<HoldingStorage>(std::move(storage));
  HoldingStorage& db = *holding;
  storage = std::move(holding);
  port_ = server_->port();
  thread_ = std::thread([this] { server_->run(); });
  EXPECT_EQ(get("/api/health").result_int(), 200);
  db.set_down(true);
  Response down = get("/api/health");
  EXPECT_EQ(down.result_int(), 503) << down.body();
  json body = body_json(down);
  EXPECT_EQ(body["status"], "degraded") << down.body();
  EXPECT_TRUE(body["schema_version"].is_null()) << down.body();
  db.set_down(false);
  EXPECT_EQ(get("/api/health").result_int(), 200) << "healthy again once it answers";
}

// The same with a real PostgreSQL that refuses this server's connections (scripts/pg-test).
TEST_F(PromisesTest, HealthAnswers503WhilePostgresqlRefusesConnections) {
  if (!pg_) GTEST_SKIP() << "PostgreSQL only (scripts/pg-test sets UR_TEST_PG_URL)";
  start_server();
  EXPECT_EQ(get("/api/health").result_int(), 200);
  const std::string name = pg_->name();
  pg_->exec("ALTER DATABASE \"" + name + "\" ALLOW_CONNECTIONS false");
  pg_->exec("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '" +
            name + "'");
  Response down = get("/api/health");
  EXPECT_EQ(down.result_int(), 503) << down.body();
  pg_->exec("ALTER DATABASE \"" + name + "\" ALLOW_CONNECTIONS true");
  // The pool reconnects at its next use; a few tries, bounded by the harness's deadline.
  auto until = std::chrono::steady_clock::now() + kDeadline;
  unsigned status = 0;
  while ((status = get("/api/health").result_int()) != 200 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(status, 200u);
}

TEST_F(PromisesTest, ADnsReboundPageCannotOpenAWebSocket) {
  start_server();
  const std::string port = std::to_string(port_);
  EXPECT_EQ(upgrade(self(), "http://" + self()), 101u) << "the server's own address";
  EXPECT_EQ(upgrade("localhost:" + port, "http://localhost:" + port), 101u);
  EXPECT_EQ(upgrade(self(), "http://localhost:5173"), 101u) << "--allowed-origin still works";
  // The attacker's name resolved to this server: Host and Origin both carry it.
  EXPECT_EQ(upgrade("evil.example:" + port, "http://evil.example:" + port), 403u);
  EXPECT_EQ(upgrade(self(), "http://evil.example:" + port), 403u);
}

TEST_F(PromisesTest, APublicOriginIsTheOneThatMayOpenWebSockets) {
  ServerConfig c = config();
  c.public_origins = {"https://ur.example.org"};
  ServerFixture::start_server(c);
  EXPECT_EQ(upgrade("ur.example.org", "https://ur.example.org"), 101u);
  EXPECT_EQ(upgrade(self(), "http://localhost:5173"), 101u);
  EXPECT_EQ(upgrade("evil.example", "http://evil.example"), 403u);
  EXPECT_EQ(upgrade(self(), "http://" + self()), 403u) << "published by name only";
}

TEST_F(PromisesTest, OpenTableByAPlayerWhoLeftAnswersYouNull) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"public", true}});
  json table = snapshot(bob, id);
  json left = bob->request(
      {{"type", "leave"}, {"table", id}, {"version", table["version"]}, {"action_id", "l1"}});
  ASSERT_EQ(left["type"], "action_ok") << left;
  json again = bob->request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(again["type"], "joined") << again;
  EXPECT_EQ(again["role"], "spectator");
  EXPECT_TRUE(again["you"].is_null()) << again["you"];
  EXPECT_EQ(alice->request({{"type", "open_table"}, {"table", id}})["you"], 1);
}

TEST_F(PromisesTest, AGameWhoseFirstPlayerNeverOpensTheTableIsAbortedUnrated) {
  ServerConfig c = config();
  c.first_move_abort = std::chrono::milliseconds(300);
  ServerFixture::start_server(c);
  Client a = user("alice"), b = user("bob");
  ASSERT_EQ(a->request({{"type", "find_match"}, {"rules", "finkel"}, {"rated", true}})["type"],
            "queued");
  ASSERT_EQ(b->request({{"type", "find_match"}, {"rules", "finkel"}, {"rated", true}})["type"],
            "queued");
  json fa = a->next("match_found"), fb = b->next("match_found");
  ASSERT_TRUE(fa["table"]["rated"].get<bool>()) << fa;
  std::string id = fa["table"]["id"];
  // Neither page opens the table: both sockets (subscribed by the match) hear the abort.
  for (Client* p : {&a, &b}) {
    json closed = (*p)->next_if([&](const json& j) {
      return j["type"] == "table" && j["table"]["id"] == id && j["table"]["status"] == "closed";
    });
    ASSERT_EQ(closed["events"].size(), 2u) << closed;
    EXPECT_EQ(closed["events"][0]["kind"], "aborted") << closed;
    EXPECT_EQ(closed["events"][0]["seat"], fa["table"]["game"]["to_act"]) << closed;
    EXPECT_EQ(closed["events"][1]["kind"], "closed") << closed;
  }
  for (Client* p : {&a, &b}) {
    json u = me(*p);
    EXPECT_EQ(u["rating"], 1200) << u;
    EXPECT_EQ(u["games"], 0) << u;
  }
  // No game was recorded for either player.
  json matches = body_json(get("/api/users/alice/matches"));
  ASSERT_TRUE(matches["matches"].is_array()) << matches;
  EXPECT_TRUE(matches["matches"].empty()) << matches;
}

}  // namespace
}  // namespace ur::server
