#include "ai/net_train.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "ai/basic_agents.h"
#include "ai/expectimax.h"
#include "engine/random.h"

namespace ur::ai {
namespace {

// A game that has not ended after this many throws is dropped (it never happens in practice:
// every rule set ends with probability 1, and games average a few hundred throws).
constexpr int kMaxThrows = 20000;

std::uint64_t mix(std::uint64_t seed, std::uint64_t g, std::uint64_t salt) {
  std::uint64_t z = seed ^ (g * 0x9e3779b97f4a7c15ULL) ^ salt;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void throw_dice(const Engine& engine, Position& p, Rng& rng) {
  const ChanceList outcomes = engine.chance_outcomes(p);
  double u = rng.uniform();
  int pick = outcomes.items[0].outcome;
  for (const ChanceOutcome& o : outcomes) {
    pick = o.outcome;
    if ((u -= o.probability) < 0) break;
  }
  engine.apply_throw(p, pick);
}

// The positions of one self-play game the network is trained on, with their targets.
struct GameSamples {
  std::vector<SparseInput> inputs;
  std::vector<float> targets;  // for the player to act at each position
};

bool trained_on(const Position& p) {
  return p.phase == Phase::kAwaitingRoll || p.phase == Phase::kAwaitingAward ||
         p.phase == Phase::kAwaitingForfeit;
}

// Plays game `g` of the run with `eval`'s network and computes the λ-returns; `max_throws` as
// in TrainOptions.
// `search` (null: none) values the positions instead of the network (TrainOptions::target_depth).
void self_play(const Engine& engine, NetEvaluator& eval, ExpectimaxAgent* search, int depth,
               const Encoding& encoding, std::uint64_t seed, std::uint64_t g, float lambda,
               int max_throws, GameSamples& out) {
  out.inputs.clear();
  out.targets.clear();
  Rng rng(mix(seed, g, 0x73656c66));
  std::vector<float> light_value;  // each trained position's value for light
  std::vector<Player> mover;
  Position p = engine.initial_position();
  int throws = 0;
  bool capped = false;
  while (!p.is_over()) {
    if (trained_on(p)) {
      out.inputs.emplace_back();
      encoding.encode(p, out.inputs.back());
      const float v =
          search ? static_cast<float>(search->value(engine, p, depth, p.turn).value_or(0.5))
                 : eval.forward(out.inputs.back());
      light_value.push_back(p.turn == Player::kLight ? v : 1.0f - v);
      mover.push_back(p.turn);
    }
    if (p.is_chance()) {
      if (max_throws > 0 && throws >= max_throws) {
        capped = true;
        break;
      }
      if (++throws > kMaxThrows) {
        out.inputs.clear();
        return;
      }
      throw_dice(engine, p, rng);
    } else {
      engine.apply_move(p, net_best_move(engine, eval, p));
    }
  }
  const float z = capped ? static_cast<float>(0.5 + 0.5 * (progress(engine, p, Player::kLight) -
                                                           progress(engine, p, Player::kDark)))
                         : (p.turn == Player::kLight ? 1.0f : 0.0f);
  out.targets.resize(out.inputs.size());
  float ret = z;   // the λ-return of the position after the current one, for light
  float next = z;  // the network's value of that position (the result after the last)
  for (std::size_t t = out.inputs.size(); t-- > 0;) {
    ret = (1.0f - lambda) * next + lambda * ret;
    out.targets[t] = mover[t] == Player::kLight ? ret : 1.0f - ret;
    next = light_value[t];
  }
}

// One round: games [first, first + count) played on `threads` threads with `snapshot`.
void play_round(const Engine& engine, const std::shared_ptr<const Network>& snapshot,
                std::uint64_t seed, std::uint64_t first, int count, const TrainOptions& options,
                int threads, std::vector<GameSamples>& games) {
  games.resize(static_cast<std::size_t>(count));
  auto worker = [&](int t) {
    NetEvaluator eval(engine, snapshot);
    const Encoding encoding(engine);
    std::unique_ptr<ExpectimaxAgent> search;
    if (options.target_depth > 0)
      search = std::make_unique<ExpectimaxAgent>(
          ExpectimaxOptions{.depth = options.target_depth, .tt_bits = 14, .network = snapshot});
    for (int i = t; i < count; i += threads)
      self_play(engine, eval, search.get(), options.target_depth, encoding, seed,
                first + static_cast<std::uint64_t>(i), options.lambda, options.max_throws,
                games[static_cast<std::size_t>(i)]);
  };
  std::vector<std::jthread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
}

// One game of the network (one ply) against greedy; true when the network wins.
bool net_wins(const Engine& engine, NetEvaluator& eval, GreedyAgent& greedy, bool net_light,
              Rng& rng) {
  Position p = engine.initial_position();
  const Player net_player = net_light ? Player::kLight : Player::kDark;
  for (int throws = 0; !p.is_over();) {
    if (p.is_chance()) {
      if (++throws > kMaxThrows) return false;
      throw_dice(engine, p, rng);
    } else if (p.turn == net_player) {
      engine.apply_move(p, net_best_move(engine, eval, p));
    } else {
      engine.apply_move(p, greedy.choose(engine, p, {}));
    }
  }
  return p.turn == net_player;
}

}  // namespace

float step_size(const TrainOptions& options, std::uint64_t games) {
  if (options.decay_games <= 0) return options.learning_rate;
  return options.learning_rate * static_cast<float>(options.decay_games) /
         static_cast<float>(static_cast<double>(options.decay_games) + static_cast<double>(games));
}

double progress(const Engine& engine, const Position& p, Player side) {
  const auto& count = p.count[static_cast<std::size_t>(index_of(side))];
  const int n = engine.path_length();
  int sum = 0;
  for (int i = 1; i <= n + 1; ++i) sum += i * count[static_cast<std::size_t>(i)];
  return static_cast<double>(sum) / (static_cast<double>(n + 1) * std::max(1, engine.pieces()));
}

Move net_best_move(const Engine& engine, NetEvaluator& eval, const Position& pos) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  int best = 0;
  double best_value = -1;
  for (int i = 0; i < moves.size && moves.size > 1; ++i) {
    Position q = pos;
    engine.apply_move(q, moves[i]);
    const double v = eval.win_probability(q, pos.turn);
    if (v > best_value) {
      best_value = v;
      best = i;
    }
  }
  return moves[best];
}

double win_rate_against_greedy(const Engine& engine, std::shared_ptr<const Network> net, int games,
                               std::uint64_t seed, int threads) {
  std::vector<int> wins(static_cast<std::size_t>(threads), 0);
  auto worker = [&](int t) {
    NetEvaluator eval(engine, net);
    for (int g = t; g < games; g += threads) {
      Rng rng(mix(seed, static_cast<std::uint64_t>(g), 0x6576616c));
      GreedyAgent greedy(mix(seed, static_cast<std::uint64_t>(g), 0x67726479), greedy_weights());
      wins[static_cast<std::size_t>(t)] += net_wins(engine, eval, greedy, g % 2 == 0, rng) ? 1 : 0;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
  }
  int total = 0;
  for (int w : wins) total += w;
  return games > 0 ? static_cast<double>(total) / games : 0.0;
}

std::string train(const Engine& engine, Network& net, const TrainOptions& options,
                  const std::function<void(const TrainProgress&)>& progress,
                  const std::stop_token& stop) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const int threads = std::max(1, options.threads);
  const std::uint64_t start_games = net.info.games;
  net.info.lambda = options.lambda;
  net.info.learning_rate = options.learning_rate;
  net.info.decay_games = options.decay_games;
  TrainProgress report;
  report.total = options.games;
  std::vector<GameSamples> games;
  Eigen::VectorXf hidden(net.hidden());
  std::uint64_t next_checkpoint =
      options.checkpoint_every > 0
          ? (net.info.games / options.checkpoint_every + 1) * options.checkpoint_every
          : options.games;
  std::uint64_t next_eval = options.eval_every;
  while (net.info.games < options.games && !stop.stop_requested()) {
    const int count =
        static_cast<int>(std::min<std::uint64_t>(kRoundGames, options.games - net.info.games));
    auto snapshot = std::make_shared<const Network>(net);
    play_round(engine, snapshot, net.info.seed, net.info.games, count, options, threads, games);
    const float rate = step_size(options, net.info.games);
    for (const GameSamples& game : games)
      for (std::size_t i = 0; i < game.inputs.size(); ++i) {
        const float out = forward(net, game.inputs[i], hidden);
        train_step(net, game.inputs[i], hidden, out, game.targets[i], rate);
        ++report.positions;
      }
    net.info.games += static_cast<std::uint64_t>(count);
    report.games = net.info.games;
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (options.eval_every > 0 && net.info.games - start_games >= next_eval) {
      next_eval += options.eval_every;
      report.win_rate = win_rate_against_greedy(engine, std::make_shared<const Network>(net),
                                                options.eval_games, net.info.games, threads);
      report.eval_games = options.eval_games;
    }
    const double played = static_cast<double>(net.info.games - start_games);
    report.games_per_second = played / std::max(report.seconds, 1e-9);
    report.eta_seconds =
        static_cast<double>(options.games - net.info.games) / report.games_per_second;
    const bool out_of_time = options.seconds > 0 && report.seconds >= options.seconds;
    if (options.checkpoint && (net.info.games >= next_checkpoint || out_of_time ||
                               net.info.games >= options.games || stop.stop_requested())) {
      while (options.checkpoint_every > 0 && next_checkpoint <= net.info.games)
        next_checkpoint += options.checkpoint_every;
      if (std::string error = options.checkpoint(net); !error.empty()) return error;
    }
    if (progress) progress(report);
    if (out_of_time) break;
  }
  return "";
}

}  // namespace ur::ai
