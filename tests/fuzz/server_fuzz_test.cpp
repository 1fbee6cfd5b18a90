// The server under hostile traffic (docs/security.md): over 10,000 random and mutated WebSocket messages
// and HTTP requests against a real `ur serve` on loopback, built with ASan and UBSan in the
// sanitizer preset (any report aborts the run: -fno-sanitize-recover). Every answer must be well
// formed; at the end every stored table must replay to its stored state, every finished table
// must have its match, and every rating must be explained by the user's finished rated games.
// The figures are printed. Bounded: the counts are fixed, each wait has a deadline.
#include <cstdio>

#include "../server/harness.h"
#include "engine/game_record.h"
#include "fuzz_inputs.h"
#include "server/tables/table_model.h"

namespace ur::server {
namespace {

using namespace ur::server::test;
using fuzz::Inputs;

struct Tally {
  long ws_sent = 0, http_sent = 0, answers = 0, errors = 0, closes = 0;
};

class ServerFuzz : public ServerFixture {
 protected:
  ServerConfig config() {
    ServerConfig c = base_config();
    c.ws_burst = c.ws_ip_burst = 1e9;
    c.ws_refill_per_sec = c.ws_ip_refill_per_sec = 1e9;
    c.max_open_tables = c.max_open_tables_per_address = 1000;
    c.bot_delay = std::chrono::milliseconds(1);
    return c;
  }

  // Checks one message from the server; remembers the tables it names.
  void check_answer(const json& j) {
    ++tally_.answers;
    ASSERT_TRUE(j.is_object()) << j;
    ASSERT_EQ(j.value("v", 0), 1) << j;
    ASSERT_TRUE(j.contains("type") && j["type"].is_string()) << j;
    if (j["type"] == "error") {
      ++tally_.errors;
      EXPECT_TRUE(fuzz::kDocumentedCodes.count(j.value("code", ""))) << j;
      EXPECT_TRUE(j.contains("message") && j["message"].is_string()) << j;
    }
    if (j.contains("table") && j["table"].is_object() && j["table"].contains("id"))
      table_ids_.insert(j["table"]["id"].get<std::string>());
  }

  // Sends a batch of messages, then a ping, and checks everything up to its pong. A connection
  // the server closes (invalid UTF-8: 1007, too big: 1009) is replaced by a new one.
  void ws_batch(std::unique_ptr<TestWs>& ws, const std::string& cookie, Inputs& in, int n) {
    try {
      for (int i = 0; i < n; ++i) {
        ++tally_.ws_sent;
        std::vector<std::string> ids(table_ids_.begin(), table_ids_.end());
        ws->send(in.ws_text(ids), in.below(25) == 0);
      }
      // A string id no hostile message carries: everything before its pong answers the batch.
      std::string ping = "fuzz-ping-" + std::to_string(++pings_);
      ws->send(json{{"v", 1}, {"type", "ping"}, {"id", ping}});
      for (;;) {
        json j = ws->read();
        check_answer(j);
        if (j.value("type", "") == "pong" && j.value("re", json()) == ping) break;
      }
    } catch (const boost::system::system_error&) {
      ++tally_.closes;
      ws = std::make_unique<TestWs>(port_);
      ASSERT_EQ(ws->connect(cookie), 0u);
    }
  }

