// Hints and stored reviews (docs/analysis.md), against a real server with real WebSocket clients:
// a player of an unrated game against the computer gets the best move (a legal one, estimated
// on a server without tables and marked so) and every hint is counted for the seat; hints are
// refused with `hints_unavailable` in rated games and in games between people, and while the
// dice are due; a finished game's review is stored by the server on its own and names the hints
// each player took; the history lists each player's accuracy; an older game without a stored
// review is reviewed on its first request and stored then.
#include <chrono>
#include <thread>

#include "harness.h"
#include "server/storage/storage.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class HintsReviewTest : public TableFixture {
 protected:
  // Waits for the server's review thread to store the review of `id` (no deadline of its own:
  // ctest's timeout bounds it, so a slow machine never fails the test).
  ReviewRow stored_review(const std::string& id) {
    for (;;) {
      if (auto r = server_->context().storage->find_review(id)) return *r;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
};

TEST_F(HintsReviewTest, HintsInAnUnratedGameAgainstTheComputerAreCountedAndReviewed) {
  ServerConfig c = config();
  c.bot_delay = std::chrono::milliseconds(1);
  ServerFixture::start_server(c);
  Client g = guest();
  json created = g->request(
      {{"type", "create_table"}, {"rules", "finkel(pieces=2)"}, {"level", "easy"}, {"seat", 1}});
  ASSERT_EQ(created["type"], "joined") << created;
  const std::string id = created["table"]["id"];
  json table = created["table"];
  int n = 0, hints = 0;
  bool refused_before_throw = false;
  while (table["status"] == "playing" && n < 5000) {
    if (table["game"]["to_act"] == 1) {
      const json& legal = table["game"]["legal_moves"];
      if (legal.empty() && !refused_before_throw) {
        json early = g->request({{"type", "hint"}, {"table", id}});
        EXPECT_EQ(early["code"], "roll_expected") << early;
        refused_before_throw = true;
      }
      if (legal.size() > 1 && hints < 3) {
        json hint = g->request({{"type", "hint"}, {"table", id}});
        ASSERT_EQ(hint["type"], "hint") << hint;
        EXPECT_EQ(hint["hints"], ++hints);
        EXPECT_TRUE(hint["estimate"].get<bool>()) << "no tables on a test server";
        EXPECT_GE(double(hint["value"]), 0.0);
        EXPECT_LE(double(hint["value"]), 1.0);
        bool is_legal = false;
        for (const json& m : legal)
          is_legal |=
              m["from"] == hint["from"] && m["to"] == hint["to"] && m["kind"] == hint["kind"];
        EXPECT_TRUE(is_legal) << hint << " among " << legal;
        table = snapshot(g, id);  // the hint moved the version on
        EXPECT_EQ(table["seats"][0]["hints"], hints);
      }
      json ans = act(g, table, "g" + std::to_string(++n));
      ASSERT_EQ(ans["type"], "action_ok") << ans;
    }
    std::int64_t v = table["version"];
    table = g->next_if(
        [&](const json& j) { return j["type"] == "table" && j["table"]["version"] > v; })["table"];
  }
  ASSERT_EQ(table["status"], "finished");
  ASSERT_GT(hints, 0) << "the game gave no decision with a choice";
  EXPECT_TRUE(refused_before_throw);
  EXPECT_EQ(table["summary"]["seats"][0]["hints"], hints);
  EXPECT_EQ(g->request({{"type", "hint"}, {"table", id}})["code"], "game_over");

  // The server reviews the finished game by itself and stores it; the review names the hints.
  const ReviewRow stored = stored_review(id);
  EXPECT_TRUE(stored.estimate);
  Response r = get("/api/games/" + id + "/analysis");
  ASSERT_EQ(r.result_int(), 200) << r.body();
  json a = body_json(r);
  EXPECT_EQ(a["players"][0]["hints"], hints);
  EXPECT_EQ(a["players"][1]["hints"], 0);
  EXPECT_DOUBLE_EQ(double(a["players"][0]["accuracy"]), stored.accuracy[0]);
  EXPECT_EQ(a.dump(), json::parse(stored.review).dump()) << "served from storage";
}

TEST_F(HintsReviewTest, HintsAreRefusedInRatedGamesAndBetweenPeople) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = guest();
  for (bool rated : {true, false}) {
    std::string id = start_game(alice, bob, {{"rated", rated}});
    json t = snapshot(alice, id);
    Client& mover = t["game"]["to_act"] == 1 ? alice : bob;
    json refused = mover->request({{"type", "hint"}, {"table", id}});
    EXPECT_EQ(refused["code"], "hints_unavailable") << refused;
    EXPECT_EQ(snapshot(alice, id)["version"], t["version"]) << "nothing counted";
    mover->request({{"type", "resign"},
                    {"table", id},
                    {"version", t["version"]},
                    {"action_id", "r" + std::to_string(rated)}});
  }
  EXPECT_EQ(carol->request({{"type", "hint"}, {"table", "00000000000000ff"}})["code"], "no_table");
  EXPECT_EQ(carol->request({{"type", "hint"}, {"table", 7}})["code"], "bad_request");
  // A stranger to a computer game (a spectator of a public one) gets no hint either.
  json vs = alice->request({{"type", "create_table"}, {"level", "easy"}, {"public", true}});
  EXPECT_EQ(carol->request({{"type", "hint"}, {"table", vs["table"]["id"]}})["code"], "not_seated");
}

TEST_F(HintsReviewTest, TheHistoryShowsAccuracyAndOldGamesAreReviewedOnRequest) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rules", "finkel(pieces=2)"}});
  ASSERT_EQ(play_out(alice, bob, snapshot(alice, id))["status"], "finished");
  const ReviewRow stored = stored_review(id);
  json history = body_json(get("/api/users/alice/matches"));
  ASSERT_EQ(history["matches"].size(), 1u);
  const json& row = history["matches"][0];
  ASSERT_TRUE(row["accuracy"].is_array()) << row;
  EXPECT_DOUBLE_EQ(double(row["accuracy"][0]), stored.accuracy[0]);
  EXPECT_DOUBLE_EQ(double(row["accuracy"][1]), stored.accuracy[1]);
  EXPECT_EQ(row["accuracy_estimate"], true);

  // A game stored before reviews were (here: written past the server): no review until asked.
  Storage& storage = *server_->context().storage;
  std::optional<MatchRow> m = storage.find_match(id);
  ASSERT_TRUE(m);
  MatchRow old = *m;
  old.id = "00000000000000ab";
  TableRow t{old.id, old.rules, "finished", false, false, 1, "{}", 0, 0, "", 0, ""};
  ASSERT_TRUE(storage.finish_game(t, -1, old));
  history = body_json(get("/api/users/alice/matches"));
  for (const json& h : history["matches"]) {
    if (h["id"] == old.id) {
      EXPECT_TRUE(h["accuracy"].is_null()) << h;
    }
  }
  EXPECT_FALSE(storage.find_review(old.id));
  Response r = get("/api/games/" + old.id + "/analysis");
  ASSERT_EQ(r.result_int(), 200) << r.body();
  std::optional<ReviewRow> now = storage.find_review(old.id);
  ASSERT_TRUE(now) << "reviewed on request and stored";
  EXPECT_EQ(now->accuracy, stored.accuracy) << "the same game, the same review";
}

}  // namespace
}  // namespace ur::server
