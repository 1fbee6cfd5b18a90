#include "analysis/ladder.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

#include "ai/agent.h"
#include "ai/agent_errc.h"
#include "analysis/review.h"

namespace ur::analysis {
namespace {

// The half width of the 95% interval of a ratio of sums (chance lost / decisions) sampled by
// game: 1.96 x the ratio estimator's standard error.
double loss_interval(const std::vector<std::pair<double, int>>& per_game, double ratio) {
  const auto n = static_cast<double>(per_game.size());
  if (per_game.size() < 2) return 0.0;
  double decisions = 0, residuals = 0;
  for (const auto& [lost, d] : per_game) {
    decisions += d;
    residuals += (lost - ratio * d) * (lost - ratio * d);
  }
  if (decisions <= 0) return 0.0;
  const double mean_decisions = decisions / n;
  return 1.96 * std::sqrt(residuals / (n * (n - 1))) / mean_decisions;
}

// A self-play game of `agent`, dice seeded by (seed, game); nullopt if it played illegally.
std::optional<Game> self_play(std::shared_ptr<const Engine> engine, ai::Agent& agent,
                              std::uint64_t seed, int game) {
  Game g(std::move(engine));
  Rng dice(seed * 1000003 + static_cast<std::uint64_t>(game));
  while (!g.is_over()) {
    if (g.awaiting_throw())
      g.roll(dice);
    else if (!g.apply_move(agent.choose(g.engine(), g.position(), {})).ok())
      return std::nullopt;
  }
  return g;
}

}  // namespace

Result<LadderEntry> self_play_accuracy(std::shared_ptr<const Engine> engine, ValueSource& source,
                                       std::string_view agent_spec, int games, std::uint64_t seed,
                                       const solver::TableStore* tables) {
  ai::AgentResult made = ai::make_agent(agent_spec, engine->rules(), seed, tables);
  if (auto* e = std::get_if<Error>(&made)) return *e;
  ai::Agent& agent = *std::get<std::unique_ptr<ai::Agent>>(made);
  LadderEntry out;
  out.agent = agent.name();
  out.games = games;
  std::vector<double> accuracies;
  double lost = 0, luck = 0;
  int throws = 0;
  std::vector<std::pair<double, int>> per_game;  // (chance lost, decisions with a choice)
  for (int i = 0; i < games; ++i) {
    std::optional<Game> g = self_play(engine, agent, seed, i);
    if (!g) return Error{ai::AgentErrc::kBadAgent, "the agent played an illegal move"};
    ReviewResult rr = review(*g, source);
    if (auto* e = std::get_if<Error>(&rr)) return *e;
    const Review& r = std::get<Review>(rr);
    auto& game = per_game.emplace_back(0.0, 0);
    for (const PlayerReview& p : r.players) {
      if (p.accuracy) accuracies.push_back(*p.accuracy);
      game.second += p.decisions;
      luck += p.luck;
      throws += p.throws;
    }
    for (const Step& s : r.steps)
      if (s.kind == StepKind::kDecision && s.legal > 1) game.first += s.lost;
    out.decisions += game.second;
    lost += game.first;
  }
  double sum = 0, sq = 0;
  for (double a : accuracies) sum += a;
  out.accuracy = accuracies.empty() ? 100.0 : sum / static_cast<double>(accuracies.size());
  for (double a : accuracies) sq += (a - out.accuracy) * (a - out.accuracy);
  out.accuracy_sd =
      accuracies.size() < 2 ? 0.0 : std::sqrt(sq / static_cast<double>(accuracies.size() - 1));
  out.mean_loss = out.decisions ? lost / out.decisions : 0.0;
  out.loss_ci95 = loss_interval(per_game, out.mean_loss);
  out.mean_luck = throws ? luck / throws : 0.0;
  return out;
}

Result<EstimateCheck> check_estimate(std::shared_ptr<const Engine> engine, ValueSource& exact,
                                     ValueSource& estimate, std::string_view agent_spec, int games,
                                     std::uint64_t seed, const solver::TableStore* tables) {
  ai::AgentResult made = ai::make_agent(agent_spec, engine->rules(), seed, tables);
  if (auto* e = std::get_if<Error>(&made)) return *e;
  ai::Agent& agent = *std::get<std::unique_ptr<ai::Agent>>(made);
  EstimateCheck out;
  out.games = games;
  double error = 0, accuracy_error = 0;
  int sides = 0;
  for (int i = 0; i < games; ++i) {
    std::optional<Game> g = self_play(engine, agent, seed, i);
    if (!g) return Error{ai::AgentErrc::kBadAgent, "the agent played an illegal move"};
    ReviewResult truth = review(*g, exact);
    const auto start = std::chrono::steady_clock::now();
    ReviewResult guess = review(*g, estimate);
    out.estimate_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (auto* e = std::get_if<Error>(&truth)) return *e;
    if (auto* e = std::get_if<Error>(&guess)) return *e;
    const Review& t = std::get<Review>(truth);
    const Review& s = std::get<Review>(guess);
    for (std::size_t k = 0; k < t.steps.size(); ++k) {
      const double d = std::abs(t.steps[k].light_after - s.steps[k].light_after);
      error += d;
      out.max_error = std::max(out.max_error, d);
      ++out.steps;
      if (t.steps[k].kind != StepKind::kDecision || t.steps[k].legal < 2) continue;
      ++out.decisions;
      ++out.confusion[static_cast<int>(t.steps[k].grade)][static_cast<int>(s.steps[k].grade)];
      out.loss_exact += t.steps[k].lost;
      out.loss_estimate += s.steps[k].lost;
    }
    for (int side = 0; side < 2; ++side) {
      if (!t.players[side].accuracy || !s.players[side].accuracy) continue;
      accuracy_error += std::abs(*t.players[side].accuracy - *s.players[side].accuracy);
      ++sides;
    }
  }
  out.mean_error = out.steps ? error / out.steps : 0.0;
  out.accuracy_error = sides ? accuracy_error / sides : 0.0;
  if (out.decisions) out.loss_exact /= out.decisions, out.loss_estimate /= out.decisions;
  return out;
}

}  // namespace ur::analysis
