// `ur perft --rules R --depth D`: leaf count of the throw/decision tree from the start.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "engine/notation.h"
#include "engine/perft.h"

namespace ur::cli {

void add_perft_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "perft",
      "Count the leaves of the full throw/decision tree (one ply = a throw and its "
      "decisions) from the start or from --position");
  static std::string rules = "finkel", position;
  static int depth = 4;
  cmd->add_option("--rules,-r", rules, "rule set (preset id or string)")->capture_default_str();
  cmd->add_option("--depth,-d", depth, "plies")->check(CLI::Range(0, 12))->capture_default_str();
  cmd->add_option("--position,-p", position, "start from this position string");
  cmd->callback([] {
    const std::optional<RuleSet> parsed = rules_option("perft", rules);
    if (!parsed) return;
    Engine eng(*parsed);
    Position start = eng.initial_position();
    if (!position.empty()) {
      PositionResult pr = parse_position_string(eng, position);
      if (auto* e = std::get_if<Error>(&pr)) {
        std::cerr << "ur perft: " << e->message << "\n";
        exit_status() = 2;
        return;
      }
      start = std::get<Position>(pr);
    }
    for (int d = 1; d <= depth; ++d)
      std::cout << fmt::format("depth {} {}\n", d, perft(eng, start, d));
  });
}

}  // namespace ur::cli
