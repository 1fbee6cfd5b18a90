// Puzzles out of the box (tables/puzzle_seeder.h): the targets, the stored row of a generated
// puzzle, and a seeder that tops a rule set with a table up to its target and stores none of one
// without (a small rule set solved here, with a small target: the presets' tables take far too
// long to solve in a test). A server that solves bell and then serves its puzzles is
// table_solver_test.cpp's (one background solve for both).
#include <unistd.h>

#include <filesystem>

#include "engine/engine.h"
#include "harness.h"
#include "rules/presets.h"
#include "server/tables/puzzle_seeder.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

TEST(PuzzleSeeder, TheTargetsAreTheIssuesFigures) {
  EXPECT_EQ(PuzzleSeeder::target("finkel"), 20'000u);
  EXPECT_EQ(PuzzleSeeder::target("masters"), 2'000u);
  // What a server seeds: every preset, Finkel 20,000 and every other 2,000.
  const std::vector<SeedTarget> targets = PuzzleSeeder::preset_targets();
  ASSERT_EQ(targets.size(), preset_list().size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    EXPECT_EQ(targets[i].rules.to_string(), find_preset(preset_list()[i].id)->to_string());
    EXPECT_EQ(targets[i].count,
              preset_list()[i].id == std::string_view("finkel") ? 20'000u : 2'000u)
        << preset_list()[i].id;
  }
}

TEST(PuzzleSeeder, TopsUpToTheTargetWhereATableExistsAndStoresNoneElsewhere) {
  const fs::path dir = fs::temp_directory_path() / ("ur_puzzle_seed_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const RuleSet small = rule_set_or_throw("finkel(pieces=3)");
  {
    const Engine engine(small);
    const auto index = std::get<solver::StateIndex>(solver::StateIndex::create(engine));
    solver::ValueIteration vi(index, solver::SolveOptions{});
    vi.solve({});
    ASSERT_EQ(solver::write_table(solver::table_path(dir.string(), small.to_string()), vi.values(),
                                  solver::ValueType::kF32, small.to_string(), index.encoding_id(),
                                  vi.max_residual()),
              "");
  }
  const solver::TableStore tables(dir.string());
  auto opened = open_storage((dir / "ur.db").string());
  ASSERT_TRUE(opened.storage) << opened.error;
  Storage& storage = *opened.storage;
  const RuleSet masters = *find_preset("masters");  // no table here
  PuzzleSeeder seeder(storage, tables, std::chrono::seconds(60), {{small, 301}, {masters, 50}});
  // Batches of 100: the last one stores the one puzzle missing, not a whole batch, and finds a
  // new one although the first puzzles its seed meets are stored already.
  std::vector<int> batches;
  for (int stored; (stored = seeder.top_up(100)) > 0 && batches.size() < 40;)
    batches.push_back(stored);
  EXPECT_EQ(storage.count_puzzles(small.to_string()), 301);
  EXPECT_EQ(storage.count_puzzles(masters.to_string()), 0) << "no table, no puzzle";
  ASSERT_FALSE(batches.empty());
  for (int b : batches) EXPECT_LE(b, 100);
  EXPECT_EQ(seeder.top_up(100), 0) << "at the target: nothing more";
  // A stored puzzle can be served and is one of the small rule set's.
  auto next = storage.next_puzzle({0, small.to_string(), "", 1500});
  ASSERT_TRUE(next);
  EXPECT_EQ(next->rules, small.to_string());
  opened.storage.reset();
  fs::remove_all(dir);
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
