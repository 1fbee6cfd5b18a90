#include "ai/eval_fit.h"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <span>
#include <thread>

#include "ai/evaluation.h"
#include "ai/transposition.h"
#include "engine/engine.h"
#include "engine/random.h"

namespace ur::ai {
namespace {

constexpr int kMaxThrows = 20'000;  // a game this long is dropped (it never happens in boxed)
constexpr int kNewtonSteps = 30;

// Rows of one game: `k` features then the label, as floats.
struct GameRows {
  std::vector<float> data;
};

// Greedy (evaluation.h, basic_agents.h) for both sides, with its own tie-breaking generator.
Move greedy_move(const Engine& engine, const Evaluator& eval, const Position& pos, Rng& rng) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  if (moves.size == 1) return moves[0];
  std::array<int, MoveList::kCapacity> best{};
  int n_best = 0;
  double best_score = 0;
  for (int i = 0; i < moves.size; ++i) {
    Position q = pos;
    engine.apply_move(q, moves[i]);
    const double s =
        q.is_over() ? (q.turn == pos.turn ? 1e9 : -1e9) : eval.score_difference(q, pos.turn);
    if (n_best == 0 || s > best_score + 1e-12) {
      best_score = s;
      n_best = 0;
      best[n_best++] = i;
    } else if (s > best_score - 1e-12) {
      best[n_best++] = i;
    }
  }
  return moves[best[n_best == 1 ? 0 : static_cast<int>(rng.below(static_cast<std::uint32_t>(n_best)))]];
}

double sigmoid(double z);

// One game of greedy self-play; the rows of a sample of its positions. The label of a row is
// the lambda-return for the owner of the chain under way: the outcome when lambda is 1 or
// there is no model yet, else (1 - lambda) x the model's value of the next kept-kind position
// + lambda x the return from there.
GameRows play_game(const Engine& engine, const Evaluator& eval, std::span<const double> model,
                   double lambda, double sample, std::uint64_t seed) {
  const int k = eval.feature_count();
  const std::size_t stride = static_cast<std::size_t>(k + 1);
  Rng dice(seed), ties(mix64(seed + 1)), sampler(mix64(seed + 2));
  const bool coin = engine.rules().start == StartPolicy::kCoinCall;
  std::vector<double> x(static_cast<std::size_t>(k));
  std::vector<float> rows;   // every position of the kinds the evaluation sees
  std::vector<Player> owners;
  std::vector<double> light_value;  // the model's value for light, per row
  Position p = engine.initial_position();
  int throws = 0;
  while (!p.is_over()) {
    const bool leaf_kind = p.phase == Phase::kAwaitingRoll ||
                           p.phase == Phase::kAwaitingAward ||
                           p.phase == Phase::kAwaitingForfeit;
    if (leaf_kind) {
      eval.features(p, x);
      for (double v : x) rows.push_back(static_cast<float>(v));
      rows.push_back(0);
      const Player owner = Evaluator::chain_owner(p);
      owners.push_back(owner);
      double z = 0;
      for (std::size_t i = 0; i < model.size(); ++i) z += model[i] * x[i];
      const double v = sigmoid(z);
      light_value.push_back(owner == Player::kLight ? v : 1 - v);
    }
    if (p.is_chance()) {
      if (++throws > kMaxThrows) return {};
      const int t = p.phase == Phase::kStart && coin ? static_cast<int>(dice.below(2))
                                                     : engine.sample_throw(dice);
      engine.apply_throw(p, t);
    } else {
      engine.apply_move(p, greedy_move(engine, eval, p, ties));
    }
  }
  const bool bootstrap = !model.empty() && lambda < 1;
  double ret = p.turn == Player::kLight ? 1.0 : 0.0;  // the return for light
  std::vector<float> kept;
  for (std::size_t r = owners.size(); r-- > 0;) {
    if (bootstrap && r + 1 < owners.size())
      ret = (1 - lambda) * light_value[r + 1] + lambda * ret;
    rows[r * stride + static_cast<std::size_t>(k)] =
        static_cast<float>(owners[r] == Player::kLight ? ret : 1 - ret);
  }
  for (std::size_t r = 0; r < owners.size(); ++r)
    if (sampler.uniform() < sample)
      kept.insert(kept.end(), rows.begin() + static_cast<std::ptrdiff_t>(r * stride),
                  rows.begin() + static_cast<std::ptrdiff_t>((r + 1) * stride));
  return {std::move(kept)};
}

double sigmoid(double z) {
  return 1.0 / (1.0 + std::exp(-z));
}

// Cross-entropy against a label in [0, 1] (a soft label from bootstrapping).
double log_loss(double prob, float y) {
  const double q = std::clamp(prob, 1e-12, 1 - 1e-12);
  return -(y * std::log(q) + (1 - y) * std::log(1 - q));
}

// Solves a x = b for a symmetric positive definite a (Cholesky); a is overwritten.
std::vector<double> solve_spd(std::vector<double> a, std::vector<double> b, int n) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(std::max(d, 1e-12));
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return b;
}

