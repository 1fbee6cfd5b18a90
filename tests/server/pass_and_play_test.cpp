// Integration tests of pass and play and of rematches: a real server, real WebSocket clients.
// One connection plays both sides of a pass-and-play table to the end, with no clock; undo takes
// back the last decision and the throws after it (and survives a reload from storage); undo is
// refused on a normal table, with nothing to undo, on a stale version, and from a stranger; such a
// table is never public, rated or joinable. After a game between two people a rematch is offered,
// declined, offered again and accepted: both players find a new table with the colours swapped.
#include <set>
#include <thread>

#include "harness.h"
#include "server/storage/storage.h"
#include "server/tables/table_model.h"
#include "server/tables/table_views.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class PassAndPlayTest : public TableFixture {
 protected:
  json local_table(Client& c, json extra = json::object()) {
    extra["type"] = "create_table";
    extra["local"] = true;
    json j = c->request(extra);
    EXPECT_EQ(j["type"], "joined") << j;
    return j;
  }
  json action(Client& c, const std::string& type, const json& table, const std::string& id,
              json extra = json::object()) {
    json msg{
        {"type", type}, {"table", table["id"]}, {"version", table["version"]}, {"action_id", id}};
    msg.update(extra);
    return c->request(msg);
  }
  // Throws (for whichever side is to act) until a decision is due; the snapshot then.
  json until_decision(Client& c, json t, int& n) {
    for (int i = 0; i < 200 && t["game"]["legal_moves"].empty(); ++i) {
      json ok = act(c, t, "t" + std::to_string(++n));
      EXPECT_EQ(ok["type"], "action_ok") << ok;
      t = snapshot(c, t["id"]);
    }
    return t;
  }
};

TEST_F(PassAndPlayTest, OneDevicePlaysBothSidesToTheEndWithoutAClock) {
  ServerConfig cfg = config();
  cfg.idle_timeout = std::chrono::seconds(1);  // would forfeit a normal table's player at once
  ServerFixture::start_server(cfg);
  Client alice = user("alice");
  json made =
      local_table(alice, {{"rules", "finkel(pieces=3)"}, {"names", json::array({"Ann", " Bob "})}});
  const json& t0 = made["table"];
  EXPECT_EQ(made["you"], 1);
  EXPECT_EQ(made["role"], "player");
  EXPECT_FALSE(made.contains("invite"));
  EXPECT_TRUE(made["clock"].is_null());
  EXPECT_EQ(t0["local"], true);
  EXPECT_EQ(t0["status"], "playing");
  EXPECT_EQ(t0["public"], false);
  EXPECT_EQ(t0["rated"], false);
  EXPECT_EQ(t0["seats"][0]["name"], "Ann");
  EXPECT_EQ(t0["seats"][1]["name"], "Bob");  // trimmed
  EXPECT_EQ(t0["seats"][0]["kind"], "user");
  EXPECT_EQ(t0["game"]["can_undo"], false);
  std::string id = t0["id"];

  // Longer than the idle timeout: nothing happens at a pass-and-play table.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  json still = snapshot(alice, id);
  EXPECT_EQ(still["status"], "playing");
  EXPECT_EQ(still["version"], t0["version"]);

  // The one connection acts for whichever side is to act, to the end.
  json t = still;
  int n = 0;
  std::set<int> sides;
  while (t["status"] == "playing" && n < 3000) {
    sides.insert(t["game"]["to_act"].get<int>());
    json ok = act(alice, t, "p" + std::to_string(++n));
    ASSERT_EQ(ok["type"], "action_ok") << ok;
    json b = alice->next_if([&](const json& j) {
      return j["type"] == "table" && j["table"]["version"] == ok["version"];
    });
    EXPECT_TRUE(b["clock"].is_null()) << "no idle clock at a pass-and-play table";
    t = b["table"];
  }
  EXPECT_EQ(sides, (std::set<int>{1, 2}));
  ASSERT_EQ(t["status"], "finished");
  EXPECT_EQ(t["summary"]["reason"], "bore-off");
  EXPECT_FALSE(t["game"]["can_undo"].get<bool>());
  // Replay and review open by id; the game is in nobody's history and changes no rating.
  EXPECT_EQ(get("/api/games/" + id + "/record").result_int(), 200);
  EXPECT_EQ(body_json(get("/api/users/alice/matches"))["matches"].size(), 0u);
  EXPECT_EQ(me(alice)["games"], 0);
  // A finished pass-and-play game has no rematch to offer: the client makes a new table.
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["code"], "no_rematch");
}

