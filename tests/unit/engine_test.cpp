// Engine: initial positions, chance nodes, the turn logic around passes, and check().
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../test_util.h"

namespace ur {
namespace {

using test::make_engine;
using test::moves_for;
using test::MoveSet;
using test::pieces;

using test::kD;
using test::kL;

TEST(EngineInitial, EveryPresetStartsWithAllPiecesWaiting) {
  for (const std::string& id : test::preset_ids()) {
    const Engine e = make_engine(id);
    const Position p = e.initial_position();
    EXPECT_EQ(e.check(p), "") << id;
    for (Player pl : {kL, kD}) {
      EXPECT_EQ(e.waiting(p, pl), e.pieces()) << id;
      EXPECT_EQ(e.borne_off(p, pl), 0) << id;
      for (int i = 1; i <= e.off_index(); ++i) EXPECT_EQ(p.count[index_of(pl)][i], 0) << id;
    }
    if (e.has_staging()) {
      EXPECT_EQ(p.pool[0], e.pieces()) << id << ": staging presets keep the pool off S";
      EXPECT_EQ(p.count[0][0], 0) << id;
    } else {
      EXPECT_EQ(p.count[0][0], e.pieces()) << id;
      EXPECT_EQ(p.pool[0], 0) << id;
    }
  }
}

TEST(EngineInitial, StartPolicyDecidesTheFirstPhase) {
  struct Case {
    const char* rules;
    Phase phase;
    Player turn;
  };
  const Case cases[] = {
      {"finkel", Phase::kAwaitingRoll, kL},
      {"finkel(start=dark)", Phase::kAwaitingRoll, kD},
      {"finkel(start=rolloff)", Phase::kStart, kL},
      {"finkel(start=coin)", Phase::kStart, kL},
      {"conventional", Phase::kStart, kL},
      {"murray", Phase::kStart, kL},
      {"british-museum", Phase::kStart, kL},
      {"bell", Phase::kStart, kL},
      {"boxed", Phase::kStart, kL},
      {"boxed(start=light)", Phase::kAwaitingRoll, kL},
      {"masters", Phase::kAwaitingRoll, kL},
      {"blitz", Phase::kAwaitingRoll, kL},
      {"aseb", Phase::kAwaitingRoll, kL},
  };
  for (const Case& c : cases) {
    const Engine e = make_engine(c.rules);
    const Position p = e.initial_position();
    EXPECT_EQ(p.phase, c.phase) << c.rules;
    EXPECT_EQ(p.turn, c.turn) << c.rules;
    EXPECT_TRUE(p.is_chance()) << c.rules;
    EXPECT_FALSE(p.is_decision()) << c.rules;
  }
}

TEST(EngineChance, OutcomesAreTheBinomialOfTheDice) {
  const Engine finkel = make_engine("finkel");
  const ChanceList c = finkel.chance_outcomes(finkel.initial_position());
  ASSERT_EQ(c.size, 5);
  const double expect[] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(c.items[k].outcome, k);
    EXPECT_DOUBLE_EQ(c.items[k].probability, expect[k]);
  }
  const Engine masters = make_engine("masters");
  const ChanceList m = masters.chance_outcomes(masters.initial_position());
  ASSERT_EQ(m.size, 4);
  const double expect3[] = {1 / 8.0, 3 / 8.0, 3 / 8.0, 1 / 8.0};
  for (int k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(m.items[k].probability, expect3[k]);
}

TEST(EngineChance, BiasedDiceFollowP) {
  const Engine e = make_engine("finkel(p=0.25)");
  const ChanceList c = e.chance_outcomes(e.initial_position());
  ASSERT_EQ(c.size, 5);
  EXPECT_NEAR(c.items[0].probability, std::pow(0.75, 4), 1e-15);
  EXPECT_NEAR(c.items[4].probability, std::pow(0.25, 4), 1e-15);
  EXPECT_NEAR(c.items[2].probability, 6 * 0.25 * 0.25 * 0.75 * 0.75, 1e-15);
  EXPECT_NEAR(test::probability_sum(c), 1.0, 1e-12);
}

TEST(EngineChance, RollOffUsesTheDiceAndCoinCallIsFair) {
  const Engine conv = make_engine("conventional");
  Position p = conv.initial_position();
  EXPECT_EQ(conv.chance_outcomes(p).size, 4);
  conv.apply_throw(p, 2);
  ASSERT_EQ(p.phase, Phase::kRollOff);
  EXPECT_EQ(conv.chance_outcomes(p).size, 4) << "dark's roll-off throw";
  const Engine boxed = make_engine("boxed");
  const ChanceList coin = boxed.chance_outcomes(boxed.initial_position());
  ASSERT_EQ(coin.size, 2);
  EXPECT_EQ(coin.items[0].outcome, 0);
  EXPECT_EQ(coin.items[1].outcome, 1);
  EXPECT_DOUBLE_EQ(test::probability_sum(coin), 1.0);
}

TEST(EngineChance, DecisionAndFinishedPositionsHaveNoOutcomes) {
  const Engine e = make_engine("finkel");
  Position p = e.initial_position();
  MoveList moves;
  ASSERT_TRUE(e.apply_throw(p, 2, moves));
  EXPECT_EQ(e.chance_outcomes(p).size, 0);
  const Position over = pieces(e, kL, {15, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(over.is_over());
  EXPECT_EQ(e.chance_outcomes(over).size, 0);
}

TEST(EngineChance, SampleThrowFollowsTheProbabilities) {
  for (const char* rules : {"finkel", "masters", "finkel(p=0.3)"}) {
    const Engine e = make_engine(rules);
    Rng rng(12345);
    constexpr int kSamples = 200000;
    int seen[kMaxDice + 1] = {};
    for (int i = 0; i < kSamples; ++i) {
      const int k = e.sample_throw(rng);
      ASSERT_GE(k, 0);
      ASSERT_LE(k, e.rules().dice.dice);
      ++seen[k];
    }
    for (const ChanceOutcome& c : e.chance_outcomes(e.initial_position())) {
      // Five standard deviations of a binomial count: a fixed seed makes this deterministic.
      const double sd = std::sqrt(kSamples * c.probability * (1 - c.probability));
      EXPECT_NEAR(seen[c.outcome], kSamples * c.probability, 5 * sd + 1)
          << rules << " k=" << c.outcome;
    }
  }
}

TEST(EngineTurn, NullThrowPasses) {
  const Engine e = make_engine("finkel");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 3, 6}, {0, 0, 0, 0, 0, 0, 2});
  const Position before = p;
  MoveList moves;
  EXPECT_FALSE(e.apply_throw(p, 0, moves));
  EXPECT_EQ(moves.size, 0);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kD);
  EXPECT_EQ(p.count, before.count) << "no piece moved";
  EXPECT_TRUE(moves_for(e, before, 0).empty());
  EXPECT_EQ(e.check(p), "");
}

TEST(EngineTurn, NoLegalMovePassesInSingleThrowMode) {
  const Engine e = make_engine("finkel");
  // Light's last piece on g1 (14) with 2: overshoot, and nothing else to move.
  Position p = pieces(e, kL, {14, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(moves_for(e, p, 2).empty());
  MoveList moves;
  EXPECT_FALSE(e.apply_throw(p, 2, moves));
  EXPECT_EQ(p.turn, kD);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  // Own pieces block every target: d1 c1 b1 a1 taken, throws 1..3 cannot enter or move.
  Position q = pieces(e, kL, {0, 0, 0, 1, 2, 3, 4}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(moves_for(e, q, 1), (MoveSet{{4, 5}}));
  Position r = pieces(e, kL, {0, 0, 0, 1, 2, 3, 4}, {0, 0, 0, 0, 0, 0, 5});
  EXPECT_EQ(moves_for(e, r, 1), (MoveSet{{4, 5}})) << "a2 is shared: a capture";
}

TEST(EngineTurn, ChainContinuesAfterNoMove) {
  const Engine e = make_engine("bell");
  // Nothing on the board: 0 and 2 marks cannot enter, and light throws again.
  for (int k : {0, 2}) {
    Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0});
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, k, moves));
    EXPECT_EQ(p.turn, kL) << "k=" << k;
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  }
  // A piece on g1 (14): 4 and 5 overshoot; the chain still goes on.
  for (int k : {0, 3}) {
    Position p = pieces(e, kL, {14, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, k, moves));
    EXPECT_EQ(p.turn, kL) << "k=" << k;
  }
  // One mark ends the chain even when a move would have been possible.
  Position p = pieces(e, kL, {14, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  MoveList moves;
  EXPECT_FALSE(e.apply_throw(p, 1, moves));
  EXPECT_EQ(p.turn, kD);
  EXPECT_TRUE(moves_for(e, p, 1).empty());
}

TEST(EngineTurn, ChainContinuesAfterAMove) {
  const Engine e = make_engine("bell");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 0});
  MoveList moves;
  ASSERT_TRUE(e.apply_throw(p, 2, moves));
  e.apply_move(p, test::find_move(moves, 5, 6));
  EXPECT_EQ(p.turn, kL);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
}

