// Puzzles out of the box (tables/puzzle_seeder.h): a server that solves a table in the
// background then generates that rule set's puzzles by itself, and serves them; a server
// without tables stores none. The memory limit lets only the smallest preset (bell) be solved.
#include "server/tables/puzzle_seeder.h"
#include "server/tables/table_solver.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class PuzzleSeedTest : public TableFixture {};

TEST_F(PuzzleSeedTest, ASolvedRuleSetGetsItsPuzzlesInTheBackground) {
  ServerConfig c = config();
  c.solve_tables = true;
  c.seed_puzzles = true;
  c.solver_binary = UR_BINARY;
  c.solve_memory = TableSolver::memory_needed(2'000'000);  // bell's 1.9 M states, not more
  ServerFixture::start_server(c);
  // Liveness only: the solve and the first batch take seconds; the bound is far above that.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  Response next;
  for (;;) {
    next = get("/api/puzzles/next?rules=bell");
    if (next.result_int() == 200) break;
    ASSERT_EQ(next.result_int(), 404) << next.body();
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no bell puzzle was stored";
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const json p = body_json(next)["puzzle"];
  EXPECT_EQ(p["rules"], "bell");
  EXPECT_GE(p["moves"].size(), 2u);
  const json answer = body_json(
      post("/api/puzzles/" + p["id"].get<std::string>() + "/attempt", {{"move", p["moves"][0]}}));
  EXPECT_TRUE(answer["correct"].is_boolean()) << answer;
  EXPECT_EQ(get("/api/puzzles/next?rules=finkel").result_int(), 404) << "finkel has no table";
}

TEST(PuzzleSeeder, TheTargetsAreTheIssuesFigures) {
  EXPECT_EQ(PuzzleSeeder::target("finkel"), 20'000u);
  EXPECT_EQ(PuzzleSeeder::target("masters"), 2'000u);
}

TEST(PuzzleSeeder, AStoredRowKeepsTheFilesFieldsAndStartsAtItsDifficulty) {
  const json line = json::parse(
      R"({"id":"22ede9e3ddb2197c","rules":"finkel","position":"L1/0000234a/000045c","throw":1,)"
      R"("moves":[{"move":"4->5","value":0.56},{"move":"10->11","value":0.48}],"best":"4->5",)"
      R"("margin":0.08,"themes":["capture","safety"],"difficulty":0.5,"misses":{},"origin":"x"})");
  const PuzzleRow row = puzzle_row(line);
  EXPECT_EQ(row.id, "22ede9e3ddb2197c");
  EXPECT_EQ(row.throw_k, 1);
  EXPECT_EQ(row.best, "4->5");
  EXPECT_EQ(row.themes, ",capture,safety,");
  EXPECT_EQ(json::parse(row.moves), line["moves"]);
  EXPECT_EQ(row.rating, 1500);
  EXPECT_EQ(row.deviation, 500);
}

}  // namespace
}  // namespace ur::server
