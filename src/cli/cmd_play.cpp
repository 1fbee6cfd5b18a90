// `ur play`: a game in the terminal, any rule set, each seat a person or a computer player.
//
// The game runs on ur::Game; this file only narrates it and asks for decisions. Throws come
// from one Rng seeded with --seed and the bot breaks ties with a second one derived from the
// same seed, so a seed fixes the whole game whoever sits where. Everything goes through plain
// streams, flushed before every read, so the game plays through a pipe as well as on a TTY;
// colour and Unicode are used only when stdout is a terminal and --ascii is not given.
//
// Exit status: 0 when the game ended (a win or a resignation), 2 for bad options, 3 when the
// input ended while a person had to decide.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>

#include "ai/agent.h"
#include "ai/external_agent.h"
#include "ai/net_agent.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "cli/play_session.h"
#include "engine/game.h"
#include "engine/game_record.h"

namespace ur::cli {
namespace {

constexpr int kExitBadOption = 2;

// "human"/"h", "computer"/"c" (the --level player), a difficulty level or an agent spec.
Result<Seat> parse_seat(std::string s, const std::string& level, const std::string& table,
                        const RuleSet& rules, std::uint64_t seed) {
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "human" || lower == "h") return Seat{nullptr, "human"};
  std::string spec = s;
  std::string label = s;
  if (lower == "computer" || lower == "c" || lower == "bot") {
    spec = level;
    label = "computer (" + level + ")";
  }
  // --table: the perfect player reads that file (and refuses one of another rule set).
  spec = ai::with_perfect_table(spec, table);
  // A level plays as its spec; the perfect level without a whole table says so: exact in the
  // endgame with an endgame table, else the learned network, else as hard (the lobby's names).
  const solver::TableStore* tables = &table_store();
  const std::string level_agent = ai::level_spec(spec, rules, tables);
  if (std::string note = ai::level_note(spec, rules, tables); !note.empty()) {
    std::cerr << "ur play: " << note << "\n";
    label = level_agent == "perfect"               ? "computer (perfect: exact in the endgame)"
            : level_agent == ai::kLearnedLevelSpec ? "computer (strongest: learned, no exact table)"
                                                   : "computer (hard: no table for perfect)";
  }
  if (!level_agent.empty()) spec = level_agent;
  ai::AgentResult made = ai::make_agent(spec, rules, seed, tables);
  if (auto* e = std::get_if<Error>(&made)) return *e;
  return Seat{std::move(std::get<std::unique_ptr<ai::Agent>>(made)), label};
}

// The flags of `ur play`.
struct PlayOptions {
  std::string rules = "finkel";
  std::string light = "human";
  std::string dark = "computer";
  std::string level = "medium";
  std::string table;
  std::string record;
  std::optional<std::uint64_t> seed;
  bool ascii = false;
  int delay_ms = 0;
  int engine_timeout = ai::kDefaultEngineTimeoutMs;
};

// Writes the game record when the game ends (or the input does); a failure makes the exit
// status 1 unless the game already set one.
void write_record(const std::string& path, const Game& game, std::uint64_t seed) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << record_to_string(game, seed);
  out.close();
  if (!out) {
    std::cerr << "ur play: cannot write the record to " << path << "\n";
    if (exit_status() == 0) exit_status() = 1;
  }
}

void run_play(PlayOptions& opt) {
  const std::optional<RuleSet> parsed = rules_option("play", opt.rules);
  if (!parsed) return;
  std::uint64_t seed = 0;
  if (opt.seed) {
    seed = *opt.seed;
  } else {
    std::random_device rd;
    seed = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }
  const RuleSet& rules = *parsed;
  // Each computer seat draws from its own stream of the seed, apart from the dice.
  opt.light = ai::with_engine_timeout(opt.light, opt.engine_timeout);
  opt.dark = ai::with_engine_timeout(opt.dark, opt.engine_timeout);
  auto light = parse_seat(opt.light, opt.level, opt.table, rules, seed ^ 0x9e3779b97f4a7c15ULL);
  auto dark = parse_seat(opt.dark, opt.level, opt.table, rules, seed ^ 0xbf58476d1ce4e5b9ULL);
  for (const auto& [name, seat, value] :
       {std::tuple{"--light", &light, opt.light}, std::tuple{"--dark", &dark, opt.dark}}) {
    if (auto* err = std::get_if<Error>(seat)) {
      std::cerr << "ur play: bad " << name << " value '" << value << "': " << err->message
                << " (expected human, computer, a level or an agent spec)\n";
      exit_status() = kExitBadOption;
      return;
    }
  }
  const bool tty = ::isatty(::fileno(stdout)) != 0;
  BoardStyle style;
  style.unicode = tty && !opt.ascii;
  style.colour = style.unicode && std::getenv("NO_COLOR") == nullptr;
  auto engine = std::make_shared<const Engine>(*parsed);
  if (!opt.seed) std::cout << "Seed " << seed << " (replay this game with --seed " << seed << ")\n";
  PlaySession session(Game(engine),
                      {std::get<Seat>(std::move(light)), std::get<Seat>(std::move(dark))}, seed,
                      style, opt.delay_ms);
  exit_status() = session.run();
  if (!opt.record.empty()) write_record(opt.record, session.game(), seed);
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto opt = std::make_shared<PlayOptions>();
  auto* cmd = app.add_subcommand(
      "play",
      "Play a game in the terminal. Each seat is a person (types move numbers) or the computer.\n"
      "Works through a pipe: input is read line by line, the board is drawn in ASCII.");
  cmd->add_option("--rules,-r", opt->rules, "preset or rule-set string, e.g. finkel(pieces=5)")
      ->capture_default_str();
  cmd->add_option(
         "--light", opt->light,
         "who plays light: human, computer, a level (beginner easy medium hard perfect) "
         "an agent spec such as \"expectimax(depth=3)\", or engine:PATH ARGS (a UEP program)")
      ->capture_default_str();
  cmd->add_option("--dark", opt->dark, "who plays dark (as --light)")->capture_default_str();
  cmd->add_option("--level", opt->level, "the level of a seat given as `computer`")
      ->capture_default_str();
  cmd->add_option("--table", opt->table,
                  "the solved table of the perfect player (default: DATA/tables/<rules>.urt, "
                  "DATA from UR_DATA_DIR, else ./data)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--record", opt->record,
                  "write the game record (JSON, docs/notation.md) to this file when the game "
                  "ends or the input does; `ur analyse FILE` grades its moves");
  cmd->add_option("--seed", opt->seed, "seed for the dice (default: random, printed)");
  cmd->add_flag("--ascii", opt->ascii, "plain ASCII board without colour");
  cmd->add_option("--engine-timeout", opt->engine_timeout,
                  "ms a seat given as engine:PATH ARGS (a UEP program) may take for a move")
      ->check(CLI::Range(1, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--delay-ms", opt->delay_ms, "pause after each computer move")
      ->check(CLI::Range(0, 60'000))
      ->capture_default_str();
  cmd->callback([opt] { run_play(*opt); });
}

}  // namespace ur::cli
