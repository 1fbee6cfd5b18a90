// Elo ratings of the platform: everyone starts at 1200; the expected score of A against B is
// 1 / (1 + 10^((Rb - Ra) / 400)); after a game a rating moves by K * (score - expected).
// K is 40 while a player is provisional (fewer than 20 rated games), then 20: a newcomer's rating
// finds its level within a few dozen games and settles after. Each side uses its own K, so the
// exchange is not zero-sum while one of them is provisional (as in FIDE's system).
#pragma once

namespace ur::server {

inline constexpr double kInitialRating = 1200;
inline constexpr int kProvisionalGames = 20;
inline constexpr double kProvisionalK = 40;
inline constexpr double kEstablishedK = 20;

double elo_expected(double rating, double opponent);
double elo_k(int games_played);

struct EloResult {
  double winner_after;
  double loser_after;
};

// New ratings after a decisive game (Ur has no draws). `*_games` = rated games played before.
EloResult elo_update(double winner, int winner_games, double loser, int loser_games);

}  // namespace ur::server