TEST_F(PassAndPlayTest, UndoTakesBackTheLastDecisionAndTheThrowsAfterIt) {
  start_server();
  Client g = guest();
  json t = local_table(g)["table"];
  std::string id = t["id"];
  EXPECT_EQ(t["seats"][0]["name"], "Light");
  EXPECT_EQ(t["seats"][1]["name"], "Dark");
  EXPECT_EQ(action(g, "undo", t, "u0")["code"], "nothing_to_undo");

  int n = 0;
  t = until_decision(g, t, n);
  ASSERT_FALSE(t["game"]["legal_moves"].empty());
  const json before = t;  // a throw waits for its decision
  const int mover = t["game"]["to_act"];
  ASSERT_EQ(act(g, t, "m1")["type"], "action_ok");
  t = snapshot(g, id);
  EXPECT_EQ(t["game"]["can_undo"], true);
  // The next side throws too (a throw after the decision is taken back with it).
  if (t["game"]["legal_moves"].empty() && t["status"] == "playing") {
    ASSERT_EQ(act(g, t, "t-after")["type"], "action_ok");
  }
  t = snapshot(g, id);
  std::int64_t v = t["version"];

  // Stale, and a forged undo from a stranger: refused, nothing changes.
  json stale = action(g, "undo", before, "u1");
  EXPECT_EQ(stale["code"], "stale_version");
  EXPECT_EQ(stale["snapshot"]["version"], v);
  Client mallory = guest();
  EXPECT_EQ(action(mallory, "undo", t, "u2")["code"], "not_seated");
  EXPECT_EQ(snapshot(g, id)["version"], v);

  json ok = action(g, "undo", t, "u3");
  ASSERT_EQ(ok["type"], "action_ok") << ok;
  EXPECT_EQ(ok["version"], v + 1);
  ASSERT_EQ(ok["events"].size(), 1u);
  EXPECT_EQ(ok["events"][0]["kind"], "undo");
  EXPECT_EQ(ok["events"][0]["seat"], mover);
  EXPECT_GE(ok["events"][0]["undone"].get<int>(), 1);
  json back = snapshot(g, id);
  EXPECT_EQ(back["game"]["position"], before["game"]["position"]);
  EXPECT_EQ(back["game"]["roll"], before["game"]["roll"]);
  EXPECT_EQ(back["game"]["legal_moves"], before["game"]["legal_moves"]);
  EXPECT_EQ(back["game"]["events"], before["game"]["events"]);
  EXPECT_EQ(back["game"]["pieces"], before["game"]["pieces"]);
  // The same action id again is not applied twice.
  json again = action(g, "undo", t, "u3");
  EXPECT_EQ(again["duplicate"], true);
  EXPECT_EQ(snapshot(g, id)["version"], v + 1);

  // What is stored replays to the same table (a restart or another node would load this).
  auto row = server_->context().storage->find_table(id);
  ASSERT_TRUE(row);
  auto loaded = TableModel::from_row(*row);
  ASSERT_TRUE(std::holds_alternative<TableModel>(loaded)) << std::get<Error>(loaded).message;
  EXPECT_EQ(table_snapshot(std::get<TableModel>(loaded)), back);

  // The other decision this time, and play on.
  const json& moves = back["game"]["legal_moves"];
  const json& m = moves[moves.size() - 1];
  EXPECT_EQ(action(g, "move", back, "m2", {{"from", m["from"]}, {"to", m["to"]}})["type"],
            "action_ok");
  // Undo until nothing is left to undo: every move of the game can be taken back.
  for (int i = 0; i < 10; ++i) {
    json cur = snapshot(g, id);
    json u = action(g, "undo", cur, "w" + std::to_string(i));
    if (u["type"] == "error") {
      EXPECT_EQ(u["code"], "nothing_to_undo");
      EXPECT_EQ(cur["game"]["can_undo"], false);
      break;
    }
  }
  // After the game, undo is refused.
  json cur = snapshot(g, id);
  ASSERT_EQ(action(g, "resign", cur, "r")["type"], "action_ok");
  cur = snapshot(g, id);
  EXPECT_EQ(cur["status"], "finished");
  EXPECT_EQ(action(g, "undo", cur, "u9")["code"], "game_over");
}

