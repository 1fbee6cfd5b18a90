// Puzzles out of the box (tables/puzzle_seeder.h): the targets and the stored row of a generated
// puzzle. A server that solves bell and then serves its puzzles is table_solver_test.cpp's
// (one background solve for both).
#include "harness.h"
#include "server/tables/puzzle_seeder.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

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
