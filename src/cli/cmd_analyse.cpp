// `ur analyse RECORD [--table FILE]`: every move of a game record graded against the solved
// table of its rule set: the winning chance the mover kept, the best move's, the cost and its
// grade (solver::grade), then a summary per player. Exit status 1 for a bad record or table,
// 2 for an unreadable file.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "ai/perfect.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "engine/game_record.h"
#include "solver/analysis.h"

namespace ur::cli {
namespace {

struct AnalyseOptions {
  std::string file;
  std::string table;
  bool all = false;
  bool json = false;
};

std::string summary_line(Player p, const solver::PlayerSummary& s) {
  if (s.decisions == 0) return fmt::format("{}: no decisions with a choice", player_name(p));
  return fmt::format(
      "{}: {} decisions, {} best ({:.1f}%), mean cost {:.4f} a move, worst {:.4f} ({})",
      player_name(p), s.decisions, s.best, 100.0 * s.best / s.decisions, s.total_cost / s.decisions,
      s.worst_cost, solver::grade(s.worst_cost));
}

nlohmann::json to_json(const Engine& engine, const solver::Analysis& a) {
  nlohmann::json moves = nlohmann::json::array();
  for (const solver::GradedMove& m : a.moves)
    moves.push_back({{"event", m.event},
                     {"player", player_name(m.player)},
                     {"roll", m.roll},
                     {"legal", m.legal},
                     {"played", describe_move(engine, m.before, m.played)},
                     {"best", describe_move(engine, m.before, m.best)},
                     {"played_value", m.played_value},
                     {"best_value", m.best_value},
                     {"cost", m.cost()},
                     {"grade", solver::grade(m.cost())}});
  nlohmann::json players;
  for (Player p : {Player::kLight, Player::kDark}) {
    const solver::PlayerSummary& s = a.players[index_of(p)];
    players[player_name(p)] = {{"decisions", s.decisions},
                               {"best", s.best},
                               {"total_cost", s.total_cost},
                               {"worst_cost", s.worst_cost}};
  }
  return {{"moves", std::move(moves)}, {"players", std::move(players)}};
}

void run(const AnalyseOptions& opt) {
  std::string text, why;
  if (!read_input(opt.file, text, why)) {
    std::cerr << fmt::format("ur analyse: cannot read {}: {}\n", opt.file, why);
    exit_status() = 2;
    return;
  }
  RecordResult r = read_record(text);
  if (auto* e = std::get_if<RecordError>(&r)) {
    std::cerr << fmt::format("ur analyse: {}: {}\n", opt.file, e->message);
    exit_status() = 1;
    return;
  }
  const Game& game = std::get<Game>(r);
  const std::string rules = game.rules().to_string();
  const std::string path = opt.table.empty() ? solver::default_table_path(rules) : opt.table;
  auto solved = ai::solved_table(game.rules(), path);
  if (auto* e = std::get_if<std::string>(&solved)) {
    std::cerr << "ur analyse: " << *e << "\n";
    exit_status() = 1;
    return;
  }
  const ai::SolvedTable& st = std::get<ai::SolvedTable>(solved);
  solver::AnalysisResult ar = solver::analyse(game, *st.index, *st.table);
  if (auto* e = std::get_if<std::string>(&ar)) {
    std::cerr << "ur analyse: " << *e << "\n";
    exit_status() = 1;
    return;
  }
  const solver::Analysis& a = std::get<solver::Analysis>(ar);
  const Engine& engine = game.engine();
  if (opt.json) {
    std::cout << to_json(engine, a).dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("{}: {} events, {} graded moves (table {})\n", rules,
                           game.events().size(), a.moves.size(), path);
  for (const solver::GradedMove& m : a.moves) {
    if (m.legal < 2 && !opt.all) continue;
    const std::string played = describe_move(engine, m.before, m.played);
    std::string line =
        fmt::format("  {:>4}  {:<5} threw {}: {:<24} {:.4f}", m.event + 1, player_name(m.player),
                    engine.move_value(m.roll), played, m.played_value);
    if (m.cost() < 1e-6)
      line += m.legal < 2 ? "  forced" : "  best";
    else
      line += fmt::format("  -{:.4f} {} (best {} {:.4f})", m.cost(), solver::grade(m.cost()),
                          describe_move(engine, m.before, m.best), m.best_value);
    std::cout << line << "\n";
  }
  for (Player p : {Player::kLight, Player::kDark})
    std::cout << summary_line(p, a.players[index_of(p)]) << "\n";
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto opt = std::make_shared<AnalyseOptions>();
  auto* cmd = app.add_subcommand(
      "analyse",
      "Grade every move of a game record (docs/notation.md) against the solved table of its\n"
      "rule set: the winning chance kept, the best move's, the cost and a grade (best, good,\n"
      "inaccuracy, mistake, blunder), and a summary per player.");
  cmd->alias("analyze");
  cmd->add_option("file", opt->file, "the record file, or - for stdin")->required();
  cmd->add_option("--table", opt->table,
                  "the solved table (default: DATA/tables/<rules>.urt, DATA from UR_DATA_DIR, "
                  "else ./data)");
  cmd->add_flag("--all", opt->all, "list forced moves too");
  cmd->add_flag("--json", opt->json, "print the analysis as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace ur::cli
