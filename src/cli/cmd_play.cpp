#include "cli/commands.h"
namespace ur::cli {
void add_play_command(CLI::App& app) { app.add_subcommand("play", "(not yet)"); }
}  // namespace ur::cli
