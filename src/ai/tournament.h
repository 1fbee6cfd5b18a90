// Tournaments: agent A against agent B over many games, on several threads, reproducibly.
//
// Game i is played from its own seed, derived from (seed, i): the dice, and each agent's
// random choices, come from generators seeded with it, and A plays light in even games and
// dark in odd ones (so A and B alternate who starts in the presets where light starts).
// Results are stored by game index and summed in index order, so the outcome depends only on
// the seed and the game count, never on the number of threads or their timing. Games are
// played through ur::Game, the checked layer: an illegal decision stops the tournament with
// an error that names the game and the move. An external engine (engine:PATH, a program) that
// fails to start, crashes, hangs or answers an illegal move forfeits that game instead: it
// counts as a loss for its side, the reason is kept, and the tournament goes on.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "rules/rule_set.h"

namespace ur::solver {
class TableStore;
}

namespace ur::ai {

struct TournamentConfig {
  RuleSet rules;
  std::string agent_a;
  std::string agent_b;
  int games = 1000;
  // Plays games [first, games) of the seed's sequence only: a long run split into parts (each
  // its own process, on another day) adds up game for game to the whole run.
  int first = 0;
  int threads = 1;
  std::uint64_t seed = 1;
  int max_throws = 100'000;  // a game longer than this is abandoned and counts half to each
  const solver::TableStore* tables = nullptr;  // the perfect player's tables (null: none)
  // k > 0: count the positions an endgame table of k would hold (past the start, each side at
  // most k pieces left to bear off; docs/solver.md) in GameSummary's endgame fields.
  int endgame = 0;
};

// Where a game meets the endgame table of TournamentConfig::endgame.
struct EndgameCount {
  std::int32_t choices = 0;         // decisions with more than one legal move
  std::int32_t choices_inside = 0;  // of those, inside the endgame table
  std::int32_t first_inside = -1;   // the decision (0-based, all decisions) first inside; -1 never
  std::int32_t decisions = 0;       // every decision, forced ones too
};

struct GameSummary {
  std::int8_t a_won = 0;  // 1: A won, 0: B won, -1: abandoned
  bool a_light = true;
  std::int32_t throws = 0;
  std::string forfeit;   // why the loser forfeited (an external engine failed), else ""
  EndgameCount endgame;  // TournamentConfig::endgame > 0 only
};

struct TournamentResult {
  int games = 0;
  int a_wins = 0;
  int b_wins = 0;
  int abandoned = 0;
  int forfeits = 0;  // games lost by a failing external engine (counted in the wins above)
  int a_wins_as_light = 0;
  int a_games_as_light = 0;
  std::uint64_t throws = 0;
  double seconds = 0;
  std::vector<GameSummary> per_game;

  // A's score (wins + half the abandoned games) over games, and its 95% Wilson interval.
  double score() const;
  double ci_low() const;
  double ci_high() const;
  // The Elo difference A - B implied by a score (infinite at 0 or 1).
  static double elo(double score);
  double throws_per_game() const { return games ? static_cast<double>(throws) / games : 0; }
};

// Called about five times a second from the calling thread: games done and the running score.
using TournamentProgress = std::function<void(int done, int a_wins, int b_wins, double seconds)>;

// Runs the tournament; an error message for a bad agent spec or an illegal decision.
Result<TournamentResult> run_tournament(const TournamentConfig& config,
                                        const TournamentProgress& progress = {});

// The seed of game `index` of a tournament seeded with `seed`.
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace ur::ai
