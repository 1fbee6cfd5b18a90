// Integration tests of tables: a real server, real WebSocket clients. Two players complete games
// through invites while a spectator watches; matchmaking pairs players; resign, leave and the
// idle clock end games with the right winner and Elo change; forged, stale, duplicated,
// out-of-turn and malformed actions are refused and change nothing; a computer game completes.
#include <filesystem>
#include <fstream>

#include "engine/game_record.h"
#include "harness.h"
#include "rules/presets.h"
#include "server/storage/storage.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class TablesTest : public TableFixture {};

TEST_F(TablesTest, TwoPlayersCompleteAGameThroughAnInviteWhileASpectatorWatches) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol");
  std::string id = start_game(alice, bob, {{"public", true}, {"rated", true}});
  json watched = carol->request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(watched["role"], "spectator") << watched;
  EXPECT_EQ(watched["spectators"], 1);
  EXPECT_EQ(alice->next("spectators")["count"], 1);  // the players learn of the spectator
  std::int64_t first = watched["table"]["version"];

  json final_table = play_out(alice, bob, snapshot(alice, id));
  ASSERT_EQ(final_table["status"], "finished");
  std::int64_t last = final_table["version"];
  const json& summary = final_table["summary"];
  int winner = summary["winner"];
  EXPECT_EQ(summary["reason"], "bore-off");
  EXPECT_EQ(summary["seats"][winner - 1]["borne_off"], 7);

  // The spectator saw every version from the one it joined at to the last, in order.
  std::int64_t expect = first + 1;
  json seen;
  while (expect <= last) {
    seen = carol->next("table");
    EXPECT_EQ(seen["table"]["version"], expect);
    expect = std::int64_t(seen["table"]["version"]) + 1;
  }
  EXPECT_EQ(seen["table"]["summary"]["winner"], winner);

  // Ratings: K = 40 for provisional players, equal ratings: +20 / -20.
  json w = me(winner == 1 ? alice : bob), l = me(winner == 1 ? bob : alice);
  EXPECT_EQ(w["rating"], 1220);
  EXPECT_EQ(l["rating"], 1180);
  EXPECT_EQ(w["games"], 1);
  EXPECT_EQ(w["wins"], 1);
  EXPECT_EQ(summary["seats"][winner - 1]["rating_change"], 20);

  json board = body_json(get("/api/leaderboard"));
  ASSERT_EQ(board["players"].size(), 2u);
  EXPECT_EQ(board["players"][0]["username"], winner == 1 ? "alice" : "bob");

  json history = body_json(get("/api/users/alice/matches"));
  ASSERT_EQ(history["matches"].size(), 1u);
  EXPECT_EQ(history["matches"][0]["id"], id);
  EXPECT_EQ(history["matches"][0]["result"], winner == 1 ? "win" : "loss");

  Response rec = get("/api/games/" + id + "/record");
  ASSERT_EQ(rec.result_int(), 200);
  auto replay = record_from_json(body_json(rec));
  ASSERT_TRUE(std::holds_alternative<Game>(replay)) << std::get<Error>(replay).message;
  const Game& g = std::get<Game>(replay);
  EXPECT_TRUE(g.is_over());
  EXPECT_EQ(static_cast<int>(index_of(*g.winner())) + 1, winner);
  EXPECT_EQ(rec[http::field::content_disposition], "");
  // The same record for people (docs/server.md): one event per line, read back by the engine.
  Response text = get("/api/games/" + id + "/record?format=text&download=1");
  ASSERT_EQ(text.result_int(), 200);
  EXPECT_EQ(text[http::field::content_type], "text/plain; charset=utf-8");
  EXPECT_EQ(text[http::field::content_disposition], "attachment; filename=\"ur-" + id + ".txt\"");
  EXPECT_EQ(text.body(), record_to_string(body_json(rec)));
  EXPECT_NE(text.body().find("\n    {\"player\":\"light\",\"throw\":"), std::string::npos);
  auto from_text = read_record(text.body());
  ASSERT_TRUE(std::holds_alternative<Game>(from_text)) << std::get<Error>(from_text).message;
  EXPECT_EQ(std::get<Game>(from_text).events().size(), g.events().size());
  EXPECT_EQ(get("/api/games/" + id + "/record?download=1")[http::field::content_disposition],
            "attachment; filename=\"ur-" + id + ".json\"");

  // The replay positions: one per event plus the start, ending at the final position.
  json positions = body_json(get("/api/games/" + id + "/positions"))["positions"];
  ASSERT_EQ(positions.size(), g.events().size() + 1);
  EXPECT_EQ(positions[0]["position"], "Lr/0000000/0000000");
  EXPECT_EQ(positions.back()["position"], final_table["game"]["position"]);
  EXPECT_EQ(positions[1]["last"]["kind"], "roll");
  EXPECT_EQ(positions[0]["event"], -1);
  EXPECT_EQ(positions[1]["event"], 0);
}

