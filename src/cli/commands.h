// The `ur` subcommands. Each add_*_command registers one subcommand (with its --help) on the
// app; the subcommand's callback does the work and sets the process exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"

namespace ur::solver {
class TableStore;
}

namespace ur::cli {

// Exit status requested by the subcommand that ran (0 = success).
int& exit_status();

// The data directory of the commands that read or write solved tables: $UR_DATA_DIR, else
// ./data (`ur serve` has its own --data-dir). Read once, here; handed down from here on.
const std::string& data_dir();
// The solved tables of data_dir() (DATA_DIR/tables), listed at the first call: commands hand
// it to the agents and the analysis.
const solver::TableStore& table_store();

// The rule set of a --rules value, or nullopt after printing "ur COMMAND: bad --rules value:
// WHY" on stderr and setting exit status 2.
std::optional<RuleSet> rules_option(std::string_view command, const std::string& text);

// The --rules and --out options of a command that writes a rule set's file into the data
// directory (`ur solve`, `ur train`); `out_help` says what the file is and where it goes
// without --out.
void add_rules_and_out(CLI::App& cmd, std::string& rules, std::string& out,
                       const std::string& out_help);

// Reads a whole file ("-": standard input) into `text`; false with the reason in `error`.
bool read_input(const std::string& file, std::string& text, std::string& error);

void add_rules_command(CLI::App& app);
void add_moves_command(CLI::App& app);
void add_play_command(CLI::App& app);
void add_replay_command(CLI::App& app);
void add_perft_command(CLI::App& app);
// The q-quantile of `v` (0 ≤ q ≤ 1), the nearest of its values by rank; 0 for none. Reorders v.
double percentile(std::vector<double>& v, double q);

void add_bench_command(CLI::App& app);
void add_tournament_command(CLI::App& app);
void add_solve_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_analyse_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_loadtest_command(CLI::App& app);
void add_engine_command(CLI::App& app);
void add_bot_command(CLI::App& app);
void add_backup_command(CLI::App& app);
void add_admin_command(CLI::App& app);
void add_puzzles_command(CLI::App& app);
// Stores generated puzzles (their JSON lines) in the server's database at `url` and sets `added`
// to how many were new; "" on success, else why not (cmd_puzzles_db.cpp; without the server,
// cmd_server_off.cpp: not built in).
std::string store_puzzles(const std::string& url, const std::vector<nlohmann::json>& puzzles,
                          int& added);

}  // namespace ur::cli
