// GET /api/levels: the computer's levels, weakest first, from the one list in ai/registry; the
// web lobby offers what it answers, so every level listed must be one a table accepts.
#include "ai/agent.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class LevelsTest : public TableFixture {};

TEST_F(LevelsTest, EveryLevelListedIsOneATableAccepts) {
  start_server();
  Response res = get("/api/levels");
  ASSERT_EQ(res.result_int(), 200) << res.body();
  json levels = body_json(res)["levels"];
  std::vector<std::string> names;
  for (const json& l : levels) {
    names.push_back(l["name"]);
    EXPECT_FALSE(l["agent"].get<std::string>().empty()) << l;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"beginner", "easy", "medium", "hard", "perfect"}));
  ASSERT_EQ(levels.size(), ai::levels().size());
  // The boxed game cannot be solved, so perfect plays as hard and no table is read.
  for (const std::string& name : names) {
    Client g = guest();
    json created =
        g->request({{"type", "create_table"}, {"rules", "boxed"}, {"level", name}, {"seat", 1}});
    ASSERT_EQ(created["type"], "joined") << name << ": " << created;
    EXPECT_EQ(created["table"]["seats"][1]["kind"], "bot");
    EXPECT_EQ(created["table"]["seats"][1]["level"], name);
  }
  Client g = guest();
  json refused = g->request({{"type", "create_table"}, {"level", "grandmaster"}});
  EXPECT_EQ(refused["code"], "bad_request") << refused;
}

}  // namespace
}  // namespace ur::server
