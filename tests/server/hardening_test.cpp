// The server held against an attacker and against a client written from docs/protocol.md alone
// (docs/security.md): request smuggling through the framing headers, a private table that kept talking
// to its spectators, client text echoed in errors, the live record of a public game, lobby
// flooding, foreign WebSocket origins, and the protocol's ambiguous corners. Every test talks to
// a real `ur serve` over real sockets.
#include <algorithm>

#include "engine/game_record.h"
#include "engine/notation.h"
#include "harness.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

int count_responses(const std::string& s) {
  int n = 0;
  for (std::size_t at = s.find("HTTP/1.1 "); at != std::string::npos;
       at = s.find("HTTP/1.1 ", at + 1))
    ++n;
  return n;
}

// A second request hidden in the body of the first: it must never be answered.
const std::string kSmuggled = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n";

class HardeningTest : public TableFixture {
 protected:
  // The request head, with `framing` as its framing header lines, and kSmuggled as its body.
  RawExchange smuggle(const std::string& framing) {
    std::string req =
        "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\n" +
        framing + "\r\n" + kSmuggled;
    return raw_exchange(port_, req);
  }
};

TEST_F(HardeningTest, TransferEncodingsOtherThanChunkedAreRefusedAndTheConnectionClosed) {
  start_server();
  for (const std::string& te :
       std::vector<std::string>{"gzip", "xchunked", "chunked, identity", "identity",
                                "chunked, gzip", "chunked , chunked"}) {
    RawExchange r = smuggle("Transfer-Encoding: " + te + "\r\n");
    EXPECT_EQ(r.received.rfind("HTTP/1.1 400 ", 0), 0u) << te << ": " << r.received;
    EXPECT_EQ(count_responses(r.received), 1) << te << ": the body was run as a request";
    EXPECT_TRUE(r.closed) << te;
    EXPECT_EQ(r.received.find("\"status\":\"ok\""), std::string::npos) << te;
  }
  RawExchange unknown = smuggle("Transfer-Encoding: gzip, chunked\r\n");
  EXPECT_EQ(unknown.received.rfind("HTTP/1.1 501 ", 0), 0u) << unknown.received;
  EXPECT_EQ(count_responses(unknown.received), 1);
  EXPECT_TRUE(unknown.closed);
}

TEST_F(HardeningTest, ContentLengthWithTransferEncodingOrTwiceIsRefused) {
  start_server();
  const std::string n = std::to_string(kSmuggled.size());
  for (const std::string& framing :
       std::vector<std::string>{"Content-Length: " + n + "\r\nTransfer-Encoding: chunked\r\n",
                                "Transfer-Encoding: chunked\r\nContent-Length: " + n + "\r\n",
                                "Content-Length: " + n + "\r\nTransfer-Encoding: gzip\r\n",
                                "Content-Length: " + n + "\r\nContent-Length: " + n + "\r\n",
                                "Content-Length: " + n + ", " + n + "\r\n",
                                "Content-Length: 0\r\nContent-Length: " + n + "\r\n",
                                "Content-Length: +" + n + "\r\n"}) {
    RawExchange r = smuggle(framing);
    EXPECT_EQ(r.received.rfind("HTTP/1.1 400 ", 0), 0u) << framing << r.received;
    EXPECT_EQ(count_responses(r.received), 1) << framing;
    EXPECT_TRUE(r.closed) << framing;
  }
}

TEST_F(HardeningTest, ObsoleteLineFoldingAndSpaceBeforeTheColonAreRefused) {
  start_server();
  for (const std::string& head :
       std::vector<std::string>{"GET /api/health HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n",
                                "GET /api/health HTTP/1.1\r\nHost: a\r\nX-A: b\r\n\tc\r\n\r\n",
                                "GET /api/health HTTP/1.1\r\nHost : a\r\n\r\n",
                                "GET /api/health HTTP/1.1\r\nHost\t: a\r\n\r\n"}) {
    RawExchange r = raw_exchange(port_, head + kSmuggled);
    EXPECT_EQ(r.received.rfind("HTTP/1.1 400 ", 0), 0u) << head << r.received;
    EXPECT_EQ(count_responses(r.received), 1) << head;
    EXPECT_TRUE(r.closed) << head;
  }
}

TEST_F(HardeningTest, WellFramedRequestsStillWorkOnOneConnection) {
  start_server();
  // Chunked, then a Content-Length body, then a bodiless GET, pipelined on one connection.
  std::string body = R"({"username":"nobody","password":"whatever1"})";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  std::string reqs =
      "POST /api/login HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
      "Transfer-Encoding: chunked\r\n\r\n" +
      std::string(size) + "\r\n" + body + "\r\n0\r\n\r\n" +
      "POST /api/login HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body +
      "GET /api/health HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n";
  RawExchange r = raw_exchange(port_, reqs);
  EXPECT_EQ(count_responses(r.received), 3) << r.received;
  EXPECT_EQ(r.received.rfind("HTTP/1.1 401 ", 0), 0u) << r.received;
  EXPECT_NE(r.received.find("\"status\":\"ok\""), std::string::npos);
}