TEST(EngineMoves, ApplyThrowListsTheSameMovesAsLegalMovesAndMovesForThrow) {
  const Engine e = make_engine("finkel");
  const Position p = pieces(e, kL, {0, 0, 0, 2, 5, 8, 13}, {0, 0, 0, 0, 3, 7, 9});
  for (int k = 1; k <= 4; ++k) {
    Position q = p;
    MoveList from_throw;
    ASSERT_TRUE(e.apply_throw(q, k, from_throw));
    EXPECT_EQ(q.roll, k);
    EXPECT_EQ(test::move_set(from_throw), test::legal(e, q)) << "k=" << k;
    EXPECT_EQ(test::move_set(from_throw), moves_for(e, p, k)) << "k=" << k;
  }
  // k=1: enter d1 (light 2 is on c1, not d1), 2->3, 5->6, 8->9 capture e2, 13->14.
  EXPECT_EQ(moves_for(e, p, 1), (MoveSet{{0, 1}, {2, 3}, {5, 6}, {8, 9}, {13, 14}}));
  // k=2: enter c1 blocked by own, 2->4, 5->7 capture c2, 8->10, 13->15 bears off.
  EXPECT_EQ(moves_for(e, p, 2), (MoveSet{{2, 4}, {5, 7}, {8, 10}, {13, 15}}));
}