TEST_F(TablesTest, FinishedGamesAreReviewedExactlyWithATableAndEstimatedWithout) {
  const std::string data = base_config().data_dir;
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rules", "finkel(pieces=2)"}});
  json final_table = play_out(alice, bob, snapshot(alice, id));
  ASSERT_EQ(final_table["status"], "finished");
  // No table yet: estimated by search, and marked so.
  Response none = get("/api/games/" + id + "/analysis");
  ASSERT_EQ(none.result_int(), 200) << none.body();
  json e = body_json(none);
  EXPECT_TRUE(e["estimate"].get<bool>());
  EXPECT_TRUE(e["moves"][0]["estimate"].get<bool>());
  EXPECT_NE(std::string(e["note"]).find("not solved"), std::string::npos) << e["note"];
  EXPECT_EQ(e["note_code"], "missing") << "the note's code, for a client's own words";
  EXPECT_EQ(get("/api/games/0123456789abcdef/analysis").result_int(), 404);
  // A review stored before the note had a code is served with it, from the note's words.
  std::optional<ReviewRow> stored = server_->context().storage->find_review(id);
  ASSERT_TRUE(stored);
  json old = json::parse(stored->review);
  ASSERT_EQ(old.erase("note_code"), 1u);
  stored->review = old.dump();
  server_->context().storage->save_review(*stored);
  EXPECT_EQ(body_json(get("/api/games/" + id + "/analysis"))["note_code"], "missing");
  // A damaged table at the table's path: refused with a message, estimated, never a crash.
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  const std::string path = solver::table_path(data, rules.to_string());
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "URTABLE but not really a table";
  // The server's table store listed the directory at start-up and does not look at the disk per
  // request: a file put there behind its back is not seen...
  json unseen = body_json(get("/api/games/" + id + "/analysis"));
  EXPECT_NE(std::string(unseen["note"]).find("not solved"), std::string::npos) << unseen["note"];
  // ...until it is added, as the background solve adds the tables it writes.
  solver::TableStore& store = *server_->context().table_store;
  store.add(rules.to_string());
  Response damaged = get("/api/games/" + id + "/analysis");
  ASSERT_EQ(damaged.result_int(), 200) << damaged.body();
  json d = body_json(damaged);
  EXPECT_TRUE(d["estimate"].get<bool>());
  EXPECT_NE(std::string(d["note"]).find("failed its checks"), std::string::npos) << d["note"];
  EXPECT_EQ(d["note_code"], "refused");
  EXPECT_EQ(damaged.body().find(data), std::string::npos) << "no server path in the answer";
  // Solve the rule set into the server's data directory: every value is exact.
  const Engine engine(rules);
  const solver::StateIndex index = std::get<solver::StateIndex>(solver::StateIndex::create(engine));
  solver::ValueIteration vi(index, solver::SolveOptions{});
  vi.solve({});
  ASSERT_EQ(solver::write_table(path, vi.values(), solver::ValueType::kF32, rules.to_string(),
                                index.encoding_id(), vi.max_residual()),
            "");
  store.add(rules.to_string());
  Response graded = get("/api/games/" + id + "/analysis");
  ASSERT_EQ(graded.result_int(), 200) << graded.body();
  json a = body_json(graded);
  EXPECT_FALSE(a["estimate"].get<bool>());
  EXPECT_FALSE(a.contains("note"));
  EXPECT_FALSE(a.contains("note_code"));
  ASSERT_FALSE(a["moves"].empty());
  int decisions = 0;
  for (const json& m : a["moves"]) {
    EXPECT_GE(double(m["best_value"]), double(m["value"]) - 1e-12);
    EXPECT_NEAR(double(m["cost"]), double(m["best_value"]) - double(m["value"]), 1e-12);
    if (m["legal"] > 1) ++decisions;
  }
  EXPECT_EQ(int(a["players"][0]["decisions"]) + int(a["players"][1]["decisions"]), decisions);
  for (const json& p : a["players"]) {
    ASSERT_EQ(p["accuracy"].is_null(), p["decisions"] == 0) << p;
    if (p["accuracy"].is_null()) continue;
    EXPECT_GE(double(p["accuracy"]), 0.0);
    EXPECT_LE(double(p["accuracy"]), 100.0);
    EXPECT_TRUE(p.contains("luck"));
  }
  const json& sum = a["decomposition"];
  EXPECT_NEAR(double(sum["result"]) - double(sum["start"]),
              double(sum["light_luck"]) - double(sum["dark_luck"]) - double(sum["light_lost"]) +
                  double(sum["dark_lost"]),
              1e-4);
  EXPECT_EQ(a["graph"].size(), a["moves"].size() + a["throws"].size() + 1);
  EXPECT_TRUE(a["key_moves"].contains("decisions"));
  EXPECT_NE(std::string(a["summary"]).find("from the dice"), std::string::npos);
}

