// Game review (analysis::review) on finkel(pieces=3), solved here: the decomposition
// result - start = luck_L - luck_D - lost_L + lost_D holds on 1,000 games of mixed agents
// within the table's rounding, the perfect player loses nothing and scores 100, luck averages
// 0 within its confidence interval, and the accuracy ladder orders the computer players.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "ai/agent.h"
#include "analysis/ladder.h"
#include "analysis/review.h"
#include "rules/presets.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

namespace ur::analysis {
namespace {

// One solve for the whole suite: finkel(pieces=3) has 263,121 states (under a second).
class ReviewTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("ur_review_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_);
    engine_ = new std::shared_ptr<const Engine>(
        std::make_shared<const Engine>(rule_set_or_throw("finkel(pieces=3)")));
    auto index = std::make_shared<const solver::StateIndex>(
        std::get<solver::StateIndex>(solver::StateIndex::create(**engine_)));
    solver::ValueIteration vi(*index, solver::SolveOptions{});
    vi.solve({});
    const std::string rules = (*engine_)->rules().to_string();
    path_ = new std::string((*dir_ / "p3.urt").string());
    ASSERT_EQ(solver::write_table(*path_, vi.values(), solver::ValueType::kF32, rules,
                                  index->encoding_id(), vi.max_residual()),
              "");
    auto table = std::get<std::shared_ptr<const solver::Table>>(solver::Table::open(*path_, rules));
    residual_ = table->info().residual;
    source_ = table_source(*engine_, table, index).release();
  }
  static void TearDownTestSuite() {
    delete source_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete path_;
    delete engine_;
  }

  std::unique_ptr<ai::Agent> agent(const std::string& spec, std::uint64_t seed) {
    const std::string s = spec == "perfect" ? "perfect(table=" + *path_ + ")" : spec;
    return std::move(
        std::get<std::unique_ptr<ai::Agent>>(ai::make_agent(s, (*engine_)->rules(), seed)));
  }

