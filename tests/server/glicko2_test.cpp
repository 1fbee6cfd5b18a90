// Glicko-2 (server/storage/glicko2.h) against Glickman's published example ("Example of the
// Glicko-2 system"): a 1500/200/0.06 player beats a 1400/30 player and loses to 1550/100 and
// 1700/300 with tau 0.5, and becomes 1464.06 / 151.52 / 0.05999. Then the puzzle attempt:
// both sides move, in opposite directions, within lichess's bounds.
#include <gtest/gtest.h>

#include "server/storage/glicko2.h"

namespace ur::server {
namespace {

TEST(Glicko2Test, GlickmansPublishedExample) {
  const Glicko player{1500, 200, 0.06};
  const GlickoGame games[] = {
      {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const Glicko after = glicko2_update(player, games, 0.5);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2Test, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Glicko player{1500, 200, 0.06};
  const Glicko after = glicko2_update(player, {}, 0.5);
  EXPECT_EQ(after.rating, 1500);
  EXPECT_NEAR(after.deviation, 173.7178 * std::sqrt(std::pow(200 / 173.7178, 2) + 0.06 * 0.06),
              1e-9);
}

TEST(Glicko2Test, AnAttemptMovesSolverAndPuzzleInOppositeDirections) {
  const Glicko puzzle = puzzle_start_rating(0.5);
  EXPECT_EQ(puzzle.rating, 1500);
  const AttemptRatings right = glicko2_attempt(kNewSolver, puzzle, true);
  EXPECT_GT(right.solver.rating, kNewSolver.rating);
  EXPECT_LT(right.puzzle.rating, puzzle.rating);
  EXPECT_LT(right.solver.deviation, kNewSolver.deviation);
  const AttemptRatings wrong = glicko2_attempt(kNewSolver, puzzle, false);
  EXPECT_LT(wrong.solver.rating, kNewSolver.rating);
  EXPECT_GT(wrong.puzzle.rating, puzzle.rating);
}

TEST(Glicko2Test, RatingsStayWithinTheirBounds) {
  Glicko solver{kMaxRating, kMinDeviation, kMaxVolatility};
  const Glicko easy{kMinRating, kMinDeviation, 0.06};
  for (int i = 0; i < 50; ++i) solver = glicko2_attempt(solver, easy, true).solver;
  EXPECT_LE(solver.rating, kMaxRating);
  EXPECT_GE(solver.deviation, kMinDeviation);
  EXPECT_LE(solver.volatility, kMaxVolatility);
}

}  // namespace
}  // namespace ur::server