TEST_F(TablesTest, AStoredRecordThatDoesNotReplayIs422NamingTheEvent) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rules", "finkel(pieces=2)"}});
  json final_table = play_out(alice, bob, snapshot(alice, id));
  ASSERT_EQ(final_table["status"], "finished");
  // The same game stored under another id with its third event changed into an illegal move.
  std::optional<MatchRow> m = server_->context().storage->find_match(id);
  ASSERT_TRUE(m.has_value());
  json record = json::parse(m->record);
  record["events"][2] = {{"player", record["events"][2]["player"]},
                         {"move", {{"from", 9}, {"to", 9}}}};
  record.erase("result");
  MatchRow bad = *m;
  bad.id = "00000000000000aa";
  bad.record = record.dump();
  TableRow row{bad.id, bad.rules, "finished", false, false, 1, "{}", 0, 0, "", 0, ""};
  ASSERT_TRUE(server_->context().storage->finish_game(row, -1, bad));
  Response r = get("/api/games/" + bad.id + "/analysis");
  EXPECT_EQ(r.result_int(), 422) << r.body();
  json j = body_json(r);
  EXPECT_EQ(j["error"], "bad_record");
  EXPECT_NE(std::string(j["message"]).find("event 3"), std::string::npos) << j["message"];
}

TEST_F(TablesTest, BadActionsAreRefusedAndChangeNothing) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = guest();
  std::string id = start_game(alice, bob, {{"public", true}});
  json t = snapshot(alice, id);
  std::int64_t v = t["version"];
  ASSERT_EQ(t["game"]["to_act"], 1);
  auto roll = [&](std::int64_t version, const std::string& aid) {
    return json{{"type", "roll"}, {"table", id}, {"version", version}, {"action_id", aid}};
  };

  EXPECT_EQ(bob->request(roll(v, "b1"))["code"], "not_your_turn");
  EXPECT_EQ(carol->request(roll(v, "c1"))["code"], "not_seated");
  json stale = alice->request(roll(v - 1, "s1"));
  EXPECT_EQ(stale["code"], "stale_version");
  EXPECT_EQ(stale["snapshot"]["version"], v);
  EXPECT_EQ(alice->request({{"type", "move"},
                            {"table", id},
                            {"version", v},
                            {"action_id", "m0"},
                            {"from", 0},
                            {"to", 1}})["code"],
            "roll_expected");
  EXPECT_EQ(alice->request(
                {{"type", "roll"}, {"table", id}, {"version", "1"}, {"action_id", "x"}})["code"],
            "bad_request");
  EXPECT_EQ(
      alice->request(
          {{"type", "roll"}, {"table", "../../etc"}, {"version", v}, {"action_id", "x"}})["code"],
      "bad_request");
  EXPECT_EQ(alice->request(roll(v, ""))["code"], "bad_request");
  EXPECT_EQ(alice->request({{"type", "roll"},
                            {"table", "0123456789abcdef"},
                            {"version", 1},
                            {"action_id", "x"}})["code"],
            "no_table");
  EXPECT_EQ(snapshot(alice, id)["version"], v);

  // A throw, then the same action id again: answered as the first time, applied once.
  json first = alice->request(roll(v, "r1"));
  ASSERT_EQ(first["type"], "action_ok") << first;
  EXPECT_EQ(first["version"], v + 1);
  json again = alice->request(roll(v, "r1"));
  EXPECT_EQ(again["type"], "action_ok");
  EXPECT_EQ(again["duplicate"], true);
  EXPECT_EQ(again["version"], v + 1);
  EXPECT_EQ(again["action"], "roll");
  json now = snapshot(alice, id);
  EXPECT_EQ(now["version"], v + 1);

  // An illegal move (when a move is due) and a move by the spectator.
  if (now["game"]["to_act"] == 1 && !now["game"]["legal_moves"].empty()) {
    json bad{{"type", "move"},    {"table", id}, {"version", v + 1},
             {"action_id", "m1"}, {"from", 13},  {"to", 14}};
    EXPECT_EQ(alice->request(bad)["code"], "illegal_move");
    bad["from"] = "zero";
    EXPECT_EQ(alice->request(bad)["code"], "bad_request");
    EXPECT_EQ(snapshot(alice, id)["version"], v + 1);
  }
  // Malformed envelopes never reach the table.
  alice->send(std::string("{\"v\":1,\"type\":\"roll\""));
  EXPECT_EQ(alice->next("error")["code"], "bad_json");
  EXPECT_EQ(snapshot(bob, id)["version"], v + 1);
}

