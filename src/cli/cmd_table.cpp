// `ur table info FILE` and `ur table query FILE --position P`.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "engine/notation.h"
#include "solver/table_file.h"
#include "solver/table_store.h"

namespace ur::cli {
namespace {

std::string describe(const Engine& e, const Move& m, Player pl) {
  if (m.kind == MoveKind::kAwardYes) return "award: enter a counter";
  if (m.kind == MoveKind::kAwardNo) return "award: decline";
  const int off = e.off_index();
  std::string from = m.from <= 0 ? "enter" : cell_name(e.cell_at(pl, m.from));
  std::string to = m.to == off ? "off" : cell_name(e.cell_at(pl, m.to));
  return fmt::format("{}->{} ({} -> {})", m.from, m.to, from, to);
}

// The verified table in `file`, or null after saying on stderr why not (exit status 1).
std::shared_ptr<const solver::Table> open_or_report(const std::string& file, const char* command) {
  solver::TableResult tr = solver::Table::open(file);
  if (auto* e = std::get_if<Error>(&tr)) {
    std::cerr << "ur table " << command << ": " << e->message << "\n";
    exit_status() = 1;
    return nullptr;
  }
  return std::get<std::shared_ptr<const solver::Table>>(tr);
}

// The table's header, after verifying it.
void run_info(const std::string& file) {
  const auto opened = open_or_report(file, "info");
  if (!opened) return;
  const auto& t = *opened;
  const auto& i = t.info();
  std::cout << fmt::format(
      "rules:     {}\nencoding:  {}\nversion:   {}\nvalues:    {}\n"
      "states:    {}\npayload:   {} bytes\nresidual:  {:.2e}\n"
      "checksums: ok\n",
      i.rules, i.encoding, i.version, i.type == solver::ValueType::kU16 ? "u16" : "f32", i.states,
      i.payload_bytes, i.residual);
  if (const int k = solver::StateIndex::endgame_of(i.encoding); k > 0)
    std::cout << fmt::format("endgame:   at most {} pieces left a side\n", k);
}

// The win probability of the side to move in `p`, and after each of its legal moves.
void print_values(const Engine& engine, const solver::Table& t, const solver::StateIndex& index,
                  const Position& p) {
  const Player mover = p.turn;
  // A decision inside the turn (the boxed game's award, double or forfeit move) is taken by
  // whoever decides there.
  auto value_for = [&](const Position& q) {
    return solver::table_value(t, index, engine, q, mover);
  };
  if (p.is_over()) {
    std::cout << fmt::format("{} has won\n", player_name(p.turn));
    return;
  }
  if (p.phase == Phase::kAwaitingRoll) {
    std::cout << fmt::format("{} to throw: wins with probability {:.6f}\n", player_name(mover),
                             value_for(p));
    return;
  }
  if (!p.is_decision()) {
    std::cerr << "ur table query: tables hold positions awaiting a throw or a decision\n";
    exit_status() = 2;
    return;
  }
  MoveList moves;
  engine.legal_moves(p, moves);
  double best = -1;
  for (const Move& m : moves) {
    Position q = p;
    engine.apply_move(q, m);
    best = std::max(best, value_for(q));
  }
  if (p.phase == Phase::kAwaitingMove)
    std::cout << fmt::format("{} threw {} (move {}): wins with probability {:.6f} with best play\n",
                             player_name(mover), p.roll, engine.move_value(p.roll), best);
  else  // the boxed game's award or forfeit response
    std::cout << fmt::format("{} decides: wins with probability {:.6f} with best play\n",
                             player_name(mover), best);
  for (const Move& m : moves) {
    Position q = p;
    engine.apply_move(q, m);
    const double v = value_for(q);
    std::cout << fmt::format("  {:<28} {:.6f}{}\n", describe(engine, m, mover), v,
                             v >= best - 1e-9 ? "  best" : fmt::format("  (-{:.4f})", best - v));
  }
}

void run_query(const std::string& file, const std::string& position) {
  const auto opened = open_or_report(file, "query");
  if (!opened) return;
  const auto& t = *opened;
  const solver::TableLookup found =
      solver::open_table(rule_set_or_throw(t.info().rules), file, true);
  if (!found.ready()) {
    std::cerr << "ur table query: " << found.why << "\n";
    exit_status() = 1;
    return;
  }
  const solver::SolvedTable& solved = found.solved;
  PositionResult pr = parse_position_string(*solved.engine, position);
  if (auto* e = std::get_if<Error>(&pr)) {
    std::cerr << "ur table query: " << e->message << "\n";
    exit_status() = 2;
    return;
  }
  const Position& p = std::get<Position>(pr);
  if (std::string why = solved.outside(p); !why.empty()) {
    std::cerr << "ur table query: " << why << "\n";
    exit_status() = 2;
    return;
  }
  print_values(*solved.engine, *solved.table, *solved.index, p);
}

}  // namespace

void add_table_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("table", "Inspect and query solved tables");
  cmd->require_subcommand(1);
  static std::string file, position;
  auto* info = cmd->add_subcommand("info", "Print a table's header after verifying it");
  info->add_option("file", file, "table file")->required();
  info->callback([] { run_info(file); });
  auto* query = cmd->add_subcommand(
      "query", "Win probability of the side to move, and of each legal move, for a position");
  query->add_option("file", file, "table file")->required();
  query->add_option("--position,-p", position, "position string, e.g. Lr/0000000/0000000")
      ->required();
  query->callback([] { run_query(file, position); });
}

}  // namespace ur::cli