TEST(EngineMoves, MovesForThrowIsEmptyForNullAndEndingThrows) {
  const Engine finkel = make_engine("finkel");
  const Position p = pieces(finkel, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(moves_for(finkel, p, 0).empty());
  EXPECT_TRUE(moves_for(finkel, p, -1).empty()) << "out of range";
  EXPECT_TRUE(moves_for(finkel, p, 5).empty()) << "out of range";
  const Engine bell = make_engine("bell");
  const Position q = pieces(bell, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(moves_for(bell, q, 1).empty());
  EXPECT_EQ(moves_for(bell, q, 2), (MoveSet{{5, 6}}));
}

TEST(EngineMoves, MoveFlagsDescribeTheMove) {
  const Engine e = make_engine("finkel");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 4, 13}, {0, 0, 0, 0, 0, 0, 6});
  MoveList moves;
  ASSERT_TRUE(e.apply_throw(p, 2, moves));
  EXPECT_TRUE(test::find_move(moves, 0, 2).flags & move_flag::kEnter);
  EXPECT_TRUE(test::find_move(moves, 4, 6).flags & move_flag::kCapture);
  EXPECT_TRUE(test::find_move(moves, 13, 15).flags & move_flag::kScores);
  EXPECT_FALSE(test::find_move(moves, 13, 15).flags & move_flag::kCapture);
}

TEST(EngineMoves, FactsAboutAPosition) {
  const Engine e = make_engine("finkel");
  const Position p = pieces(e, kD, {0, 0, 3, 15, 15, 15, 15}, {0, 1, 2, 3, 4, 5, 15});
  EXPECT_EQ(e.waiting(p, kL), 2);
  EXPECT_EQ(e.waiting(p, kD), 1);
  EXPECT_EQ(e.borne_off(p, kL), 4);
  EXPECT_EQ(e.borne_off(p, kD), 1);
  EXPECT_EQ(e.path_length(), 14);
  EXPECT_EQ(e.off_index(), 15);
  EXPECT_TRUE(e.landing(kL, 4) & land_flag::kRosette);
  EXPECT_TRUE(e.landing(kL, 8) & land_flag::kSafe);
  EXPECT_FALSE(e.landing(kL, 8) & land_flag::kCapture) << "d2 protects";
  EXPECT_TRUE(e.landing(kL, 7) & land_flag::kCapture);
}

