// Glicko-2 ratings of puzzle solvers and puzzles (docs/puzzles.md, "Ratings").
//
// glicko2_update() is Glickman's algorithm as published in "Example of the Glicko-2 system"
// (steps 1-8, the Illinois iteration for the volatility), one rating period with any number of
// games. Puzzles rate as lichess rates them: each attempt is a game between the solver and the
// puzzle, one rating period of its own, so both ratings move at once; glicko2_attempt() applies
// that with the constants below and keeps every component within its bounds.
#pragma once

#include <span>

namespace ur::server {

struct Glicko {
  double rating = 1500;
  double deviation = 350;
  double volatility = 0.06;
};

struct GlickoGame {
  Glicko opponent;
  double score = 0;  // 1 win, 0 loss (0.5 a draw)
};

// One rating period of `player` with `games` (none: only the deviation grows), system constant
// `tau`, the volatility iteration stopped at `epsilon`.
Glicko glicko2_update(const Glicko& player, std::span<const GlickoGame> games, double tau,
                      double epsilon = 1e-6);

// The constants of puzzle ratings, lichess's (its Glicko defaults and bounds).
inline constexpr double kPuzzleTau = 0.75;
inline constexpr Glicko kNewSolver{1500, 500, 0.09};
inline constexpr double kMinDeviation = 45;
inline constexpr double kMaxDeviation = 500;
inline constexpr double kMaxVolatility = 0.1;
inline constexpr double kMinRating = 400;
inline constexpr double kMaxRating = 4000;

// A new puzzle's rating from its difficulty (0..1, docs/puzzles.md): 1000 + 1000 * difficulty,
// deviation 500, volatility 0.09.
Glicko puzzle_start_rating(double difficulty);

struct AttemptRatings {
  Glicko solver;
  Glicko puzzle;
};

// Both ratings after one attempt: the solver scores 1 when the attempt was right, else 0, and
// the puzzle the opposite; each is updated against the other's rating before the attempt.
AttemptRatings glicko2_attempt(const Glicko& solver, const Glicko& puzzle, bool solved);

}  // namespace ur::server