TEST_F(HardeningTest, SpectatorsOfATableMadePrivateAreToldOnceAndHearNothingMore) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = guest();
  std::string id = start_game(alice, bob, {{"public", true}});
  json watched = carol->request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(watched["role"], "spectator") << watched;

  json ok = alice->request({{"type", "set_visibility"}, {"table", id}, {"public", false}});
  ASSERT_EQ(ok["type"], "ok") << ok;
  json told = carol->next_if([](const json& j) {
    return j["type"] != "spectators";  // the count that announced carol herself
  });
  EXPECT_EQ(told["type"], "table_private") << told;
  EXPECT_EQ(told["table"], id);

  // The game goes on; carol hears nothing of it.
  json table = snapshot(alice, id);
  json answer = act(table["game"]["to_act"] == 1 ? alice : bob, table, "after-private");
  ASSERT_EQ(answer["type"], "action_ok") << answer;
  json pong = carol->request({{"type", "ping"}});
  EXPECT_EQ(pong["type"], "pong");
  carol->clear_inbox();
  json again = carol->request({{"type", "ping"}});
  EXPECT_EQ(again["type"], "pong") << "nothing but the answer to the ping arrived";

  json refused = carol->request({{"type", "open_table"}, {"table", id}});
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "private_table");
  // The players still hear everything.
  EXPECT_EQ(snapshot(bob, id)["public"], false);
}

TEST_F(HardeningTest, ErrorsNeverRepeatWhatTheClientSent) {
  start_server();
  Client c = guest();
  const std::string marker = "zq<script>alert(1)</script>zq";
  std::vector<json> answers;
  answers.push_back(c->request({{"type", "create_table"}, {"rules", "zq-nonsense-zq"}}));
  answers.push_back(c->request({{"type", "create_table"}, {"rules", "finkel(zqkey=1)"}}));
  answers.push_back(c->request({{"type", "create_table"}, {"rules", marker}}));
  answers.push_back(
      c->request({{"type", "create_table"}, {"rules", "finkel(pieces=" + marker + ")"}}));
  answers.push_back(c->request({{"type", "create_table"}, {"rules", "finkel(" + marker + ")"}}));
  answers.push_back(c->request({{"type", "create_table"}, {"level", marker}}));
  answers.push_back(c->request({{"type", "find_match"}, {"rules", marker}}));
  answers.push_back(c->request({{"type", marker}}));
  answers.push_back(c->request({{"type", "open_table"}, {"table", marker}}));
  answers.push_back(c->request({{"type", "move"},
                                {"table", "0000000000000000"},
                                {"version", 1},
                                {"action_id", "a"},
                                {"from", 0},
                                {"to", 1},
                                {"kind", marker}}));
  for (const json& a : answers) {
    EXPECT_EQ(a["type"], "error") << a;
    std::string text = a.dump();
    EXPECT_EQ(text.find("zq"), std::string::npos) << text;
  }
  EXPECT_EQ(answers[0]["code"], "bad_rules");
  EXPECT_EQ(answers[0]["message"], "rules: unknown preset");
  EXPECT_EQ(answers[1]["message"], "rules: unknown parameter");

  Response reg = post("/api/register", {{"username", marker}, {"password", "password123"}});
  EXPECT_EQ(reg.result_int(), 400);
  EXPECT_EQ(reg.body().find("zq"), std::string::npos) << reg.body();
  Response user = get("/api/users/" + marker + "/matches");
  EXPECT_EQ(user.body().find("zq"), std::string::npos) << user.body();
  Response path = get("/" + marker);
  EXPECT_EQ(path.body().find("zq"), std::string::npos) << path.body();
}

TEST_F(HardeningTest, TheRecordOfAGameInProgressIsServedToWhoeverMayWatchIt) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string open = start_game(alice, bob, {{"public", true}});
  json table = snapshot(alice, open);
  for (int i = 0; i < 6; ++i) {
    json a = act(table["game"]["to_act"] == 1 ? alice : bob, table, "r" + std::to_string(i));
    ASSERT_EQ(a["type"], "action_ok") << a;
    table = snapshot(alice, open);
  }
  Response live = get("/api/games/" + open + "/record");
  ASSERT_EQ(live.result_int(), 200) << live.body();
  EXPECT_EQ(live["X-Table-Version"], std::to_string(table["version"].get<std::int64_t>()));
  json record = body_json(live);
  auto replayed = record_from_json(record);
  ASSERT_TRUE(std::holds_alternative<Game>(replayed)) << live.body();
  EXPECT_EQ(
      to_position_string(std::get<Game>(replayed).engine(), std::get<Game>(replayed).position()),
      table["game"]["position"]);

  Client carol = user("carol"), dave = user("dave");
  std::string hidden = start_game(carol, dave, {{"public", false}});
  EXPECT_EQ(get("/api/games/" + hidden + "/record").result_int(), 404) << "not to strangers";
  EXPECT_EQ(get("/api/games/" + hidden + "/record", alice.cookie).result_int(), 404);
  EXPECT_EQ(get("/api/games/" + hidden + "/record", dave.cookie).result_int(), 200)
      << "a player of the private game may read it";
}

