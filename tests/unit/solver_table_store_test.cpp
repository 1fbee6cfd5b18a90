// The table store (solver/table_store.h): one listing of the data directory at start-up, every
// answer (a table, or why there is none) found once and shared by every caller and thread, and
// a table written later seen only once it is added.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "../test_util.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::solver {
namespace {

namespace fs = std::filesystem;

class TableStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ur_store_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tables");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Solves `rules` and writes its table into the data directory.
  void solve(const RuleSet& rules) {
    const Engine engine(rules);
    const StateIndex index = std::get<StateIndex>(StateIndex::create(engine));
    ValueIteration vi(index, SolveOptions{});
    vi.solve({});
    ASSERT_EQ(
        write_table(table_path(dir_.string(), rules.to_string()), vi.values(), ValueType::kU16,
                    rules.to_string(), index.encoding_id(), vi.max_residual()),
        "");
  }

  fs::path dir_;
};

TEST(TablePaths, TheRuleSetStringMadeFileNameSafeUnderTables) {
  EXPECT_EQ(table_file_name("finkel(pieces=3)"), "finkel_pieces_3.urt");
  EXPECT_EQ(table_file_name("finkel"), "finkel.urt");
  EXPECT_EQ(table_path("/srv/ur", "masters"), "/srv/ur/tables/masters.urt");
}

TEST_F(TableStoreTest, AnswersFromItsListingUntilATableIsAdded) {
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  TableStore store(dir_.string());
  TableLookup none = store.find(rules);
  EXPECT_EQ(none.state, TableState::kMissing);
  EXPECT_EQ(none.why.rfind("no table available for finkel(pieces=2)", 0), 0u) << none.why;
  EXPECT_NE(none.why.find("ur solve --rules"), std::string::npos) << none.why;
  // Written behind the store's back: no stat per question, so still none.
  solve(rules);
  EXPECT_FALSE(store.solved(rules));
  EXPECT_FALSE(store.has_file(rules.to_string()));
  // A store built now lists it; the old one sees it once told.
  EXPECT_TRUE(TableStore(dir_.string()).solved(rules));
  store.add(rules.to_string());
  EXPECT_TRUE(store.has_file(rules.to_string()));
  const TableLookup found = store.find(rules);
  ASSERT_TRUE(found.ready()) << found.why;
  EXPECT_EQ(found.solved.table->size(), found.solved.index->size());
  EXPECT_EQ(found.solved.table->info().rules, rules.to_string());
}

TEST_F(TableStoreTest, SaysWhyARuleSetHasNoTable) {
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  std::ofstream(table_path(dir_.string(), rules.to_string())) << "URTABLE but not really a table";
  const TableStore store(dir_.string());
  const TableLookup refused = store.find(rules);
  EXPECT_EQ(refused.state, TableState::kRefused);
  EXPECT_TRUE(store.has_file(rules.to_string())) << "a refused file is still a file";
  EXPECT_FALSE(refused.why.empty());
  const TableLookup boxed = store.find(rule_set_or_throw("boxed"));
  EXPECT_EQ(boxed.state, TableState::kUnsolvable);
  EXPECT_NE(boxed.why.find("cannot be solved whole"), std::string::npos) << boxed.why;
  EXPECT_EQ(TableStore((dir_ / "absent").string()).find(rules).state, TableState::kMissing);
  // A file named by path: another rule set's table is refused, a missing one says so.
  solve(rule_set_or_throw("finkel(pieces=1)"));
  const std::string other = table_path(dir_.string(), "finkel(pieces=1)");
  EXPECT_EQ(store.find_file(rules, other).state, TableState::kRefused);
  EXPECT_EQ(store.find_file(rules, (dir_ / "none.urt").string()).state, TableState::kMissing);
  EXPECT_TRUE(store.find_file(rule_set_or_throw("finkel(pieces=1)"), other).ready());
}

TEST_F(TableStoreTest, EveryThreadSharesOneOpenedTable) {
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  solve(rules);
  const TableStore store(dir_.string());
  std::vector<const Table*> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = store.find(rules).solved.table.get(); });
  for (std::thread& t : threads) t.join();
  ASSERT_NE(seen[0], nullptr);
  for (const Table* t : seen) EXPECT_EQ(t, seen[0]);
  EXPECT_EQ(store.find(rules).solved.table.get(), seen[0]);
}

}  // namespace
}  // namespace ur::solver
