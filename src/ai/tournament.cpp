#include "ai/tournament.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

#include "ai/agent.h"
#include "ai/agent_errc.h"
#include "ai/external_agent.h"
#include "ai/transposition.h"
#include "engine/game.h"
#include "engine/notation.h"

namespace ur::ai {
namespace {

constexpr double kZ95 = 1.959963984540054;

struct Wilson {
  double low, high;
};

Wilson wilson(double p, int n) {
  if (n == 0) return {0, 1};
  const double z2 = kZ95 * kZ95;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// Ends game `index` as a forfeit by the side of `agent`'s seat (A when `a_lost`).
void forfeit(GameSummary& out, int index, bool a_lost, const std::string& who,
             const std::string& why) {
  out.a_won = a_lost ? 0 : 1;
  out.forfeit = fmt::format("game {}: {} ({}) forfeits: {}", index, a_lost ? "A" : "B", who, why);
}

// Whether q is a position the endgame table of k holds: past the start (the coin or the
// roll-off), each side with at most k pieces left to bear off.
bool inside_endgame(const Engine& engine, const Position& q, int k) {
  if (q.phase == Phase::kStart || q.phase == Phase::kRollOff) return false;
  const int off = engine.path_length() + 1, pieces = engine.rules().pieces;
  return pieces - q.count[0][off] <= k && pieces - q.count[1][off] <= k;
}

void count_endgame(const Engine& engine, const Position& q, int k, EndgameCount& c) {
  MoveList moves;
  engine.legal_moves(q, moves);
  const bool inside = inside_endgame(engine, q, k);
  if (inside && c.first_inside < 0) c.first_inside = c.decisions;
  ++c.decisions;
  if (moves.size < 2) return;
  ++c.choices;
  c.choices_inside += inside;
}

// Plays one game; "" or an error message.
std::string play_one(const std::shared_ptr<const Engine>& engine, const TournamentConfig& config,
                     int index, GameSummary& out) {
  const std::uint64_t seed = game_seed(config.seed, static_cast<std::uint64_t>(index));
  Rng dice(seed);
  out.a_light = index % 2 == 0;
  AgentResult a = make_agent(config.agent_a, config.rules, mix64(seed + 1), config.tables);
  AgentResult b = make_agent(config.agent_b, config.rules, mix64(seed + 2), config.tables);
  // Both specs were made once before the games: only a program can fail to start now.
  for (auto [made, spec, is_a] :
       {std::tuple{&a, &config.agent_a, true}, std::tuple{&b, &config.agent_b, false}})
    if (auto* e = std::get_if<Error>(made)) {
      if (!is_external_spec(*spec)) return e->message;
      forfeit(out, index, is_a, *spec, e->message);
      return "";
    }
  Agent* light = (out.a_light ? std::get<0>(a) : std::get<0>(b)).get();
  Agent* dark = (out.a_light ? std::get<0>(b) : std::get<0>(a)).get();
  Game game(engine);
  const std::stop_token never;
  int throws = 0;
  while (!game.is_over()) {
    if (game.awaiting_throw()) {
      if (++throws > config.max_throws) {
        out.a_won = -1;
        out.throws = throws - 1;
        return "";
      }
      game.roll(dice);
      continue;
    }
    Agent* agent = game.to_act() == Player::kLight ? light : dark;
    if (config.endgame > 0) count_endgame(*engine, game.position(), config.endgame, out.endgame);
    const Move m = agent->choose(*engine, game.position(), never);
    if (std::string why = agent->failure(); !why.empty()) {
      forfeit(out, index, (game.to_act() == Player::kLight) == out.a_light, agent->name(), why);
      out.throws = throws;
      return "";
    }
    if (Status s = game.apply_move(m); !s.ok())
      return fmt::format("game {}: {} made an illegal decision in {}: {}", index, agent->name(),
                         to_position_string(*engine, game.position()), s.error);
  }
  const bool light_won = *game.winner() == Player::kLight;
  out.a_won = light_won == out.a_light ? 1 : 0;
  out.throws = throws;
  return "";
}

}  // namespace

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
  return mix64(mix64(seed) ^ (index * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL));
}

double TournamentResult::score() const {
  return games ? (a_wins + 0.5 * abandoned) / games : 0.5;
}
double TournamentResult::ci_low() const {
  return wilson(score(), games).low;
}
double TournamentResult::ci_high() const {
  return wilson(score(), games).high;
}

double TournamentResult::elo(double s) {
  if (s <= 0) return -std::numeric_limits<double>::infinity();
  if (s >= 1) return std::numeric_limits<double>::infinity();
  return 400.0 * std::log10(s / (1 - s));
}

Result<TournamentResult> run_tournament(const TournamentConfig& config,
                                        const TournamentProgress& progress) {
  if (config.games < 1) return Error{Errc::kBadRequest, "the number of games must be at least 1"};
  if (config.first < 0 || config.first >= config.games)
    return Error{Errc::kBadRequest, "the first game must be at least 0 and below the games"};
  const int count = config.games - config.first;
  if (config.threads < 1)
    return Error{Errc::kBadRequest, "the number of threads must be at least 1"};
  for (const std::string* spec : {&config.agent_a, &config.agent_b})
    if (auto r = make_agent(*spec, config.rules, 0, config.tables);
        std::holds_alternative<Error>(r))
      return std::get<Error>(r);

  const auto engine = std::make_shared<const Engine>(config.rules);
  TournamentResult result;
  result.per_game.resize(static_cast<std::size_t>(count));
  std::atomic<int> next{0}, done{0}, a_wins{0}, b_wins{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (;;) {
      const int i = next.fetch_add(1);
      if (i >= count || failed.load()) return;
      GameSummary& g = result.per_game[static_cast<std::size_t>(i)];
      std::string e = play_one(engine, config, config.first + i, g);
      if (!e.empty()) {
        std::lock_guard lock(error_mutex);
        if (error.empty()) error = std::move(e);
        failed = true;
        return;
      }
      if (g.a_won == 1) ++a_wins;
      if (g.a_won == 0) ++b_wins;
      ++done;
    }
  };
  const int threads = std::min(config.threads, count);
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while (done.load() < count && !failed.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(progress ? 200 : 20));
      if (progress) progress(done.load(), a_wins.load(), b_wins.load(), elapsed());
    }
  }
  if (failed) return Error{AgentErrc::kBadAgent, error};
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Sum in game order: the totals cannot depend on the threads.
  result.games = count;
  for (const GameSummary& g : result.per_game) {
    result.a_wins += g.a_won == 1;
    result.b_wins += g.a_won == 0;
    result.abandoned += g.a_won == -1;
    result.forfeits += !g.forfeit.empty();
    result.a_games_as_light += g.a_light;
    result.a_wins_as_light += g.a_light && g.a_won == 1;
    result.throws += static_cast<std::uint64_t>(g.throws);
  }
  return result;
}

}  // namespace ur::ai