TEST_F(TablesTest, ResignEndsTheGameWithTheRightWinnerAndElo) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rated", true}});
  json t = snapshot(bob, id);
  json ans = bob->request(
      {{"type", "resign"}, {"table", id}, {"version", t["version"]}, {"action_id", "r"}});
  ASSERT_EQ(ans["type"], "action_ok") << ans;
  json final_table = alice->next_if([](const json& j) {
    return j["type"] == "table" && j["table"]["status"] == "finished";
  })["table"];
  EXPECT_EQ(final_table["summary"]["winner"], 1);
  EXPECT_EQ(final_table["summary"]["reason"], "resign");
  EXPECT_EQ(me(alice)["rating"], 1220);
  EXPECT_EQ(me(bob)["rating"], 1180);
  // Nothing more can be played.
  json late = alice->request({{"type", "roll"},
                              {"table", id},
                              {"version", final_table["version"]},
                              {"action_id", "late"}});
  EXPECT_EQ(late["code"], "game_over");
}

TEST_F(TablesTest, LeavingLosesAndATableWithBothPlayersGoneCloses) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rated", true}});
  json t = snapshot(alice, id);
  json ans = alice->request(
      {{"type", "leave"}, {"table", id}, {"version", t["version"]}, {"action_id", "bye"}});
  ASSERT_EQ(ans["type"], "action_ok") << ans;
  json after = snapshot(bob, id);
  EXPECT_EQ(after["status"], "finished");
  EXPECT_EQ(after["summary"]["winner"], 2);
  EXPECT_EQ(after["summary"]["reason"], "left");
  EXPECT_EQ(me(bob)["rating"], 1220);
  // Alice cannot come back to a private table: its game is over (its replay is anyone's).
  EXPECT_EQ(alice->request({{"type", "open_table"}, {"table", id}})["code"], "game_over");
  ans = bob->request(
      {{"type", "leave"}, {"table", id}, {"version", after["version"]}, {"action_id", "bye"}});
  ASSERT_EQ(ans["type"], "action_ok");
  auto row = server_->context().storage->find_table(id);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "closed");
}

