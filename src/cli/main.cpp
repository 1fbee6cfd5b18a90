// ur: the Royal Game of Ur. Parses the command line and hands over to a subcommand.
#include <CLI/CLI.hpp>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ur: the Royal Game of Ur, every rule set, from the terminal to the solver"};
  app.require_subcommand(1);
  ur::cli::add_play_command(app);
  ur::cli::add_moves_command(app);
  ur::cli::add_replay_command(app);
  ur::cli::add_perft_command(app);
  ur::cli::add_rules_command(app);
  ur::cli::add_bench_command(app);
  ur::cli::add_tournament_command(app);
  ur::cli::add_solve_command(app);
  ur::cli::add_train_command(app);
  ur::cli::add_table_command(app);
  ur::cli::add_analyse_command(app);
  ur::cli::add_serve_command(app);
  ur::cli::add_loadtest_command(app);
  ur::cli::add_engine_command(app);
  ur::cli::add_bot_command(app);
  ur::cli::add_backup_command(app);
  ur::cli::add_admin_command(app);
  ur::cli::add_puzzles_command(app);
  CLI11_PARSE(app, argc, argv);
  return ur::cli::exit_status();
}