TEST_F(PassAndPlayTest, PassAndPlayTablesAreNeverPublicRatedOrJoinableAndUndoIsTheirsAlone) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), g = guest();
  // Bad creations.
  EXPECT_EQ(alice->request({{"type", "create_table"}, {"local", true}, {"rated", true}})["code"],
            "bad_request");
  EXPECT_EQ(alice->request({{"type", "create_table"}, {"local", true}, {"public", true}})["code"],
            "bad_request");
  EXPECT_EQ(alice->request({{"type", "create_table"}, {"local", true}, {"level", "easy"}})["code"],
            "bad_request");
  EXPECT_EQ(g->request({{"type", "create_table"}, {"local", "yes"}})["code"], "bad_request");
  for (const json& names : {json::array({"a", "b", "c"}), json::array({"a", 3}), json("ab"),
                            json::array({std::string(25, 'x'), "b"}), json::array({"a\tb", "c"}),
                            json::array({"x\x01", "y"})})
    EXPECT_EQ(g->request({{"type", "create_table"}, {"local", true}, {"names", names}})["code"],
              "bad_request")
        << names;
  EXPECT_EQ(g->request({{"type", "create_table"}, {"local", true}, {"rules", "chess"}})["code"],
            "bad_rules");
  // Not listed, not watchable, not joinable, never public.
  json made = local_table(alice, {{"rules", "masters"}, {"names", json::array({"Änne", "Bo"})}});
  std::string id = made["table"]["id"];
  EXPECT_EQ(made["table"]["seats"][0]["name"], "Änne");
  EXPECT_EQ(bob->request({{"type", "list_tables"}})["tables"].size(), 0u);
  EXPECT_EQ(bob->request({{"type", "open_table"}, {"table", id}})["code"], "private_table");
  EXPECT_EQ(bob->request({{"type", "join_table"}, {"table", id}, {"invite", "00"}})["code"],
            "table_full");
  EXPECT_EQ(bob->request({{"type", "roll"},
                          {"table", id},
                          {"version", made["table"]["version"]},
                          {"action_id", "x"}})["code"],
            "not_seated");
  EXPECT_EQ(alice->request({{"type", "set_visibility"}, {"table", id}, {"public", true}})["code"],
            "local_table");
  EXPECT_EQ(alice->request({{"type", "set_visibility"}, {"table", id}, {"public", false}})["type"],
            "ok");
  // A local table does not count against the cap of tables waiting for a player.
  for (int i = 0; i < 6; ++i) local_table(alice);
  // Undo on a normal table, by either player, at any point.
  std::string normal = start_game(alice, bob);
  json t = snapshot(alice, normal);
  EXPECT_EQ(action(alice, "undo", t, "u1")["code"], "not_local");
  EXPECT_EQ(action(bob, "undo", t, "u2")["code"], "not_local");
  EXPECT_FALSE(t["game"].contains("can_undo"));
  EXPECT_EQ(t["local"], false);
  // Leaving a pass-and-play game closes the table; the side to act loses.
  json lt = snapshot(alice, id);
  int to_act = lt["game"]["to_act"];
  ASSERT_EQ(action(alice, "leave", lt, "bye")["type"], "action_ok");
  auto row = server_->context().storage->find_table(id);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "closed");
  auto match = server_->context().storage->find_match(id);
  ASSERT_TRUE(match);
  EXPECT_EQ(match->winner, 3 - to_act);
  EXPECT_EQ(match->user_ids[0], 0);
}

class RematchTest : public TableFixture {
 protected:
  std::string action_resign(Client& c, const json& t) {
    return c->request({{"type", "resign"},
                       {"table", t["id"]},
                       {"version", t["version"]},
                       {"action_id", "resign"}})["type"];
  }
};

