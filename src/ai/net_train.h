// Self-play training of a value network (network.h) by TD(λ), for `ur train`.
//
// No solved table is read: the network learns from the outcomes of games it plays against
// itself. Training runs in rounds of kRoundGames games. Each round's games are played by the
// network as it stood when the round began (one ply: the move whose result it values most),
// spread over the threads; then, in game order, every position of a game that awaits a throw
// (or the boxed game's award or forfeit response) is moved towards its λ-return: the
// exponentially weighted mix, in λ, of the network's values of the positions that followed it
// and of the game's result. Game g of a run plays with dice seeded by (seed, g), so the same seed
// and game count give the same network for any thread count, and a run resumed from a
// checkpoint (which ends on a round) reaches the same network as one never interrupted.
//
// While it runs, every `eval_every` games the network (one ply) plays `eval_games` games
// against the hand-tuned greedy agent, half as each colour: the running win rate of the progress
// report. Those games do not change the network.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>

#include "ai/network.h"

namespace ur::ai {

inline constexpr int kRoundGames = 16;

struct TrainOptions {
  std::uint64_t games = 20000;  // the total to reach (a resumed network counts its own)
  double seconds = 0;           // 0: no time limit; else stop after the round that passes it
  int threads = 2;
  float lambda = 0.7f;
  float learning_rate = 0.3f;
  // The step size falls as learning_rate x D / (D + games played) with D = decay_games
  // (0: constant), so that late games refine rather than shake the weights.
  float decay_games = 4000;
  // 0: a self-play game runs to its end (one still running after 20,000 throws is dropped).
  // Else a game still running after this many throws stops there and is scored by progress:
  // light's result is 0.5 + (light's progress - dark's) / 2, a side's progress being the mean
  // of its pieces' path indexes over the path length plus one (1 when all are borne off). On
  // rule sets whose self-play games grow very long (the Murray paths) this bounds a game's cost
  // and rewards racing over waiting. Not kept in the network file: a resumed run needs it again.
  int max_throws = 0;
  // 0: a position's bootstrap value (what the λ-return mixes in) is the network's own. Else it
  // is an expectimax search of this depth over the round's network: the value one or more
  // throws further on, a less noisy target, at the cost of a search per position. Not kept in
  // the network file either.
  int target_depth = 0;
  std::uint64_t eval_every = 2000;  // 0: never
  int eval_games = 400;
  std::uint64_t checkpoint_every = 0;  // 0: only at the end
  // Called with the network at each checkpoint (every checkpoint_every games, and at the end).
  std::function<std::string(const Network&)> checkpoint;
};

struct TrainProgress {
  std::uint64_t games = 0, total = 0;
  double seconds = 0;
  double games_per_second = 0;
  double eta_seconds = 0;
  // The last evaluation against greedy: its win rate and games (0 games: none yet).
  double win_rate = 0;
  int eval_games = 0;
  std::uint64_t positions = 0;  // training positions so far in this run
};

// Trains `net` (made for `engine`'s rule set; net.info has the seed, and the games already
// played when resuming) until options.games or the time limit. Returns "" or why it stopped
// early (a failed checkpoint). `progress` (may be empty) is called after every round.
std::string train(const Engine& engine, Network& net, const TrainOptions& options,
                  const std::function<void(const TrainProgress&)>& progress,
                  const std::stop_token& stop = {});

// The step size of the round that starts at game `games`.
float step_size(const TrainOptions& options, std::uint64_t games);

// A side's progress in [0, 1]: the mean path index of its pieces over the path length plus one.
double progress(const Engine& engine, const Position& p, Player side);

// The move the network values most after it (one ply); exact for moves that end the game.
Move net_best_move(const Engine& engine, NetEvaluator& eval, const Position& pos);

// The win rate of the network (one ply) against greedy over `games` games (half as each
// colour), seeded by `seed`, on `threads` threads.
double win_rate_against_greedy(const Engine& engine, std::shared_ptr<const Network> net, int games,
                               std::uint64_t seed, int threads);

}  // namespace ur::ai
