// The lobby's hygiene (docs/server.md, "Table expiry" and "Reserved names"): registration refuses
// names that impersonate guests, the computer or the staff; a table the idle clock cannot end
// closes once its players have all gone; a finished table's visibility no longer changes.
#include <chrono>
#include <thread>

#include "server/storage/storage.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;
using namespace std::chrono_literals;

class LobbyHygieneTest : public TableFixture {
 protected:
  void start_expiring(std::chrono::milliseconds after) {
    ServerConfig c = config();
    c.abandon_after = after;
    c.bot_delay = 0ms;
    c.idle_timeout = 120s;  // the idle clock must not end the games these tests watch
    ServerFixture::start_server(c);
  }
  std::string stored_status(const std::string& id) {
    auto row = server_->context().storage->find_table(id);
    return row ? row->status : "missing";
  }
  // Polls the stored row until its status is `want` or `limit` passes.
  bool wait_status(const std::string& id, const std::string& want, std::chrono::seconds limit) {
    auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      if (stored_status(id) == want) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }
};

TEST_F(LobbyHygieneTest, RegistrationRefusesReservedNamesIgnoringCase) {
  start_server();
  for (const char* name :
       {"guest-a03f5062", "GUEST-00000001", "guest", "Guest_7", "guest42", "Computer",
        "computer-hard", "COMPUTERS", "Admin", "light", "Dark", "root", "System"}) {
    Response r = post("/api/register", {{"username", name}, {"password", "password123"}});
    EXPECT_EQ(r.result_int(), 400) << name;
    EXPECT_EQ(body_json(r)["error"], "reserved_username") << name;
    if (std::string_view(name).size() > 5) {  // "guest" is a word of the message itself
      EXPECT_EQ(r.body().find(name), std::string::npos) << "the name is not echoed";
    }
  }
  // Names that only contain a reserved word are fine.
  for (const char* name : {"guesthouse", "mycomputer", "alice_guest", "lightning"}) {
    Response r = post("/api/register", {{"username", name}, {"password", "password123"}});
    EXPECT_EQ(r.result_int(), 201) << name << r.body();
  }
}

TEST_F(LobbyHygieneTest, AComputerGameWhosePlayerHasGoneClosesUnratedAndLeavesTheLobby) {
  start_expiring(600ms);
  Client gone = guest(), stays = guest(), watcher = guest();
  json made = gone->request({{"type", "create_table"}, {"level", "beginner"}});
  ASSERT_EQ(made["type"], "joined") << made;
  std::string id = made["table"]["id"];
  EXPECT_EQ(made["table"]["public"], false) << "unlisted unless asked";
  ASSERT_EQ(gone->request({{"type", "set_visibility"}, {"table", id}, {"public", true}})["type"],
            "ok");
  json kept = stays->request({{"type", "create_table"}, {"level", "beginner"}, {"public", true}});
  std::string kept_id = kept["table"]["id"];
  ASSERT_EQ(watcher->request({{"type", "open_table"}, {"table", id}})["role"], "spectator");
  EXPECT_EQ(watcher->request({{"type", "list_tables"}})["tables"].size(), 2u);

  gone.ws.reset();  // the tab is closed; a spectator does not keep the table open
  json closed = watcher->next_if([&](const json& j) {
    return j.value("type", "") == "table" && j["table"]["status"] == "closed";
  });
  ASSERT_EQ(closed["events"].size(), 1u) << closed;
  EXPECT_EQ(closed["events"][0]["kind"], "closed");
  EXPECT_EQ(closed["events"][0]["reason"], "abandoned");
  EXPECT_EQ(stored_status(id), "closed");
  EXPECT_FALSE(server_->context().storage->find_match(id))
      << "no result is recorded for an abandoned game";

  json list = watcher->request({{"type", "list_tables"}});
  ASSERT_EQ(list["tables"].size(), 1u) << list;
  EXPECT_EQ(list["tables"][0]["id"], kept_id) << "a player still there keeps the table";
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(stored_status(kept_id), "playing");
}

TEST_F(LobbyHygieneTest, AWaitingTableAndAPassAndPlayTableCloseOnceTheirOwnerHasGone) {
  start_expiring(500ms);
  Client owner = guest(), friend_ = guest();
  json made = owner->request({{"type", "create_table"}});
  std::string waiting = made["table"]["id"];
  std::string local = owner->request({{"type", "create_table"}, {"local", true}})["table"]["id"];
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(stored_status(waiting), "waiting") << "its owner's page is open";
  EXPECT_EQ(stored_status(local), "playing");
  owner.ws.reset();
  EXPECT_TRUE(wait_status(waiting, "closed", 20s));
  EXPECT_TRUE(wait_status(local, "closed", 20s));
  // The friend who opens the invite late is told the table closed, not that its seats are taken.
  json late =
      friend_->request({{"type", "join_table"}, {"table", waiting}, {"invite", made["invite"]}});
  EXPECT_EQ(late["code"], "table_closed") << late;
}

TEST_F(LobbyHygieneTest, BetweenPeopleTheIdleClockDecidesNotTheExpiry) {
  start_expiring(300ms);
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob);
  snapshot(alice, id);  // both pages opened the table: the first move is timed
  snapshot(bob, id);
  alice.ws.reset();
  bob.ws.reset();
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(stored_status(id), "playing") << "the idle clock (120 s here) ends this game";
}

