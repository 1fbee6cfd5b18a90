// `ur tournament`: agent A against agent B over many games (src/ai/tournament.h).
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ai/agent.h"
#include "ai/external_agent.h"
#include "ai/tournament.h"
#include "cli/commands.h"

namespace ur::cli {
namespace {

std::string elo_text(double e) {
  if (std::isinf(e)) return e > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.0f}", e);
}

nlohmann::json elo_json(double e) {
  if (std::isinf(e)) return nullptr;
  return e;
}

void print_progress(int done, int total, int a, int b, double seconds) {
  constexpr int kWidth = 30;
  const int filled = total ? static_cast<int>(static_cast<long long>(kWidth) * done / total) : 0;
  const double rate = seconds > 0 ? done / seconds : 0;
  const double score = done ? (a + 0.5 * (done - a - b)) / done : 0.5;
  std::cerr << fmt::format("\r[{}{}] {}/{} games  {:.1f} games/s  A {} - {} B ({:.1f}%)  ",
                           std::string(filled, '#'), std::string(kWidth - filled, '.'), done, total,
                           rate, a, b, 100 * score)
            << std::flush;
}

// The reasons of the forfeited games, in game order (at most `limit`).
constexpr std::size_t kShownForfeits = 5;
std::vector<std::string> forfeit_reasons(const ai::TournamentResult& r,
                                         std::size_t limit = SIZE_MAX) {
  std::vector<std::string> out;
  for (const ai::GameSummary& g : r.per_game)
    if (!g.forfeit.empty() && out.size() < limit) out.push_back(g.forfeit);
  return out;
}

// Where the games met the endgame table of --endgame K: the share of the decisions with a choice
// inside it, and the decision (and the share of the game's decisions) at which a game enters.
struct EndgameSummary {
  long long choices = 0, inside = 0;
  int entered = 0;                           // games that reach the table
  double first_median = 0, first_share = 0;  // medians over the games that reach it
  double share() const { return choices ? static_cast<double>(inside) / choices : 0; }
};

EndgameSummary summarize_endgame(const ai::TournamentResult& r) {
  EndgameSummary s;
  std::vector<double> first, share;
  for (const ai::GameSummary& g : r.per_game) {
    s.choices += g.endgame.choices;
    s.inside += g.endgame.choices_inside;
    if (g.endgame.first_inside < 0) continue;
    ++s.entered;
    first.push_back(g.endgame.first_inside);
    share.push_back(static_cast<double>(g.endgame.first_inside) / g.endgame.decisions);
  }
  s.first_median = percentile(first, 0.5);
  s.first_share = percentile(share, 0.5);
  return s;
}

nlohmann::json endgame_json(int k, const ai::TournamentResult& r) {
  const EndgameSummary s = summarize_endgame(r);
  return {{"k", k},
          {"choices", s.choices},
          {"choices_inside", s.inside},
          {"share_inside", s.share()},
          {"games_entering", s.entered},
          {"first_inside_median", s.first_median},
          {"first_inside_share_median", s.first_share}};
}

void print_endgame(int k, const ai::TournamentResult& r) {
  const EndgameSummary s = summarize_endgame(r);
  std::cout << fmt::format(
      "endgame table of k={} (each side at most {} pieces left): {:.1f}% of the decisions with a "
      "choice inside ({} of {}); {} of {} games reach it, at decision {:.0f} (median), after "
      "{:.0f}% of their decisions\n",
      k, k, 100 * s.share(), s.inside, s.choices, s.entered, r.games, s.first_median,
      100 * s.first_share);
}

void print_json(const ai::TournamentConfig& config, const ai::TournamentResult& r, int threads,
                std::uint64_t seed) {
  const double elo = ai::TournamentResult::elo(r.score());
  const double elo_low = ai::TournamentResult::elo(r.ci_low());
  const double elo_high = ai::TournamentResult::elo(r.ci_high());
  nlohmann::json j = {
      {"rules", config.rules.to_string()},
      {"a", config.agent_a},
      {"b", config.agent_b},
      {"games", r.games},
      {"seed", seed},
      {"first", config.first},
      {"threads", threads},
      {"a_wins", r.a_wins},
      {"b_wins", r.b_wins},
      {"abandoned", r.abandoned},
      {"forfeits", forfeit_reasons(r)},
      {"a_games_as_light", r.a_games_as_light},
      {"a_wins_as_light", r.a_wins_as_light},
      {"a_score", r.score()},
      {"a_score_ci95", {r.ci_low(), r.ci_high()}},
      {"elo", elo_json(elo)},
      {"elo_ci95", {elo_json(elo_low), elo_json(elo_high)}},
      {"throws_per_game", r.throws_per_game()},
      {"seconds", r.seconds},
  };
  if (config.endgame > 0) j["endgame"] = endgame_json(config.endgame, r);
  std::cout << j.dump(2) << "\n";
}

void print_text(const ai::TournamentConfig& config, const ai::TournamentResult& r,
                std::uint64_t seed) {
  const double elo = ai::TournamentResult::elo(r.score());
  const double elo_low = ai::TournamentResult::elo(r.ci_low());
  const double elo_high = ai::TournamentResult::elo(r.ci_high());
  std::cout << fmt::format(
      "{}: A = {}  vs  B = {}, {} games, seed {}{}\n", config.rules.to_string(), config.agent_a,
      config.agent_b, r.games, seed,
      config.first > 0 ? fmt::format(" (games {} to {} of it)", config.first, config.games - 1)
                       : std::string());
  std::cout << fmt::format("A wins {} ({} of {} as light), B wins {}", r.a_wins, r.a_wins_as_light,
                           r.a_games_as_light, r.b_wins);
  if (r.abandoned) std::cout << fmt::format(", abandoned {}", r.abandoned);
  std::cout << "\n";
  if (r.forfeits) {
    std::cout << fmt::format("{} games forfeited by an engine program:\n", r.forfeits);
    for (const std::string& why : forfeit_reasons(r, kShownForfeits))
      std::cout << "  " << why << "\n";
  }
  std::cout << fmt::format("A win rate {:.2f}%  (95% CI {:.2f}% .. {:.2f}%)\n", 100 * r.score(),
                           100 * r.ci_low(), 100 * r.ci_high());
  std::cout << fmt::format("Elo A - B {}  (95% CI {} .. {})\n", elo_text(elo), elo_text(elo_low),
                           elo_text(elo_high));
  std::cout << fmt::format("{:.1f} throws per game, {:.1f} s, {:.1f} games/s\n",
                           r.throws_per_game(), r.seconds,
                           r.seconds > 0 ? r.games / r.seconds : 0.0);
  if (config.endgame > 0) print_endgame(config.endgame, r);
}

}  // namespace