// A valid mid-game position to break in different ways.
Position valid_position(const Engine& e) {
  return pieces(e, kL, {0, 0, 3, 5, 8, 13, 15}, {0, 0, 0, 2, 7, 14, 15});
}

void expect_broken(const Engine& e, const Position& p, const std::string& fragment) {
  const std::string msg = e.check(p);
  EXPECT_FALSE(msg.empty()) << "expected: " << fragment;
  EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
}

TEST(EngineCheck, AcceptsValidPositions) {
  const Engine e = make_engine("finkel");
  EXPECT_EQ(e.check(valid_position(e)), "");
}

TEST(EngineCheck, CatchesAWrongPieceCount) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[0][0] += 1;
  e.refresh_masks(p);
  expect_broken(e, p, "pieces");
  Position q = valid_position(e);
  q.count[1][0] -= 1;
  e.refresh_masks(q);
  expect_broken(e, q, "pieces");
}

TEST(EngineCheck, CatchesAPieceBeyondBearOff) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[0][15] -= 1;
  p.count[0][16] += 1;
  expect_broken(e, p, "beyond");
}

TEST(EngineCheck, CatchesTwoOwnPiecesOnASquare) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[0][3] -= 1;
  p.count[0][5] += 1;
  e.refresh_masks(p);
  expect_broken(e, p, "two pieces");
}

TEST(EngineCheck, CatchesLightAndDarkOnOneSquare) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[1][2] -= 1;  // dark c3 -> a2, where light stands
  p.count[1][5] += 1;
  e.refresh_masks(p);
  expect_broken(e, p, "share");
}

TEST(EngineCheck, CatchesStaleMasks) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[0][3] -= 1;  // moved by hand without refresh_masks
  p.count[0][4] += 1;
  expect_broken(e, p, "masks");
  e.refresh_masks(p);
  EXPECT_EQ(e.check(p), "");
}

TEST(EngineCheck, CatchesAStagingPoolWithoutStaging) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.count[0][0] -= 1;
  p.pool[0] = 1;
  e.refresh_masks(p);
  expect_broken(e, p, "staging");
}

TEST(EngineCheck, CatchesInconsistentGameOver) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.phase = Phase::kGameOver;
  expect_broken(e, p, "without a winner");
  Position q = pieces(e, kL, {15, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(q.is_over());
  q.phase = Phase::kAwaitingRoll;
  expect_broken(e, q, "not marked over");
  Position r = pieces(e, kL, {15, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  r.turn = kD;
  expect_broken(e, r, "winner");
}

TEST(EngineCheck, CatchesAThrowOutsideTheDice) {
  const Engine e = make_engine("finkel");
  Position p = valid_position(e);
  p.phase = Phase::kAwaitingMove;
  p.roll = 9;
  expect_broken(e, p, "throw");
}

TEST(EngineCheck, AllowsStacksWhenTheRulesDo) {
  const Engine e = make_engine("boxed");
  Position p = pieces(e, kL, {-1, -1, 0, 0, 5, 5, 5}, {-1, -1, -1, 0, 6, 6, 9});
  EXPECT_EQ(e.check(p), "");
  p.pool[0] += 1;
  expect_broken(e, p, "pieces");
}

TEST(EngineRandom, RandomGamesFinishAndCountThrows) {
  for (const std::string& id : test::preset_ids()) {
    const Engine e = make_engine(id);
    Rng rng(7);
    const std::uint64_t throws = e.random_games(rng, 20);
    EXPECT_GT(throws, 20u * e.pieces()) << id << ": every piece needs at least one throw";
    Rng again(7);
    EXPECT_EQ(e.random_games(again, 20), throws) << id << ": seeded play is reproducible";
  }
}

}  // namespace
}  // namespace ur