TEST_F(LobbyHygieneTest, APlayerWhosePageLeftIsAnnouncedOfflineAndBackOnline) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol");
  std::string id = start_game(alice, bob, {{"public", true}});
  json watching = carol->request({{"type", "open_table"}, {"table", id}});
  EXPECT_EQ(watching["online"], json::array({true, true})) << watching;
  std::string cookie = bob.cookie;
  bob.ws.reset();
  for (Client* c : {&alice, &carol}) {
    json gone = (*c)->next_if(
        [](const json& j) { return j.value("type", "") == "presence" && j["online"] == false; });
    EXPECT_EQ(gone["table"], id);
    EXPECT_EQ(gone["seat"], 2);
    EXPECT_EQ(gone["online"], false);
  }
  EXPECT_EQ(snapshot(alice, id)["status"], "playing") << "the idle clock decides, as before";
  alice->clear_inbox();  // the presence of both seats at the game's start
  Client back{cookie, std::make_unique<TestWs>(port_)};
  ASSERT_EQ(back->connect(cookie), 0u);
  json reopened = back->request({{"type", "open_table"}, {"table", id}});
  EXPECT_EQ(reopened["role"], "player");
  EXPECT_EQ(reopened["online"], json::array({true, true}));
  json returned = alice->next_if(
      [](const json& j) { return j.value("type", "") == "presence" && j["online"] == true; });
  EXPECT_EQ(returned["seat"], 2);
  EXPECT_EQ(returned["online"], true);
}

// Presence (docs/protocol.md) is said of people's seats only: never of the computer's seat, nor
// at pass and play, where one person sits at both.
TEST_F(LobbyHygieneTest, PresenceIsSaidOfPeoplesSeatsOnly) {
  start_server();
  Client alice = user("alice"), carol = user("carol");
  json vs = alice->request({{"type", "create_table"}, {"level", "beginner"}, {"public", true}});
  ASSERT_EQ(vs["type"], "joined") << vs;
  EXPECT_EQ(vs["online"], json::array({true, nullptr})) << "the computer is never away";
  json watched = carol->request({{"type", "open_table"}, {"table", vs["table"]["id"]}});
  EXPECT_EQ(watched["online"], json::array({true, nullptr})) << watched;

  // Pass and play (never public): its player's other page comes and goes, and the first page
  // hears nothing of it.
  json local = alice->request({{"type", "create_table"}, {"local", true}});
  ASSERT_EQ(local["type"], "joined") << local;
  std::string id = local["table"]["id"];
  EXPECT_EQ(local["online"], json::array({nullptr, nullptr})) << local;
  Client again{alice.cookie, std::make_unique<TestWs>(port_)};
  ASSERT_EQ(again->connect(alice.cookie), 0u);
  EXPECT_EQ(again->request({{"type", "open_table"}, {"table", id}})["role"], "player");
  again.ws.reset();
  json t = snapshot(alice, id);
  ASSERT_EQ(act(alice, t, "after")["type"], "action_ok");
  // The table's broadcast after the action comes after any presence the other page's opening
  // would have caused (its closing may be handled later: the opening is what this holds).
  int presence = 0;
  alice->next_if([&](const json& j) {
    if (j.value("type", "") == "presence" && j["table"] == id) ++presence;
    return j.value("type", "") == "table" && j["table"]["id"] == id &&
           j["table"]["version"] > t["version"];
  });
  EXPECT_EQ(presence, 0) << "nobody is away at pass and play";
}

TEST_F(LobbyHygieneTest, AFinishedTablesVisibilityNoLongerChanges) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"public", true}});
  json t = snapshot(alice, id);
  json resigned = alice->request(
      {{"type", "resign"}, {"table", id}, {"version", t["version"]}, {"action_id", "r1"}});
  ASSERT_EQ(resigned["type"], "action_ok") << resigned;
  json refused = alice->request({{"type", "set_visibility"}, {"table", id}, {"public", false}});
  EXPECT_EQ(refused["code"], "game_over") << refused;
  Client carol = user("carol");
  json late = carol->request({{"type", "join_table"}, {"table", id}, {"invite", "00"}});
  EXPECT_EQ(late["code"], "game_over") << "a finished game is not a full table";
}

// A finished game on a private table: to a stranger its table answers that the game is over (its
// replay is anyone's by its id), not that it is private; its player still sees the table; once
// both players have left (the table closes), its invite still says the game is over.
TEST_F(LobbyHygieneTest, AFinishedPrivateGameSaysItIsOverNotPrivate) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol");
  json made = alice->request({{"type", "create_table"}});
  std::string id = made["table"]["id"];
  Client running = user("dave");
  EXPECT_EQ(running->request({{"type", "open_table"}, {"table", id}})["code"], "private_table")
      << "a game not played yet stays private";
  ASSERT_EQ(
      bob->request({{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}})["type"],
      "joined");
  EXPECT_EQ(carol->request({{"type", "open_table"}, {"table", id}})["code"], "private_table");
  json t = snapshot(alice, id);
  ASSERT_EQ(alice->request({{"type", "resign"},
                            {"table", id},
                            {"version", t["version"]},
                            {"action_id", "r"}})["type"],
            "action_ok");
  json over = carol->request({{"type", "open_table"}, {"table", id}});
  EXPECT_EQ(over["code"], "game_over") << over;
  EXPECT_EQ(get("/api/games/" + id).result_int(), 200) << "its replay is anyone's";
  EXPECT_EQ(snapshot(bob, id)["status"], "finished") << "a player sees the finished table";
  for (Client* c : {&alice, &bob}) {
    json s = snapshot(*c, id);
    json left = (*c)->request(
        {{"type", "leave"}, {"table", id}, {"version", s["version"]}, {"action_id", "bye"}});
    EXPECT_EQ(left["type"], "action_ok") << left;
  }
  json late = carol->request({{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}});
  EXPECT_EQ(late["code"], "game_over") << late;
}

}  // namespace
}  // namespace ur::server