TEST_F(HardeningTest, OpenTablesAreCappedPerAccountAndPerGuestAddress) {
  ServerConfig c = config();
  c.max_open_tables = 3;
  c.max_open_tables_per_address = 4;
  ServerFixture::start_server(c);
  Client alice = user("alice");
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(alice->request({{"type", "create_table"}, {"public", true}})["type"], "joined");
  json refused = alice->request({{"type", "create_table"}, {"public", true}});
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "too_many_tables") << refused;
  // A game against the computer starts at once: it never waits, so it is not capped.
  EXPECT_EQ(alice->request({{"type", "create_table"}, {"level", "easy"}, {"public", true}})["type"],
            "joined");

  // Guests are counted by address: new cookies or none do not reset it.
  int made = 0;
  for (int i = 0; i < 6; ++i) {
    Client g = guest();
    if (g->request({{"type", "create_table"}, {"public", true}})["type"] == "joined") ++made;
  }
  EXPECT_EQ(made, 4);

  // The lobby pages through every table in one order.
  json page1 = body_json(get("/api/tables?limit=5"));
  ASSERT_EQ(page1["tables"].size(), 5u) << page1;
  EXPECT_EQ(page1["next_offset"], 5);
  json page2 = body_json(get("/api/tables?limit=5&offset=5"));
  ASSERT_EQ(page2["tables"].size(), 3u) << "3 + 4 waiting tables and one game in progress";
  EXPECT_TRUE(page2["next_offset"].is_null());
  EXPECT_EQ(page2["tables"][2]["status"], "playing") << "the game in progress comes last";
  json ws_page = alice->request({{"type", "list_tables"}, {"limit", 5}, {"offset", 5}});
  EXPECT_EQ(ws_page["tables"], page2["tables"]);
  EXPECT_EQ(body_json(get("/api/tables"))["tables"].size(), 8u);
}

TEST_F(HardeningTest, WebSocketsFromAnotherSiteAreRefused) {
  ServerConfig c = config();
  c.allow_origins = {"https://friend.example"};
  ServerFixture::start_server(c);
  for (const std::string& origin :
       std::vector<std::string>{"http://evil.example", "https://127.0.0.1.evil.example", "null",
                                "http://127.0.0.1:" + std::to_string(port_) + ".evil.example",
                                "http://user@evil.example", "https://friend.example.evil"}) {
    TestWs ws(port_);
    EXPECT_EQ(ws.connect("", origin), 403u) << origin;
  }
  TestWs friendly(port_);
  EXPECT_EQ(friendly.connect("", "https://friend.example"), 0u);
  TestWs same(port_);
  EXPECT_EQ(same.connect("", "http://127.0.0.1:" + std::to_string(port_)), 0u);
}

TEST_F(HardeningTest, ResignIsAcceptedOutOfTurn) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob);
  json table = snapshot(alice, id);
  Client& waiting = table["game"]["to_act"] == 1 ? bob : alice;
  json answer = waiting->request(
      {{"type", "resign"}, {"table", id}, {"version", table["version"]}, {"action_id", "give-up"}});
  EXPECT_EQ(answer["type"], "action_ok") << answer;
  json after = snapshot(alice, id);
  EXPECT_EQ(after["status"], "finished");
  EXPECT_EQ(after["summary"]["reason"], "resign");
  EXPECT_NE(after["summary"]["winner"], &waiting == &alice ? 1 : 2);
}

TEST_F(HardeningTest, ActionIdsAreStringsOnly) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob);
  json table = snapshot(alice, id);
  Client& mover = table["game"]["to_act"] == 1 ? alice : bob;
  json as_number = mover->request(
      {{"type", "roll"}, {"table", id}, {"version", table["version"]}, {"action_id", 7}});
  EXPECT_EQ(as_number["type"], "error");
  EXPECT_EQ(as_number["code"], "bad_request");
  EXPECT_EQ(snapshot(alice, id)["version"], table["version"]) << "nothing changed";
  json as_string = mover->request(
      {{"type", "roll"}, {"table", id}, {"version", table["version"]}, {"action_id", "7"}});
  EXPECT_EQ(as_string["type"], "action_ok") << as_string;
}

TEST_F(HardeningTest, SeatsShowTheNewRatingAndItsChangeAfterARatedGame) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rated", true}});
  json table = snapshot(alice, id);
  json answer = alice->request(
      {{"type", "resign"}, {"table", id}, {"version", table["version"]}, {"action_id", "r"}});
  ASSERT_EQ(answer["type"], "action_ok") << answer;
  json after = snapshot(bob, id);
  ASSERT_EQ(after["status"], "finished");
  EXPECT_EQ(after["seats"][0]["rating"], 1180);
  EXPECT_EQ(after["seats"][0]["rating_change"], -20);
  EXPECT_EQ(after["seats"][1]["rating"], 1220);
  EXPECT_EQ(after["seats"][1]["rating_change"], 20);
}

}  // namespace
}  // namespace ur::server