TEST_F(RematchTest, OfferedDeclinedOfferedAgainAndAcceptedWithTheColoursSwapped) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol");
  std::string id = start_game(alice, bob, {{"rated", true}, {"rules", "masters"}});
  json t = snapshot(alice, id);
  EXPECT_TRUE(t["rematch"].is_null());
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["code"], "no_rematch")
      << "not before the game is over";
  ASSERT_EQ(bob->request({{"type", "resign"},
                          {"table", id},
                          {"version", t["version"]},
                          {"action_id", "r"}})["type"],
            "action_ok");
  t = snapshot(alice, id);
  ASSERT_EQ(t["status"], "finished");
  std::int64_t v = t["version"];
  alice->clear_inbox();
  bob->clear_inbox();

  // Strangers and malformed requests.
  EXPECT_EQ(carol->request({{"type", "rematch"}, {"table", id}})["code"], "not_seated");
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}, {"accept", "yes"}})["code"],
            "bad_request");
  EXPECT_EQ(alice->request({{"type", "rematch"}})["code"], "bad_request");
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", "0123456789abcdef"}})["code"],
            "no_table");

  // alice offers; bob sees it; offering twice changes nothing.
  json ok = alice->request({{"type", "rematch"}, {"table", id}});
  ASSERT_EQ(ok["type"], "ok") << ok;
  EXPECT_EQ(ok["rematch"]["offers"], json::array({1}));
  json seen = bob->next("table");
  EXPECT_EQ(seen["table"]["version"], v + 1);
  EXPECT_EQ(seen["events"][0]["kind"], "rematch_offer");
  EXPECT_EQ(seen["events"][0]["seat"], 1);
  EXPECT_EQ(seen["table"]["rematch"]["offers"], json::array({1}));
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["type"], "ok");
  EXPECT_EQ(snapshot(bob, id)["version"], v + 1);

  // bob declines: the offer is gone, alice learns who declined.
  json no = bob->request({{"type", "rematch"}, {"table", id}, {"accept", false}});
  ASSERT_EQ(no["type"], "ok") << no;
  json declined = alice->next_if(
      [&](const json& j) { return j["type"] == "table" && j["table"]["version"] == v + 2; });
  EXPECT_EQ(declined["events"][0]["kind"], "rematch_decline");
  EXPECT_EQ(declined["table"]["rematch"]["declined"], 2);
  EXPECT_EQ(declined["table"]["rematch"]["offers"], json::array());

  // Offered again and accepted: a new table, rated, the colours swapped, both seated.
  ASSERT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["type"], "ok");
  json yes = bob->request({{"type", "rematch"}, {"table", id}, {"accept", true}});
  ASSERT_EQ(yes["type"], "ok") << yes;
  ASSERT_TRUE(yes["rematch"]["table"].is_string()) << yes;
  std::string next_id = yes["rematch"]["table"];
  EXPECT_NE(next_id, id);
  json started = alice->next_if([&](const json& j) {
    return j["type"] == "table" && !j["table"]["rematch"].is_null() &&
           j["table"]["rematch"]["table"].is_string();
  });
  EXPECT_EQ(started["events"].back()["kind"], "rematch");  // after bob's own offer
  EXPECT_EQ(started["events"].back()["table"], next_id);
  json a = alice->request({{"type", "open_table"}, {"table", next_id}});
  json b = bob->request({{"type", "open_table"}, {"table", next_id}});
  ASSERT_EQ(a["type"], "joined") << a;
  EXPECT_EQ(a["you"], 2);  // alice was light: now dark
  EXPECT_EQ(b["you"], 1);
  EXPECT_EQ(a["table"]["status"], "playing");
  EXPECT_EQ(a["table"]["rated"], true);
  EXPECT_EQ(a["table"]["rules"], "masters");
  EXPECT_EQ(a["table"]["public"], false);
  EXPECT_EQ(a["table"]["seats"][0]["name"], "bob");
  EXPECT_EQ(a["table"]["seats"][0]["rating"], 1180);  // after the first game
  EXPECT_EQ(a["table"]["seats"][1]["rating"], 1220);
  // Once made, no second rematch from the same table; the new game plays on.
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["code"], "no_rematch");
  for (Client* c : {&alice, &bob}) {  // play_out reads the broadcasts of one table only
    EXPECT_EQ((*c)->request({{"type", "unwatch"}, {"table", id}})["type"], "ok");
    (*c)->clear_inbox();
  }
  json final_table = play_out(bob, alice, a["table"]);
  EXPECT_EQ(final_table["id"], next_id);
  EXPECT_EQ(final_table["status"], "finished");
  EXPECT_EQ(final_table["rated"], true);
  EXPECT_EQ(me(alice)["games"], 2);
}

TEST_F(RematchTest, NoRematchAgainstTheComputerOrALeftOpponent) {
  ServerConfig c = config();
  c.bot_delay = std::chrono::milliseconds(1);
  ServerFixture::start_server(c);
  Client alice = user("alice"), bob = user("bob");
  json vs = alice->request({{"type", "create_table"}, {"level", "easy"}});
  json t = vs["table"];
  ASSERT_EQ(action_resign(alice, t), "action_ok");
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", t["id"]}})["code"], "no_rematch");

  std::string id = start_game(alice, bob);
  t = snapshot(alice, id);
  ASSERT_EQ(action_resign(alice, t), "action_ok");
  t = snapshot(alice, id);
  ASSERT_EQ(bob->request({{"type", "leave"},
                          {"table", id},
                          {"version", t["version"]},
                          {"action_id", "bye"}})["type"],
            "action_ok");
  EXPECT_EQ(alice->request({{"type", "rematch"}, {"table", id}})["code"], "no_rematch");
  EXPECT_EQ(bob->request({{"type", "rematch"}, {"table", id}})["code"], "left_table");
}

}  // namespace
}  // namespace ur::server
