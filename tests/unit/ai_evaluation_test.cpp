// Evaluation and search depth on throw-chain rule sets: the danger model sees the enemy's
// whole chain and whose chain is under way, stacks are safe, progress ranks the stages of a
// counter's way, and depth is counted in half plies there.
#include <gtest/gtest.h>

#include "../test_util.h"
#include "ai/evaluation.h"
#include "ai/expectimax.h"

namespace ur::ai {
namespace {

// Only the chain danger term, at full weight for whoever's pieces.
EvalWeights danger_only(double own) {
  EvalWeights w;
  w.chain_danger = 1.0;
  w.chain_own = own;
  w.chain_tempo = 0.0;
  return w;
}

TEST(ChainEvaluation, AThreatTwoSquaresBehindNeedsTheWholeChain) {
  // Boxed: light on e2 (index 9), dark on c2 (index 7, the same centre track). No single
  // throw moves 2 (the moves are 1, 4 and 5), but a chain of two 1s does.
  const Engine e = test::make_engine("boxed");
  const Evaluator eval(e, danger_only(0.0));
  const std::vector<int> rest(6, -1);
  std::vector<int> light = rest, dark = rest;
  light.push_back(9);
  dark.push_back(7);
  const Position dark_chain = test::pieces(e, Player::kDark, light, dark);
  const Position light_chain = test::pieces(e, Player::kLight, light, dark);
  // With chain_own = 0 light's piece is in danger only while dark's chain is under way.
  const double gap = eval.score_difference(light_chain, Player::kLight) -
                     eval.score_difference(dark_chain, Player::kLight);
  // P(two 1s before the turn ends) = 1/4; the piece is worth over 1 (staged + progress).
  EXPECT_GT(gap, 0.2);
  EXPECT_LT(gap, 1.0);

  // The same with chain_own = 1: the owner no longer matters (the tempo term is 0).
  const Evaluator flat(e, danger_only(1.0));
  EXPECT_NEAR(flat.score_difference(light_chain, Player::kLight),
              flat.score_difference(dark_chain, Player::kLight), 1e-12);
}

TEST(ChainEvaluation, AStackIsNotInDanger) {
  const Engine e = test::make_engine("boxed");
  const Evaluator eval(e, danger_only(0.0));
  const std::vector<int> light{9, 9, -1, -1, -1, -1, -1};
  const std::vector<int> dark{7, -1, -1, -1, -1, -1, -1};
  const Position dark_chain = test::pieces(e, Player::kDark, light, dark);
  const Position light_chain = test::pieces(e, Player::kLight, light, dark);
  EXPECT_NEAR(eval.score_difference(light_chain, Player::kLight),
              eval.score_difference(dark_chain, Player::kLight), 1e-12);
}

TEST(ChainEvaluation, ProgressRanksTheStagesOfACounter) {
  // Not entered < on S < on the path < borne off, with no enemy counter in play.
  const Engine e = test::make_engine("boxed");
  const Evaluator eval(e, search_weights());
  const std::vector<int> dark(7, -1);
  auto value = [&](int index) {
    std::vector<int> light(6, -1);
    light.push_back(index);
    return eval.score_difference(test::pieces(e, Player::kLight, light, dark), Player::kLight);
  };
  EXPECT_LT(value(-1), value(0));
  EXPECT_LT(value(0), value(1));
  EXPECT_LT(value(1), value(9));
  EXPECT_LT(value(9), value(14));
  EXPECT_LT(value(14), value(15));
}

TEST(ChainEvaluation, SingleThrowRuleSetsCountWholePlies) {
  for (const char* id : {"finkel", "masters", "blitz"}) {
    const PlyCosts c = ply_costs(test::make_engine(id));
    EXPECT_EQ(c.unit, 1) << id;
    EXPECT_EQ(c.decision, 1) << id;
    EXPECT_EQ(c.pass, 1) << id;
  }
  for (const char* id : {"boxed", "bell"}) {
    const PlyCosts c = ply_costs(test::make_engine(id));
    EXPECT_EQ(c.unit, 2) << id;
    EXPECT_EQ(c.decision, 1) << id;
    EXPECT_EQ(c.pass, 2) << id;
  }
}

}  // namespace
}  // namespace ur::ai
