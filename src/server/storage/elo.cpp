#include "server/storage/elo.h"

#include <cmath>

namespace ur::server {

double elo_expected(double rating, double opponent) {
  return 1.0 / (1.0 + std::pow(10.0, (opponent - rating) / 400.0));
}

double elo_k(int games_played) {
  return games_played < kProvisionalGames ? kProvisionalK : kEstablishedK;
}

EloResult elo_update(double winner, int winner_games, double loser, int loser_games) {
  double ew = elo_expected(winner, loser);
  return {winner + elo_k(winner_games) * (1.0 - ew),
          loser + elo_k(loser_games) * (0.0 - (1.0 - ew))};
}

}  // namespace ur::server
