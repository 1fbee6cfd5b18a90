// Profiles and ratings per rule set (docs/server.md, "Profiles"), and what the match history says
// of a game: who ended it, the rule set's name, no accuracy for a seat without a decision.
#include <chrono>
#include <set>
#include <thread>

#include "server/storage/elo.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;
using namespace std::chrono_literals;

class ProfileTest : public TableFixture {
 protected:
  // alice (seat 1) resigns a rated game against bob before anyone decided anything.
  std::string resigned_game(Client& alice, Client& bob, const std::string& rules = "finkel") {
    std::string id = start_game(alice, bob, {{"rated", true}, {"rules", rules}});
    json t = snapshot(alice, id);
    json done = alice->request(
        {{"type", "resign"}, {"table", id}, {"version", t["version"]}, {"action_id", "r"}});
    EXPECT_EQ(done["type"], "action_ok") << done;
    return id;
  }
  // The history of `name` once the server has reviewed its newest game.
  json reviewed_history(const std::string& name) {
    auto until = std::chrono::steady_clock::now() + 30s;
    json page;
    while (std::chrono::steady_clock::now() < until) {
      page = body_json(get("/api/users/" + name + "/matches"));
      if (!page["matches"].empty() && !page["matches"][0]["accuracy"].is_null()) break;
      std::this_thread::sleep_for(100ms);
    }
    return page;
  }
};

TEST_F(ProfileTest, TheHistorySaysWhoEndedTheGameAndGivesNoAccuracyWithoutADecision) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = resigned_game(alice, bob);
  json page = reviewed_history("alice");
  ASSERT_EQ(page["matches"].size(), 1u) << page;
  const json& m = page["matches"][0];
  EXPECT_EQ(m["id"], id);
  EXPECT_EQ(m["you"], 1);
  EXPECT_EQ(m["result"], "loss");
  EXPECT_EQ(m["reason"], "resign");
  EXPECT_EQ(m["ended_by"], 1) << "alice resigned: her page says she did";
  EXPECT_EQ(m["rules_name"], "Finkel");
  ASSERT_TRUE(m["accuracy"].is_array()) << m;
  EXPECT_TRUE(m["accuracy"][0].is_null()) << "no decision, no accuracy";
  EXPECT_TRUE(m["accuracy"][1].is_null());
  EXPECT_EQ(body_json(get("/api/users/bob/matches"))["matches"][0]["ended_by"], 1);

  // The review itself says the same: no decision, no accuracy (not a perfect 100).
  json review = body_json(get("/api/games/" + id + "/analysis"));
  ASSERT_EQ(review["players"].size(), 2u) << review;
  for (const json& p : review["players"]) {
    EXPECT_EQ(p["decisions"], 0) << p;
    EXPECT_TRUE(p["accuracy"].is_null()) << p;
  }
  // A review stored with a 100 there (as reviews once were) is served with null.
  Storage& storage = *server_->context().storage;
  std::optional<ReviewRow> row = storage.find_review(id);
  ASSERT_TRUE(row);
  json old = json::parse(row->review);
  for (json& p : old["players"]) p["accuracy"] = 100.0;
  row->review = old.dump();
  storage.save_review(*row);
  for (const json& p : body_json(get("/api/games/" + id + "/analysis"))["players"])
    EXPECT_TRUE(p["accuracy"].is_null()) << p;
}

TEST_F(ProfileTest, AProfileHasRatingsPerRuleSetAGraphTheBestWinAndTheLastGames) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string earlier = resigned_game(alice, bob);
  std::this_thread::sleep_for(1100ms);  // games are ordered by when they finished, in seconds
  std::string last = resigned_game(alice, bob, "masters");
  Response res = get("/api/users/BOB/profile");
  ASSERT_EQ(res.result_int(), 200) << res.body();
  json p = body_json(res);
  EloResult first = elo_update(kInitialRating, 0, kInitialRating, 0);
  EloResult second = elo_update(first.winner_after, 1, first.loser_after, 1);
  EXPECT_EQ(p["user"]["username"], "bob");
  EXPECT_EQ(p["user"]["games"], 2);
  EXPECT_EQ(p["user"]["wins"], 2);
  EXPECT_EQ(p["user"]["rating"], std::lround(second.winner_after));
  EXPECT_EQ(p["user"]["provisional"], true);
  ASSERT_EQ(p["ratings"].size(), 2u) << p;
  for (const json& r : p["ratings"]) {
    EXPECT_EQ(r["games"], 1);
    EXPECT_EQ(r["wins"], 1);
    EXPECT_EQ(r["rating"], std::lround(first.winner_after)) << "each rule set from 1200";
    EXPECT_EQ(r["provisional"], true);
  }
  std::set<std::string> names{p["ratings"][0]["rules_name"], p["ratings"][1]["rules_name"]};
  EXPECT_EQ(names, (std::set<std::string>{"Finkel", "Masters"}));
  ASSERT_EQ(p["graph"].size(), 2u);
  EXPECT_EQ(p["graph"][0]["rating"], std::lround(first.winner_after)) << "oldest first";
  EXPECT_EQ(p["graph"][1]["rating"], std::lround(second.winner_after));
  EXPECT_EQ(p["recent"]["games"], 2);
  EXPECT_EQ(p["recent"]["wins"], 2);
  EXPECT_EQ(p["recent"]["best_win"]["opponent"], "alice");
  // The strongest opponent beaten, as rated before that game: alice at 1200 the first time.
  EXPECT_EQ(p["recent"]["best_win"]["rating"], 1200);
  EXPECT_EQ(p["recent"]["best_win"]["id"], earlier);
  EXPECT_EQ(p["recent"]["best_win"]["rules"], "finkel") << "the id, for a client's own name";
  ASSERT_EQ(p["games"].size(), 2u);
  EXPECT_EQ(p["games"][0]["id"], last) << "newest first";
  EXPECT_EQ(p["games"][0]["result"], "win");
  EXPECT_EQ(p["games"][0]["rules_name"], "Masters");

  EXPECT_EQ(get("/api/users/nobody_here/profile").result_int(), 404);
  EXPECT_EQ(get("/api/users/a/profile").result_int(), 404);
  json empty = body_json(get("/api/users/alice/profile"));
  EXPECT_EQ(empty["recent"]["best_win"], nullptr);
  EXPECT_EQ(empty["recent"]["wins"], 0);
}

}  // namespace
}  // namespace ur::server
