// Endgame tables (issue: the seven-counter Murray and boxed games cannot be solved whole): the
// endgame index is a bijection over the positions with at most k pieces left a side, its values
// equal the whole table's where both exist, and the table store finds it, says which positions
// it covers and refuses a wrong or damaged file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "../test_util.h"
#include "engine/notation.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

// A namespace of its own: the unity build may batch this file with the other solver tests.
namespace ur::solver::endgame_test {
namespace {

struct Solved {
  Engine engine;
  StateIndex index;
  ValueIteration vi;
  Solved(const std::string& rules, int endgame)
      : engine(rule_set_or_throw(rules)),
        index(std::get<StateIndex>(StateIndex::create(engine, Encoding::kAuto, endgame))),
        vi(index, SolveOptions{}) {
    vi.solve({});
  }
};

Solved& solved(const std::string& rules, int endgame) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Solved>> cache;
  auto& slot = cache[{rules, endgame}];
  if (!slot) slot = std::make_unique<Solved>(rules, endgame);
  return *slot;
}

StateIndex index_of(const Engine& e, int endgame) {
  StateIndexResult r = StateIndex::create(e, Encoding::kAuto, endgame);
  if (auto* err = std::get_if<Error>(&r)) throw std::runtime_error(err->message);
  return std::get<StateIndex>(std::move(r));
}

int left(const Engine& e, const Position& p, int side) {
  return e.rules().pieces - p.count[side][e.path_length() + 1];
}

TEST(EndgameIndex, IsABijectionOverThePositionsWithAtMostKPiecesLeft) {
  for (const char* rules : {"murray", "murray-royalur", "boxed", "boxed(pieces=3)"}) {
    const Engine e(rule_set_or_throw(rules));
    const StateIndex idx = index_of(e, 2);
    EXPECT_EQ(idx.endgame(), 2);
    std::set<std::string> seen;
    for (std::uint64_t i = 0; i < idx.size(); ++i) {
      const Position p = idx.unrank(i);
      ASSERT_TRUE(idx.contains(p)) << rules << " " << i;
      ASSERT_LE(left(e, p, 0), 2);
      ASSERT_LE(left(e, p, 1), 2);
      ASSERT_EQ(idx.rank(p), i) << rules << " " << to_position_string(e, p);
      ASSERT_TRUE(seen.insert(to_position_string(e, p)).second) << rules << " " << i;
    }
  }
}

TEST(EndgameIndex, CountsEqualTheWholeGameWithKPieces) {
  // k pieces left of seven play exactly like a game of k pieces: the same count of states.
  for (const char* id : {"murray", "murray-royalur", "boxed"})
    for (int k = 1; k <= 3; ++k) {
      const Engine seven(rule_set_or_throw(id));
      const Engine small(rule_set_or_throw(std::string(id) + "(pieces=" + std::to_string(k) + ")"));
      EXPECT_EQ(index_of(seven, k).size(), index_of(small, 0).size()) << id << " k=" << k;
    }
  const Engine murray(rule_set_or_throw("murray"));
  EXPECT_NE(index_of(murray, 2).encoding_id(), index_of(murray, 3).encoding_id());
  EXPECT_EQ(StateIndex::endgame_of(index_of(murray, 3).encoding_id()), 3);
  for (int k : {-1, 0 + 7, 9})
    EXPECT_TRUE(std::holds_alternative<Error>(StateIndex::create(murray, Encoding::kAuto, k))) << k;
  // An endgame table is multiset: asked for in the dense encoding, it is refused, not made
  // silently in the other one (finkel, which the dense index serves whole, too).
  for (const char* id : {"murray", "finkel"}) {
    auto dense = StateIndex::create(Engine(rule_set_or_throw(id)), Encoding::kDense, 2);
    ASSERT_TRUE(std::holds_alternative<Error>(dense)) << id;
    EXPECT_NE(std::get<Error>(dense).message.find("multiset"), std::string::npos) << id;
  }
}

TEST(EndgameIndex, ValuesEqualTheWholeTablesWhereBothExist) {
  Solved& whole = solved("boxed(pieces=3)", 0);
  for (int k : {1, 2}) {
    Solved& end = solved("boxed(pieces=3)", k);
    double worst = 0;
    for (std::uint64_t i = 0; i < end.index.size(); ++i) {
      const Position p = end.index.unrank(i);
      worst = std::max(worst, std::abs(static_cast<double>(end.vi.values()[i]) -
                                       whole.vi.values()[whole.index.rank(p)]));
    }
    EXPECT_LT(worst, 1e-6) << "k=" << k;
    EXPECT_LT(end.vi.max_residual(), 1e-6);
  }
}

TEST(EndgameIndex, SevenCountersWithKLeftPlayAsTheKCounterGame) {
  // murray with two pieces left a side against murray(pieces=2): the same positions, the
  // borne-off counts aside, and the same chances.
  Solved& end = solved("murray", 2);
  Solved& small = solved("murray(pieces=2)", 0);
  ASSERT_EQ(end.index.size(), small.index.size());
  const int off7 = end.engine.path_length() + 1;
  double worst = 0;
  for (std::uint64_t i = 0; i < small.index.size(); ++i) {
    Position p = small.index.unrank(i);
    for (int side = 0; side < 2; ++side) p.count[side][off7] += 5;
    end.engine.refresh_masks(p);
    worst = std::max(worst, std::abs(static_cast<double>(small.vi.values()[i]) -
                                     end.vi.values()[end.index.rank(p)]));
  }
  EXPECT_LT(worst, 1e-6);
}

class EndgameTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ur_endgame_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "tables");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // The endgame table of `rules` written under `name` in the data directory's tables.
  std::string write(const std::string& rules, int k, const std::string& name,
                    const std::string& encoding = "") {
    Solved& s = solved(rules, k);
    const std::string path = (dir_ / "tables" / name).string();
    EXPECT_EQ(write_table(path, s.vi.values(), ValueType::kU16, rules,
                          encoding.empty() ? s.index.encoding_id() : encoding, s.vi.max_residual()),
              "");
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(EndgameTableTest, TheStoreAnswersInsideAndSaysWhyOutside) {
  write("murray", 2, table_file_name("murray", 2));
  EXPECT_EQ(table_file_name("murray", 2), "murray.endgame2.urt");
  TableStore store(dir_.string());
  EXPECT_EQ(store.endgame_on_disk("murray"), 2);
  TableLookup found = store.find(rule_set_or_throw("murray"));
  ASSERT_TRUE(found.ready()) << found.why;
  EXPECT_EQ(found.solved.endgame(), 2);
  const Engine& e = *found.solved.engine;
  Position start = e.initial_position();
  EXPECT_FALSE(found.solved.covers(start));
  start.phase = Phase::kAwaitingRoll;
  EXPECT_FALSE(found.solved.covers(start));
  EXPECT_NE(found.solved.outside(start).find("at most 2 pieces left; light has 7, dark 7"),
            std::string::npos)
      << found.solved.outside(start);
  // Inside: the table's value, the same for both colours.
  Solved& s = solved("murray", 2);
  const Position p = s.index.unrank(s.index.size() / 2);
  ASSERT_TRUE(found.solved.covers(p));
  EXPECT_EQ(found.solved.outside(p), "");
  EXPECT_NEAR(found.solved.value(p, p.turn), s.vi.values()[s.index.size() / 2], 1e-4);
}

TEST_F(EndgameTableTest, RefusesAWrongOrDamagedEndgameTable) {
  // Another rule set's endgame table under murray's name.
  write("boxed", 2, table_file_name("murray", 2));
  TableLookup other = TableStore(dir_.string()).find(rule_set_or_throw("murray"));
  EXPECT_EQ(other.state, TableState::kRefused);
  EXPECT_NE(other.why.find("boxed"), std::string::npos) << other.why;
  // The values of k = 2 labelled k = 1, and an encoding id this build never writes.
  Solved& s = solved("murray", 2);
  const std::string id = s.index.encoding_id();
  for (const std::string& forged : {id.substr(0, id.size() - 1) + "1", id + "x"}) {
    const std::string path = write("murray", 2, "forged.urt", forged);
    TableLookup r = open_table(rule_set_or_throw("murray"), path, true);
    EXPECT_EQ(r.state, TableState::kRefused) << forged;
    EXPECT_NE(r.why.find("encoding"), std::string::npos) << r.why;
  }
  // Truncated and corrupted copies of a good one.
  const std::string path = write("murray", 2, "good.urt");
  for (const std::string& bad : test::damaged_copies(path, dir_.string())) {
    TableLookup r = open_table(rule_set_or_throw("murray"), bad, true);
    EXPECT_EQ(r.state, TableState::kRefused) << bad;
    EXPECT_FALSE(r.why.empty());
  }
}

TEST_F(EndgameTableTest, AWholeGameNamesTheEndgameCommandWhenItCannotBeSolved) {
  TableLookup none = TableStore(dir_.string()).find(rule_set_or_throw("boxed"));
  EXPECT_EQ(none.state, TableState::kUnsolvable);
  EXPECT_NE(none.why.find("--endgame"), std::string::npos) << none.why;
}

}  // namespace
}  // namespace ur::solver::endgame_test