  Tally tally_;
  long pings_ = 0;
  std::set<std::string> table_ids_;
};

TEST_F(ServerFuzz, HostileMessagesAndRequestsLeaveEveryTableAndRatingConsistent) {
  start_server(config());
  Inputs in(20261124);
  std::vector<std::string> cookies = {register_user("alice"), register_user("bob"),
                                      register_user("carol"), ""};
  std::vector<std::unique_ptr<TestWs>> clients;
  for (const std::string& c : cookies) {
    clients.push_back(std::make_unique<TestWs>(port_));
    ASSERT_EQ(clients.back()->connect(c), 0u);
  }

  // Real games between the clients, with hostile messages from everyone at every state.
  for (int round = 0; round < 80; ++round) {
    int owner = in.below(4), other = (owner + 1 + in.below(3)) % 4;
    json create{{"type", "create_table"}, {"public", in.coin()}, {"rated", owner < 3 && in.coin()}};
    if (in.below(4) == 0) create["level"] = in.coin() ? "beginner" : "easy";
    if (in.below(6) == 0) create["local"] = true;  // pass and play (refused if rated or vs bot)
    json made = clients[owner]->request(create);
    check_answer(made);
    if (made["type"] != "joined") continue;
    std::string id = made["table"]["id"];
    if (in.coin())
      check_answer(clients[other]->request(
          {{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}}));
    for (int step = 0; step < 40; ++step) {
      // A legal action of the player to act, when there is one.
      json snap = clients[owner]->request({{"type", "open_table"}, {"table", id}});
      check_answer(snap);
      if (snap["type"] != "joined" || snap["table"]["status"] != "playing") break;
      const json& t = snap["table"];
      int to_act = t["game"]["to_act"].is_number() ? t["game"]["to_act"].get<int>() : 0;
      int actor =
          to_act == 1 ? (snap["you"] == 1 ? owner : other) : (snap["you"] == 2 ? owner : other);
      if (t.value("local", false)) actor = owner;  // both seats are the owner's
      json msg{{"table", id}, {"version", t["version"]}, {"action_id", "g" + std::to_string(step)}};
      const json& moves = t["game"]["legal_moves"];
      msg["type"] = moves.empty() ? "roll" : "move";
      if (!moves.empty()) {
        const json& m = moves[in.below(static_cast<int>(moves.size()))];
        msg["from"] = m["from"];
        msg["to"] = m["to"];
        msg["kind"] = m["kind"];
      }
      if (in.below(30) == 0) msg["type"] = in.coin() ? "resign" : "leave";
      if (in.below(12) == 0) msg["type"] = "undo";
      check_answer(clients[actor]->request(msg));
      // And a few hostile ones from anyone.
      int who = in.below(4);
      ws_batch(clients[who], cookies[who], in, 1 + in.below(8));
    }
    // A rematch asked for (or declined) by both, whatever became of the game.
    for (int who : {owner, other})
      check_answer(
          clients[who]->request({{"type", "rematch"}, {"table", id}, {"accept", in.below(4) > 0}}));
  }
  for (int i = 0; i < 600; ++i) {
    int who = in.below(4);
    ws_batch(clients[who], cookies[who], in, 10);
  }

  // HTTP: every endpoint and method with random targets, headers and bodies.
  static const char* kPaths[] = {"/api/health",
                                 "/api/me",
                                 "/api/register",
                                 "/api/login",
                                 "/api/logout",
                                 "/api/guest",
                                 "/api/rules",
                                 "/api/rules/finkel",
                                 "/api/tables",
                                 "/api/leaderboard",
                                 "/api/users/alice/matches",
                                 "/api/games/",
                                 "/",
                                 "/index.html",
                                 "/ws",
                                 "/../secret.txt",
                                 "/%2e%2e/secret.txt",
                                 "/api/",
                                 "/api/explore"};
  static const http::verb kVerbs[] = {http::verb::get,     http::verb::post, http::verb::put,
                                      http::verb::delete_, http::verb::head, http::verb::options};
  std::vector<std::string> ids(table_ids_.begin(), table_ids_.end());
  for (int i = 0; i < 3000; ++i) {
    Request r;
    r.method = kVerbs[in.below(6)];
    r.target = kPaths[in.below(static_cast<int>(std::size(kPaths)))];
    if (r.target == "/api/games/" && !ids.empty())
      r.target += ids[in.below(static_cast<int>(ids.size()))] + (in.coin()   ? "/record"
                                                                 : in.coin() ? "/positions"
                                                                             : "/analysis");
    if (r.target == "/api/explore")
      r.target += "?rules=" + in.text() + "&position=" + (in.coin() ? in.text() : "start");
    else if (in.coin())
      r.target += "?limit=" + in.text() + "&offset=" + std::to_string(in.below(9) - 3);
    if (in.coin()) r.body = in.coin() ? in.value().dump() : in.raw_bytes(in.below(100));
    if (in.coin()) r.content_type = in.text();
    r.cookie = cookies[in.below(4)];
    ++tally_.http_sent;
    Response res = send_http(port_, r);
    ++tally_.answers;
    EXPECT_GE(res.result_int(), 200);
    EXPECT_LT(res.result_int(), 600);
    if (r.target.rfind("/api/", 0) == 0 && r.method != http::verb::head) {
      EXPECT_TRUE(body_json(res).is_object()) << r.target << " " << res.body();
    }
  }
  // Raw requests with bytes flipped: each is answered or the connection is closed, never hung.
  const std::string base =
      "POST /api/login HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
      "Content-Length: 40\r\n\r\n{\"username\":\"alice\",\"password\":\"xxxxx\"}";
  for (int i = 0; i < 1000; ++i) {
    ++tally_.http_sent;
    std::string bytes = in.mutate(base) + "GET /api/health HTTP/1.1\r\nHost: h\r\n\r\n";
    // Half-closed after the bytes: a request left waiting for more ends at once.
    if (unsigned status = raw_request_status(port_, bytes); status != 0) {
      ++tally_.answers;
      EXPECT_GE(status, 200u) << bytes;
    }
  }
  clients.clear();
  ASSERT_EQ(get("/api/health").result_int(), 200) << "the server is still up";
  stop_server();

  // Consistency, read from the database the server left behind.
  auto opened = open_storage(db_);
  ASSERT_TRUE(opened.storage) << opened.error;
  Storage& st = *opened.storage;
  int finished = 0;
  for (const std::string& id : table_ids_) {
    auto row = st.find_table(id);
    ASSERT_TRUE(row) << id;
    auto model = TableModel::from_row(*row);
    ASSERT_TRUE(std::holds_alternative<TableModel>(model))
        << id << ": " << std::get<Error>(model).message;
    const TableModel& m = std::get<TableModel>(model);
    EXPECT_EQ(m.version(), row->version);
    EXPECT_EQ(status_name(m.status()), row->status);
    if (m.game().is_over() && m.status() == TableStatus::kFinished) {
      ++finished;
      auto match = st.find_match(id);
      ASSERT_TRUE(match) << id << " finished without its match row";
      auto replayed = record_from_json(json::parse(match->record, nullptr, false));
      ASSERT_TRUE(std::holds_alternative<Game>(replayed)) << id;
      EXPECT_EQ(index_of(*std::get<Game>(replayed).winner()) + 1, match->winner);
    }
  }
  for (const char* name : {"alice", "bob", "carol"}) {
    auto u = st.find_user_by_name(name);
    ASSERT_TRUE(u);
    double rating = 1200;
    int rated = 0, wins = 0;
    for (const MatchRow& m : st.user_matches(u->id, 100, 0)) {
      if (!m.rated) continue;
      int s = m.user_ids[0] == u->id ? 0 : 1;
      rating += m.rating_after[s] - m.rating_before[s];
      ++rated;
      wins += m.winner == s + 1;
    }
    EXPECT_NEAR(u->rating, rating, 1e-6) << name;
    EXPECT_EQ(u->games, rated) << name;
    EXPECT_EQ(u->wins, wins) << name;
  }
  long messages = tally_.ws_sent + tally_.http_sent;
  std::printf(
      "fuzz: %ld WebSocket messages + %ld HTTP requests = %ld sent; %ld answers (%ld "
      "errors), %ld connections closed by the server; %zu tables (%d finished) "
      "consistent; crashes 0\n",
      tally_.ws_sent, tally_.http_sent, messages, tally_.answers, tally_.errors, tally_.closes,
      table_ids_.size(), finished);
  EXPECT_GE(messages, 10'000);
}

}  // namespace
}  // namespace ur::server
