#include "cli/commands.h"
namespace ur::cli {
void add_replay_command(CLI::App& app) { app.add_subcommand("replay", "(not yet)"); }
}  // namespace ur::cli
