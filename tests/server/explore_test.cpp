// GET /api/explore: every throw and legal move of any position with its winning chance and the
// position it leads to (estimated here: the test server has no tables), and bad input refused
// in words that never quote it.
#include "harness.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class ExploreTest : public ServerFixture {};

TEST_F(ExploreTest, EveryThrowAndMoveOfAPositionWithTheirChances) {
  start_server();
  Response start = get("/api/explore?rules=finkel&position=start");
  ASSERT_EQ(start.result_int(), 200) << start.body();
  json j = body_json(start);
  EXPECT_EQ(j["estimate"], true);
  ASSERT_TRUE(j["throws"].is_array());
  double total = 0;
  std::string after_move;
  for (const json& t : j["throws"]) {
    total += t["probability"].get<double>();
    for (const json& m : t["moves"]) {
      EXPECT_TRUE(m["position"].is_string()) << m;
      after_move = m["position"];
    }
  }
  EXPECT_NEAR(total, 1.0, 1e-9);
  ASSERT_FALSE(after_move.empty());
  // Playing on: the position after a move is explored in turn.
  Response next = get("/api/explore?rules=finkel&position=" + after_move);
  ASSERT_EQ(next.result_int(), 200) << next.body();
  EXPECT_EQ(body_json(next)["position"], after_move);
}

TEST_F(ExploreTest, BadInputIsRefusedInWords) {
  start_server();
  Response pos = get("/api/explore?rules=finkel&position=zqzq-not-a-position");
  EXPECT_EQ(pos.result_int(), 400);
  EXPECT_EQ(body_json(pos)["error"], "bad_position");
  EXPECT_EQ(pos.body().find("zqzq"), std::string::npos) << pos.body();
  Response rules = get("/api/explore?rules=zqzq&position=start");
  EXPECT_EQ(rules.result_int(), 400);
  EXPECT_EQ(body_json(rules)["message"], "rules: unknown preset");
  EXPECT_EQ(get("/api/explore?position=%zz").result_int(), 400);
}

}  // namespace
}  // namespace ur::server
