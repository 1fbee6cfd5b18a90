// `ur serve`, `ur loadtest`, `ur bot`, `ur backup`, `ur restore` and `ur admin` in a build
// configured with -DUR_SERVER=OFF: the server and its libraries (Beast, SQLite, libpq, libsodium,
// hiredis) are not in this program, so each command accepts any arguments, says so and exits with
// status 2 instead of being unknown.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"

namespace ur::cli {
namespace {

void add_not_built(CLI::App& app, const std::string& name, const std::string& what) {
  auto* cmd = app.add_subcommand(name, what + " (not built in: -DUR_SERVER=OFF)");
  cmd->allow_extras();
  cmd->callback([name] {
    std::cerr << "ur " << name
              << ": not built in: this ur was configured with -DUR_SERVER=OFF; configure with "
                 "-DUR_SERVER=ON (the default) and the server's packages (scripts/setup)\n";
    exit_status() = 2;
  });
}

}  // namespace

void add_serve_command(CLI::App& app) {
  add_not_built(app, "serve", "Run the online server");
}

void add_loadtest_command(CLI::App& app) {
  add_not_built(app, "loadtest", "Load benchmark against an in-process server");
}

void add_bot_command(CLI::App& app) {
  add_not_built(app, "bot", "Connect an engine program to an ur server as a bot account");
}

void add_backup_command(CLI::App& app) {
  add_not_built(app, "backup", "Copy the server's database to a file");
  add_not_built(app, "restore", "Replace the server's database with a backup");
}

void add_admin_command(CLI::App& app) {
  add_not_built(app, "admin", "Give or take the server's administrator role");
}

std::string store_puzzles(const std::string&, const std::vector<nlohmann::json>&, int& added) {
  added = 0;
  return "--db is not built in: this ur was configured with -DUR_SERVER=OFF";
}

}  // namespace ur::cli