// Ridge-penalised logistic regression by Newton's method; `free_index` is not penalised.
std::vector<double> fit_logistic(const std::vector<float>& rows, int k, double ridge,
                                 int free_index) {
  const std::size_t stride = static_cast<std::size_t>(k + 1);
  const std::size_t n = rows.size() / stride;
  std::vector<double> w(static_cast<std::size_t>(k), 0.0);
  std::vector<double> x(static_cast<std::size_t>(k));
  for (int step = 0; step < kNewtonSteps; ++step) {
    std::vector<double> h(static_cast<std::size_t>(k * k), 0.0), g(static_cast<std::size_t>(k), 0.0);
    for (std::size_t r = 0; r < n; ++r) {
      const float* row = rows.data() + r * stride;
      double z = 0;
      for (int i = 0; i < k; ++i) z += w[i] * (x[i] = row[i]);
      const double pr = sigmoid(z);
      const double err = row[k] - pr, wt = pr * (1 - pr);
      for (int i = 0; i < k; ++i) {
        if (x[i] == 0) continue;
        g[i] += err * x[i];
        const double wx = wt * x[i];
        for (int j = 0; j <= i; ++j) h[i * k + j] += wx * x[j];
      }
    }
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < i; ++j) h[j * k + i] = h[i * k + j];
      if (i != free_index) {
        h[i * k + i] += ridge;
        g[i] -= ridge * w[i];
      }
    }
    const std::vector<double> delta = solve_spd(std::move(h), std::move(g), k);
    double change = 0;
    for (int i = 0; i < k; ++i) {
      w[i] += delta[i];
      change = std::max(change, std::abs(delta[i]));
    }
    if (change < 1e-9) break;
  }
  return w;
}

double mean_loss(const std::vector<float>& rows, int k, const std::vector<double>* w,
                 double constant) {
  const std::size_t stride = static_cast<std::size_t>(k + 1);
  const std::size_t n = rows.size() / stride;
  double sum = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const float* row = rows.data() + r * stride;
    double prob = constant;
    if (w != nullptr) {
      double z = 0;
      for (int i = 0; i < k; ++i) z += (*w)[i] * row[i];
      prob = sigmoid(z);
    }
    sum += log_loss(prob, row[k]);
  }
  return n ? sum / static_cast<double>(n) : 0.0;
}

}  // namespace

std::variant<std::vector<FitRound>, std::string> fit_evaluation(const FitConfig& config,
                                                                const FitProgress& progress) {
  const RuleSetResult parsed = parse_rule_set(config.rules);
  if (const auto* e = std::get_if<RuleSetError>(&parsed)) return e->message;
  const Engine engine(std::get<RuleSet>(parsed));
  EvalWeights hand = greedy_weights();
  hand.fitted = false;
  const Evaluator probe(engine, hand);
  const int k = probe.feature_count();
  if (k == 0) return fmt::format("{}: only throw-chain rule sets have a fitted evaluation", config.rules);
  if (config.games < 10 || config.rounds < 1 || config.threads < 1 || !(config.sample > 0))
    return std::string("fit-eval: games >= 10, rounds >= 1, threads >= 1 and sample > 0");

  std::vector<FitRound> results;
  std::vector<double> model;  // empty in round 0: the hand weights
  for (int round = 0; round < config.rounds; ++round) {
    const Evaluator eval(engine, hand, model);
    std::vector<GameRows> games(static_cast<std::size_t>(config.games));
    std::atomic<int> next{0};
    const std::uint64_t round_seed = mix64(config.seed ^ (0x9e37ULL * (round + 1)));
    auto worker = [&] {
      for (int i; (i = next.fetch_add(1)) < config.games;)
        games[static_cast<std::size_t>(i)] =
            play_game(engine, eval, model, config.lambda, config.sample,
                      mix64(round_seed + static_cast<std::uint64_t>(i)));
    };
    {
      std::vector<std::jthread> pool;
      for (int t = 0; t < config.threads; ++t) pool.emplace_back(worker);
    }
    std::vector<float> train, test;
    for (int i = 0; i < config.games; ++i) {
      std::vector<float>& dst = i % 10 == 0 ? test : train;
      const std::vector<float>& src = games[static_cast<std::size_t>(i)].data;
      dst.insert(dst.end(), src.begin(), src.end());
    }
    games.clear();
    FitRound r;
    r.weights = fit_logistic(train, k, config.ridge, 2 * probe.side_features());
    r.rows = train.size() / static_cast<std::size_t>(k + 1);
    r.held_out = test.size() / static_cast<std::size_t>(k + 1);
    r.train_loss = mean_loss(train, k, &r.weights, 0);
    double wins = 0;
    for (std::size_t i = static_cast<std::size_t>(k); i < test.size(); i += static_cast<std::size_t>(k + 1))
      wins += test[i];
    r.held_out_base = mean_loss(test, k, nullptr, r.held_out ? wins / static_cast<double>(r.held_out) : 0.5);
    r.held_out_loss = mean_loss(test, k, &r.weights, 0);
    model = r.weights;
    if (progress) progress(round, r);
    results.push_back(std::move(r));
  }
  return results;
}

std::string format_weights(const std::vector<double>& weights) {
  std::string out;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    out += i % 8 == 0 ? "    " : " ";
    out += fmt::format("{:.6g},", weights[i]);
    if (i % 8 == 7 || i + 1 == weights.size()) out += '\n';
  }
  return out;
}

}  // namespace ur::ai