TEST_F(TablesTest, TheIdleClockForfeitsThePlayerToAct) {
  ServerConfig c = config();
  c.idle_timeout = std::chrono::seconds(2);
  ServerFixture::start_server(c);
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rated", true}});
  json t = snapshot(alice, id);
  ASSERT_EQ(t["game"]["to_act"], 1);
  json over = bob->next_if(
      [](const json& j) { return j["type"] == "table" && j["table"]["status"] == "finished"; });
  EXPECT_EQ(over["table"]["summary"]["winner"], 2);
  EXPECT_EQ(over["table"]["summary"]["reason"], "timeout");
  EXPECT_EQ(over["events"][0]["kind"], "timeout");
  EXPECT_EQ(me(bob)["rating"], 1220);
  EXPECT_EQ(me(alice)["rating"], 1180);
}

TEST_F(TablesTest, MatchmakingPairsTwoPlayers) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  json q = alice->request({{"type", "find_match"}, {"rules", "finkel"}, {"rated", true}});
  ASSERT_EQ(q["type"], "queued") << q;
  EXPECT_EQ(q["rules"], "finkel");
  ASSERT_EQ(bob->request({{"type", "find_match"}, {"rated", true}})["type"], "queued");
  json a = alice->next("match_found"), b = bob->next("match_found");
  EXPECT_EQ(a["table"]["id"], b["table"]["id"]);
  EXPECT_EQ(a["table"]["status"], "playing");
  EXPECT_EQ(a["table"]["rated"], true);
  EXPECT_EQ(a["table"]["public"], false);
  std::set<int> seats{a["you"].get<int>(), b["you"].get<int>()};
  EXPECT_EQ(seats, (std::set<int>{1, 2}));
  // A guest cannot queue for a rated game.
  Client g = guest();
  EXPECT_EQ(g->request({{"type", "find_match"}, {"rated", true}})["code"], "login_required");
}

TEST_F(TablesTest, AGameAgainstTheComputerCompletes) {
  ServerConfig c = config();
  c.bot_delay = std::chrono::milliseconds(1);
  ServerFixture::start_server(c);
  Client g = guest();
  json created = g->request({{"type", "create_table"}, {"level", "easy"}, {"seat", 2}});
  ASSERT_EQ(created["type"], "joined") << created;
  EXPECT_EQ(created["table"]["seats"][0]["kind"], "bot");
  std::string id = created["table"]["id"];
  json table = created["table"];
  int n = 0;
  while (table["status"] == "playing" && n < 5000) {
    if (table["game"]["to_act"] == 2) {
      json ans = act(g, table, "g" + std::to_string(++n));
      ASSERT_EQ(ans["type"], "action_ok") << ans;
    }
    std::int64_t v = table["version"];
    table = g->next_if(
        [&](const json& j) { return j["type"] == "table" && j["table"]["version"] > v; })["table"];
  }
  EXPECT_EQ(table["status"], "finished");
  EXPECT_EQ(table["rated"], false);
  EXPECT_EQ(table["summary"]["reason"], "bore-off");
}

