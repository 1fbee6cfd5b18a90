// `ur replay FILE`: validates a JSON game record by replaying it and prints where it ends.
// Exit status: 0 for a valid record, 1 for a bad record (the message names the event), 2 when
// the file cannot be read.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "cli/commands.h"
#include "engine/game_record.h"
#include "engine/notation.h"

namespace ur::cli {
namespace {

struct ReplayOptions {
  std::string file;
  bool json = false;
};

std::string result_line(const Game& g) {
  if (!g.is_over()) {
    const Position& p = g.position();
    std::string due = p.is_chance() ? "to throw" : "to decide";
    return fmt::format("in progress, {} {}", player_name(p.turn), due);
  }
  const Player w = *g.winner();
  std::string how;
  switch (g.end_reason()) {
    case EndReason::kBoreOff:
      how = "by bearing off every piece";
      break;
    case EndReason::kResign:
      how = fmt::format("({} resigned)", player_name(other(w)));
      break;
    case EndReason::kTimeout:
      how = fmt::format("({} timed out)", player_name(other(w)));
      break;
    case EndReason::kLeft:
      how = fmt::format("({} left)", player_name(other(w)));
      break;
    case EndReason::kNone:
      break;
  }
  std::string line = fmt::format("{} wins {}", player_name(w), how);
  if (g.rules().scored_win) line += fmt::format(", score {}", g.win_score());
  return line;
}

std::string stats_text(const Game& g, Player p) {
  const PlayerStats& s = g.stats(p);
  std::string t = fmt::format("{} {} throws, {} captures, {} rosettes, {} borne off",
                              player_name(p), s.throws, s.captures, s.rosettes, s.borne_off);
  if (g.rules().stake != 0 || g.rules().fine != 0) t += fmt::format(", balance {}", g.balance(p));
  return t;
}

void run(const ReplayOptions& opt) {
  std::string text, why;
  if (!read_input(opt.file, text, why)) {
    std::cerr << fmt::format("ur replay: cannot read {}: {}\n", opt.file, why);
    exit_status() = 2;
    return;
  }
  std::optional<std::uint64_t> seed;
  RecordResult r = read_record(text, &seed);
  if (auto* e = std::get_if<Error>(&r)) {
    std::cerr << fmt::format("ur replay: {}: {}\n", opt.file == "-" ? "<stdin>" : opt.file,
                             e->message);
    exit_status() = 1;
    return;
  }
  const Game& g = std::get<Game>(r);
  if (opt.json) {
    std::cout << record_to_string(g, seed);
    return;
  }
  std::cout << "final:   " << to_position_string(g.engine(), g.position()) << '\n';
  std::cout << "result:  " << result_line(g) << '\n';
  std::cout << fmt::format("summary: {}, {} events, {} turns; {}; {}\n", g.rules().to_string(),
                           g.events().size(), g.turn_number(), stats_text(g, Player::kLight),
                           stats_text(g, Player::kDark));
}

}  // namespace

bool read_input(const std::string& file, std::string& text, std::string& error) {
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  const bool directory = std::filesystem::is_directory(file, ec);
  std::ifstream in;
  errno = 0;
  if (!directory) in.open(file, std::ios::binary);
  error = directory ? "it is a directory" : std::strerror(errno);
  std::stringstream buf;
  if (in) buf << in.rdbuf();
  if (!in.is_open() || in.bad()) return false;
  text = buf.str();
  return true;
}

void add_replay_command(CLI::App& app) {
  auto opt = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand(
      "replay",
      "Validate a JSON game record (docs/notation.md) by replaying it; print the final position,\n"
      "the result and a summary. Exit status 1 for a bad record, 2 for an unreadable file.");
  cmd->add_option("file", opt->file, "the record file, or - for stdin")->required();
  cmd->add_flag("--json", opt->json, "print the replayed game as a record instead");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace ur::cli