void add_tournament_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tournament",
      "Plays agent A against agent B and reports A's win rate (95% interval), the Elo "
      "difference and the average throws per game. Deterministic for a seed, whatever the "
      "number of threads.\n" +
          ai::agent_help());
  static std::string rules = "finkel", agent_a, agent_b, table;
  static int games = 1000, first = 0, threads = 1, engine_timeout = ai::kDefaultEngineTimeoutMs,
             endgame = 0;
  static std::uint64_t seed = 1;
  static bool json = false;
  cmd->add_option("--rules,-r", rules, "rule set")->capture_default_str();
  cmd->add_option("--a", agent_a, "agent A, e.g. \"expectimax(depth=3)\"")->required();
  cmd->add_option("--b", agent_b, "agent B, e.g. greedy")->required();
  cmd->add_option("--games,-n", games, "games to play")->capture_default_str();
  cmd->add_option("--from", first,
                  "play only games K to --games - 1 of the seed's sequence: the parts of a long "
                  "run add up to the whole, game for game")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--threads,-j", threads, "worker threads")->capture_default_str();
  cmd->add_option("--seed", seed, "random seed")->capture_default_str();
  cmd->add_option("--table", table,
                  "the solved table of the perfect player (default: DATA/tables/<rules>.urt, "
                  "DATA from UR_DATA_DIR, else ./data)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--engine-timeout", engine_timeout,
                  "ms an engine:PATH program may take for each answer before it loses the game")
      ->check(CLI::Range(1, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--endgame", endgame,
                  "K: also report where the games meet the endgame table of K (each side at most "
                  "K pieces left; docs/solver.md)")
      ->check(CLI::Range(1, 7));
  cmd->add_flag("--json", json, "print a JSON summary instead of text");
  cmd->callback([] {
    const std::optional<RuleSet> parsed = rules_option("tournament", rules);
    if (!parsed) return;
    ai::TournamentConfig config;
    config.rules = *parsed;
    config.tables = &table_store();
    config.agent_a =
        ai::with_engine_timeout(ai::with_perfect_table(agent_a, table), engine_timeout);
    config.agent_b =
        ai::with_engine_timeout(ai::with_perfect_table(agent_b, table), engine_timeout);
    config.games = games;
    config.first = first;
    config.threads = threads;
    config.seed = seed;
    config.endgame = endgame;
    const bool tty = isatty(STDERR_FILENO) != 0;
    ai::TournamentProgress progress;
    if (tty)
      progress = [](int done, int a, int b, double s) {
        print_progress(done, games - first, a, b, s);
      };
    auto outcome = ai::run_tournament(config, progress);
    if (tty) std::cerr << "\n";
    if (auto* e = std::get_if<Error>(&outcome)) {
      std::cerr << "ur tournament: " << e->message << "\n";
      exit_status() = 2;
      return;
    }
    const ai::TournamentResult& r = std::get<ai::TournamentResult>(outcome);
    if (json)
      print_json(config, r, threads, seed);
    else
      print_text(config, r, seed);
  });
}

}  // namespace ur::cli
