// Move analysis (solver::analyse): graded against a table solved here, the perfect player's
// moves cost nothing, every cost is the gap between the best move's value and the played one's,
// forced moves are kept but not counted as decisions, and a table of another rule set is
// refused.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "ai/agent.h"
#include "rules/presets.h"
#include "solver/analysis.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

namespace ur::solver {
namespace {

class AnalysisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ur_analysis_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Solves `rules` and opens its table.
  std::shared_ptr<const Table> solve(const Engine& engine, const StateIndex& index) {
    ValueIteration vi(index, SolveOptions{});
    vi.solve({});
    const std::string rules = engine.rules().to_string();
    const std::string path = (dir_ / (std::to_string(engine.rules().pieces) + ".urt")).string();
    EXPECT_EQ(write_table(path, vi.values(), ValueType::kF32, rules, index.encoding_id(),
                          vi.max_residual()),
              "");
    return std::get<std::shared_ptr<const Table>>(Table::open(path, rules));
  }

  std::filesystem::path dir_;
};

// Plays light with `light` and dark with `dark` until the game ends.
Game play(std::shared_ptr<const Engine> engine, ai::Agent& light, ai::Agent& dark, int seed) {
  Game g(std::move(engine));
  Rng dice(seed);
  while (!g.is_over()) {
    if (g.awaiting_throw()) {
      g.roll(dice);
      continue;
    }
    ai::Agent& a = g.to_act() == Player::kLight ? light : dark;
    EXPECT_TRUE(g.apply_move(a.choose(g.engine(), g.position(), {})).ok());
  }
  return g;
}

TEST_F(AnalysisTest, PerfectMovesCostNothingAndCostsAreValueGaps) {
  auto engine = std::make_shared<const Engine>(rule_set_or_throw("finkel(pieces=2)"));
  const StateIndex index = std::get<StateIndex>(StateIndex::create(*engine));
  auto table = solve(*engine, index);
  const std::string path = dir_.string() + "/2.urt";
  auto perfect = std::get<std::unique_ptr<ai::Agent>>(
      ai::make_agent("perfect(table=" + path + ")", engine->rules(), 1));
  auto random = std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("random", engine->rules(), 2));
  int dark_errors = 0;
  for (int seed = 1; seed <= 20; ++seed) {
    const Game g = play(engine, *perfect, *random, seed);
    AnalysisResult r = analyse(g, index, *table);
    ASSERT_TRUE(std::holds_alternative<Analysis>(r)) << std::get<std::string>(r);
    const Analysis& a = std::get<Analysis>(r);
    ASSERT_FALSE(a.moves.empty());
    int counted[2] = {0, 0};
    for (const GradedMove& m : a.moves) {
      EXPECT_EQ(g.events()[m.event].type, GameEvent::Type::kMove);
      EXPECT_EQ(g.events()[m.event].move, m.played);
      EXPECT_GE(m.best_value, m.played_value);
      EXPECT_GE(m.played_value, 0.0);
      EXPECT_LE(m.best_value, 1.0);
      if (m.player == Player::kLight) {
        EXPECT_LT(m.cost(), 1e-6) << "event " << m.event;
      }
      if (m.legal < 2) {
        EXPECT_LT(m.cost(), 1e-6) << "a forced move costs nothing";
      }
      if (m.legal >= 2) ++counted[index_of(m.player)];
    }
    EXPECT_EQ(a.players[0].decisions, counted[0]);
    EXPECT_EQ(a.players[1].decisions, counted[1]);
    EXPECT_EQ(a.players[0].best, a.players[0].decisions);
    EXPECT_DOUBLE_EQ(a.players[0].total_cost, 0.0);
    dark_errors += a.players[1].decisions - a.players[1].best;
    EXPECT_NEAR(a.start_value, table->value(index.rank(g.start_position())), 1e-12);
  }
  EXPECT_GT(dark_errors, 0) << "random play makes some costly moves in 20 games";
}

TEST_F(AnalysisTest, GradesNameTheCost) {
  EXPECT_EQ(grade(0), "best");
  EXPECT_EQ(grade(0.005), "good");
  EXPECT_EQ(grade(0.03), "inaccuracy");
  EXPECT_EQ(grade(0.1), "mistake");
  EXPECT_EQ(grade(0.4), "blunder");
}

TEST_F(AnalysisTest, ATableOfAnotherRuleSetIsRefused) {
  auto two = std::make_shared<const Engine>(rule_set_or_throw("finkel(pieces=2)"));
  const Engine three(rule_set_or_throw("finkel(pieces=3)"));
  const StateIndex index3 = std::get<StateIndex>(StateIndex::create(three));
  auto table3 = solve(three, index3);
  const StateIndex index2 = std::get<StateIndex>(StateIndex::create(*two));
  AnalysisResult r = analyse(Game(two), index2, *table3);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("finkel(pieces=3)"), std::string::npos);
}

}  // namespace
}  // namespace ur::solver