TEST_F(TablesTest, PrivateTablesInvitesAndGuestReconnects) {
  start_server();
  Response guest_cookie = post("/api/guest", json::object());
  ASSERT_EQ(guest_cookie.result_int(), 200);
  std::string cookie = session_cookie(guest_cookie);
  ASSERT_EQ(cookie.rfind("ur_guest=", 0), 0u) << cookie;
  Client g{cookie, std::make_unique<TestWs>(port_)};
  ASSERT_EQ(g->connect(cookie), 0u);
  json created = g->request({{"type", "create_table"}, {"rules", "masters"}});
  ASSERT_EQ(created["type"], "joined") << created;
  std::string id = created["table"]["id"], invite = created["invite"];
  EXPECT_EQ(created["table"]["rules"], "masters");
  EXPECT_EQ(g->request({{"type", "create_table"}, {"rated", true}})["code"], "login_required");
  EXPECT_EQ(g->request({{"type", "create_table"}, {"rules", "chess"}})["code"], "bad_rules");

  Client stranger = user("mallory");
  EXPECT_EQ(stranger->request({{"type", "open_table"}, {"table", id}})["code"], "private_table");
  EXPECT_EQ(stranger->request({{"type", "join_table"}, {"table", id}, {"invite", "0000"}})["code"],
            "bad_invite");
  ASSERT_EQ(stranger->request({{"type", "join_table"}, {"table", id}, {"invite", invite}})["type"],
            "joined");
  Client late = user("trent");
  EXPECT_EQ(late->request({{"type", "join_table"}, {"table", id}, {"invite", invite}})["code"],
            "table_full");

  // The guest reconnects with its cookie and gets its seat back.
  Client again{cookie, std::make_unique<TestWs>(port_)};
  ASSERT_EQ(again->connect(cookie), 0u);
  json resumed = again->request({{"type", "open_table"}, {"table", id}});
  EXPECT_EQ(resumed["role"], "player");
  EXPECT_EQ(resumed["you"], 1);

  // Only the owner switches visibility; then anyone may watch.
  EXPECT_EQ(
      stranger->request({{"type", "set_visibility"}, {"table", id}, {"public", true}})["code"],
      "not_owner");
  ASSERT_EQ(again->request({{"type", "set_visibility"}, {"table", id}, {"public", true}})["type"],
            "ok");
  EXPECT_EQ(late->request({{"type", "open_table"}, {"table", id}})["role"], "spectator");
  json list = late->request({{"type", "list_tables"}});
  ASSERT_EQ(list["tables"].size(), 1u);
  EXPECT_EQ(list["tables"][0]["id"], id);
  EXPECT_EQ(body_json(get("/api/tables"))["tables"].size(), 1u);
}

TEST_F(TablesTest, RulesEndpointsDescribeBoards) {
  // The perfect player's tables are looked up in the server's data directory: here empty.
  start_server();
  json list = body_json(get("/api/rules"));
  EXPECT_GE(list["presets"].size(), 11u);
  for (const json& p : list["presets"]) {
    // No table is solved in that directory (and boxed cannot be solved at all).
    EXPECT_EQ(p["solved"], false) << p["id"];
    EXPECT_FALSE(p["name"].get<std::string>().empty());
  }
  json finkel = body_json(get("/api/rules/finkel"));
  EXPECT_EQ(finkel["pieces"], 7);
  EXPECT_EQ(finkel["path_length"], 14);
  EXPECT_EQ(finkel["paths"]["light"].size(), 14u);
  EXPECT_EQ(finkel["board"]["squares"].size(), 20u);
  json aseb = body_json(get("/api/rules/aseb"));
  EXPECT_EQ(aseb["board"]["files"], 12);
  EXPECT_EQ(get("/api/rules/chess").result_int(), 404);
  EXPECT_EQ(get("/api/games/zzz/record").result_int(), 404);
  EXPECT_EQ(get("/api/users/nobody/matches").result_int(), 404);
  EXPECT_EQ(get("/api/leaderboard?limit=abc").result_int(), 200);
}

}  // namespace
}  // namespace ur::server
