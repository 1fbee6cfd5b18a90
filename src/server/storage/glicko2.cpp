#include "server/storage/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ur::server {
namespace {

constexpr double kScale = 173.7178;  // Glicko-2's scale: r = 173.7178 mu + 1500

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility by the Illinois algorithm.
double new_volatility(double phi, double sigma, double delta, double v, double tau,
                      double epsilon) {
  const double a = std::log(sigma * sigma);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B = 0;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
  }
  double fA = f(A);
  double fB = f(B);
  while (std::abs(B - A) > epsilon) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

Glicko clamped(Glicko r) {
  r.rating = std::clamp(r.rating, kMinRating, kMaxRating);
  r.deviation = std::clamp(r.deviation, kMinDeviation, kMaxDeviation);
  r.volatility = std::min(r.volatility, kMaxVolatility);
  return r;
}

}  // namespace

Glicko glicko2_update(const Glicko& player, std::span<const GlickoGame> games, double tau,
                      double epsilon) {
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.deviation / kScale;
  if (games.empty()) {
    const double grown = std::sqrt(phi * phi + player.volatility * player.volatility);
    return {player.rating, grown * kScale, player.volatility};
  }
  double inv_v = 0;
  double sum = 0;  // sum of g(phi_j) (s_j - E_j)
  for (const GlickoGame& game : games) {
    const double mu_j = (game.opponent.rating - 1500) / kScale;
    const double phi_j = game.opponent.deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    inv_v += g(phi_j) * g(phi_j) * e * (1 - e);
    sum += g(phi_j) * (game.score - e);
  }
  const double v = 1.0 / inv_v;
  const double delta = v * sum;
  const double sigma = new_volatility(phi, player.volatility, delta, v, tau, epsilon);
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;
  return {kScale * mu_new + 1500, kScale * phi_new, sigma};
}

Glicko puzzle_start_rating(double difficulty) {
  return {1000 + 1000 * std::clamp(difficulty, 0.0, 1.0), kNewSolver.deviation,
          kNewSolver.volatility};
}

AttemptRatings glicko2_attempt(const Glicko& solver, const Glicko& puzzle, bool solved) {
  const GlickoGame for_solver[] = {{puzzle, solved ? 1.0 : 0.0}};
  const GlickoGame for_puzzle[] = {{solver, solved ? 0.0 : 1.0}};
  return {clamped(glicko2_update(solver, for_solver, kPuzzleTau)),
          clamped(glicko2_update(puzzle, for_puzzle, kPuzzleTau))};
}

}  // namespace ur::server
