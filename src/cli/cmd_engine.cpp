// `ur engine`: serves the agents over UEP, the Ur engine protocol (docs/engine_protocol.md), on
// stdin and stdout. The protocol itself is ai::UepEngine; this is only the pump.
#include <iostream>
#include <string>

#include "ai/uep_engine.h"
#include "cli/commands.h"

namespace ur::cli {

void add_engine_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "engine",
      "Speak UEP, the Ur engine protocol, on stdin/stdout (docs/engine_protocol.md): any program\n"
      "can use every agent, level and rule set of ur. Send `uep` first; `quit` ends it.\n"
      "The options set the protocol options' starting values, e.g. for a controller that\n"
      "sends none: ur tournament --a \"engine:ur engine --agent hard\" --b greedy");
  static std::string rules, agent, table;
  cmd->add_option("--rules,-r", rules, "the Rules option (default finkel)");
  cmd->add_option("--agent,-a", agent,
                  "the Agent option: an agent spec or a level (default medium)");
  cmd->add_option("--table", table, "the Table option: the solved table of perfect and eval");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    // cin is tied to cout: every read would flush cout from this thread, racing with the
    // search thread's writes (they share cout's buffer; only the engine's mutex orders them).
    std::cin.tie(nullptr);
    // Every answer is flushed at once: the controller waits for it.
    ai::UepEngine engine([](const std::string& line) { std::cout << line << '\n'
                                                                 << std::flush; },
                         "ur", UR_VERSION);
    // Rules first: the table and the agent are checked against it.
    for (const auto& [flag, name, value] :
         {std::tuple{"--rules", "Rules", &rules}, std::tuple{"--table", "Table", &table},
          std::tuple{"--agent", "Agent", &agent}}) {
      if (value->empty()) continue;
      if (std::string why = engine.set_option(name, *value); !why.empty()) {
        std::cerr << "ur engine: " << flag << ": " << why << "\n";
        exit_status() = 2;
        return;
      }
    }
    std::string line;
    while (std::getline(std::cin, line))
      if (!engine.handle(line)) return;
    // End of input: the search under way still writes its bestmove.
    engine.wait_search();
  });
}

}  // namespace ur::cli
