// The `ur` subcommands. Each add_*_command registers one subcommand (with its --help) on the
// app; the subcommand's callback does the work and sets the process exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace ur::cli {

// Exit status requested by the subcommand that ran (0 = success).
int& exit_status();

// Reads a whole file ("-": standard input) into `text`; false with the reason in `error`.
bool read_input(const std::string& file, std::string& text, std::string& error);

void add_rules_command(CLI::App& app);
void add_moves_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_replay_command(CLI::App& app);
void add_perft_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_loadtest_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_bot_command(CLI::App& app);

}  // namespace ur::cli