  Game play(ai::Agent& light, ai::Agent& dark, std::uint64_t seed) {
    Game g(*engine_);
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

  Review reviewed(const Game& g) {
    ReviewResult r = review(g, *source_);
    EXPECT_TRUE(std::holds_alternative<Review>(r)) << std::get<Error>(r).message;
    return std::get<Review>(std::move(r));
  }

  static inline std::filesystem::path* dir_ = nullptr;
  static inline std::string* path_ = nullptr;
  static inline std::shared_ptr<const Engine>* engine_ = nullptr;
  static inline ValueSource* source_ = nullptr;
  static inline double residual_ = 0;
};

TEST_F(ReviewTest, TheDecompositionHoldsOnAThousandGamesOfMixedAgents) {
  const char* specs[] = {"random", "greedy", "expectimax(depth=1)", "perfect"};
  double worst = 0;
  for (int game = 0; game < 1000; ++game) {
    auto light = agent(specs[game % 4], game);
    auto dark = agent(specs[(game / 4) % 4], game + 7);
    const Game g = play(*light, *dark, 1000 + game);
    const Review r = reviewed(g);
    const PlayerReview& l = r.players[0];
    const PlayerReview& d = r.players[1];
    const double sum = l.luck - d.luck - l.lost + d.lost;
    // Each throw's average may differ from the table's value of its position by the certified
    // residual of the solve and the f32 rounding of both.
    const double bound = (l.throws + d.throws) * (residual_ + 1e-6);
    ASSERT_NEAR(r.result - r.start_value, sum, bound) << "game " << game;
    EXPECT_NEAR(r.residual, r.result - r.start_value - sum, 1e-12);
    worst = std::max(worst, std::abs(r.residual));
    EXPECT_EQ(r.result, g.winner() == Player::kLight ? 1.0 : 0.0);
    EXPECT_FALSE(r.estimate);
    // Light's chance moves only through the steps: each starts where the last one ended,
    // up to the same rounding.
    double at = r.start_value;
    for (const Step& s : r.steps) {
      ASSERT_NEAR(s.light_before, at, residual_ + 1e-6) << "game " << game << " event " << s.event;
      at = s.light_after;
    }
    EXPECT_EQ(at, r.result);
  }
  RecordProperty("worst_residual", std::to_string(worst));
}

TEST_F(ReviewTest, APerfectPlayerLosesNothingAndScoresOneHundred) {
  auto perfect = agent("perfect", 1);
  auto random = agent("random", 2);
  for (int seed = 1; seed <= 30; ++seed) {
    const Review r = reviewed(play(*perfect, *random, seed));
    EXPECT_EQ(r.players[0].lost, 0.0);
    if (r.players[0].decisions > 0) {
      EXPECT_EQ(r.players[0].accuracy, 100.0);
    } else {
      EXPECT_FALSE(r.players[0].accuracy) << "no decision, no accuracy";
    }
    EXPECT_EQ(r.players[0].best, r.players[0].decisions);
    for (const Step& s : r.steps) {
      if (s.kind != StepKind::kDecision) continue;
      EXPECT_GE(s.best_value, s.played_value);
      if (s.legal < 2) {
        EXPECT_EQ(s.grade, Grade::kForced);
      }
    }
  }
}

TEST_F(ReviewTest, LuckAveragesZeroWithinItsConfidenceInterval) {
  auto greedy = agent("greedy", 3);
  auto random = agent("random", 4);
  double sum = 0, sq = 0;
  long n = 0;
  for (int seed = 0; seed < 400; ++seed) {
    const Review r = reviewed(play(*greedy, *random, 50000 + seed));
    for (const Step& s : r.steps)
      if (s.kind == StepKind::kThrow) sum += s.luck, sq += s.luck * s.luck, ++n;
  }
  const double mean = sum / n;
  const double se = std::sqrt((sq / n - mean * mean) / (n - 1));
  // Three standard errors: a 99.7% interval (the seeds are fixed, so the test is too).
  EXPECT_LT(std::abs(mean), 3 * se) << "mean " << mean << ", standard error " << se;
}

TEST_F(ReviewTest, KeyStepsAreTheLargestLossesAndSwings) {
  auto random = agent("random", 5);
  const Review r = reviewed(play(*random, *random, 77));
  ASSERT_LE(r.key_decisions.size(), static_cast<std::size_t>(kKeySteps));
  for (int i : r.key_decisions) {
    EXPECT_EQ(r.steps[i].kind, StepKind::kDecision);
    EXPECT_GE(r.steps[i].lost, kKeyMinimum);
  }
  for (const Step& s : r.steps) {
    if (s.kind == StepKind::kDecision && !r.key_decisions.empty()) {
      EXPECT_LE(s.lost, r.steps[r.key_decisions[0]].lost);
    }
  }
  for (int i : r.key_throws) EXPECT_GE(std::abs(r.steps[i].luck), kKeyMinimum);
  EXPECT_NE(summary_line(r).find("from the dice"), std::string::npos);
}

// The ladder of docs/analysis.md in small: 60 self-play games a player on finkel(pieces=3).
TEST_F(ReviewTest, TheAccuracyLadderOrdersTheComputerPlayers) {
  const std::vector<std::string> ladder = {"random", "greedy", "expectimax(depth=1)",
                                           "expectimax(depth=3)", "perfect(table=" + *path_ + ")"};
  double last = -1;
  for (const std::string& spec : ladder) {
    auto entry = self_play_accuracy(*engine_, *source_, spec, 60, 9);
    ASSERT_TRUE(std::holds_alternative<LadderEntry>(entry)) << std::get<Error>(entry).message;
    const LadderEntry& e = std::get<LadderEntry>(entry);
    std::cout << spec << ": accuracy " << e.accuracy << " (sd " << e.accuracy_sd << "), loss "
              << e.mean_loss << " over " << e.decisions << " decisions\n";
    EXPECT_GT(e.accuracy, last) << spec;
    if (spec == "random") {
      EXPECT_LT(e.accuracy, 50.0);
    }
    // The loss's 95% interval: positive where the games differ, narrower than the loss for a
    // player who loses every game something; none for the perfect player, who loses nothing.
    if (e.mean_loss > 0) {
      EXPECT_GT(e.loss_ci95, 0.0) << spec;
      if (spec == "random") {
        EXPECT_LT(e.loss_ci95, e.mean_loss / 2) << spec;
      }
    } else {
      EXPECT_EQ(e.loss_ci95, 0.0) << spec;
    }
    last = e.accuracy;
  }
  EXPECT_EQ(last, 100.0);
}

// Grades name the loss (docs/analysis.md), and values of another rule set are refused with a
// message naming both, never turned into a wrong review.
TEST_F(ReviewTest, GradesNameTheLossAndAnotherRuleSetIsRefused) {
  EXPECT_EQ(grade_name(grade_of(0, 1)), "forced");
  EXPECT_EQ(grade_name(grade_of(0, 2)), "best");
  EXPECT_EQ(grade_name(grade_of(0.005, 2)), "good");
  EXPECT_EQ(grade_name(grade_of(0.03, 2)), "inaccuracy");
  EXPECT_EQ(grade_name(grade_of(0.1, 2)), "mistake");
  EXPECT_EQ(grade_name(grade_of(0.4, 2)), "blunder");
  const Game other_rules(std::make_shared<const Engine>(rule_set_or_throw("finkel(pieces=2)")));
  ReviewResult r = review(other_rules, *source_);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("finkel(pieces=3)"), std::string::npos);
  EXPECT_NE(std::get<Error>(r).message.find("finkel(pieces=2)"), std::string::npos);
}

}  // namespace
}  // namespace ur::analysis
