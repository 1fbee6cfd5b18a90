// `ur engine`: serves the agents over UEP, the Ur engine protocol (docs/engine_protocol.md), on
// stdin and stdout. The protocol itself is ai::UepEngine; this is only the pump.
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include "ai/uep_engine.h"
#include "cli/commands.h"

namespace ur::cli {
namespace {

// Reads stdin on two threads in turn. The thread that reads a search `go` lets the other one
// read on (isready, stop and quit must be answered during the search) and runs the search
// itself: the search starts at once, with no wake-up of another thread on its way
// (docs/benchmarks.md, "Engine protocol"). Only one thread reads at a time; a search is run by the thread that read it.
void serve(ai::UepEngine& engine) {
  engine.set_inline_searches(true);
  std::mutex mutex;
  std::condition_variable turn;
  bool reader_free = true, done = false;
  auto take_turns = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      turn.wait(lock, [&] { return reader_free || done; });
      if (done) return;
      reader_free = false;
      lock.unlock();
      std::string line;
      bool more = true;
      while ((more = static_cast<bool>(std::getline(std::cin, line)) && engine.handle(line)) &&
             !engine.search_due()) {
      }
      lock.lock();
      if (!more) {
        done = true;  // the end of input or quit: the other thread may still be searching
        turn.notify_all();
        return;
      }
      reader_free = true;
      turn.notify_one();
      lock.unlock();
      engine.run_search();
      lock.lock();
    }
  };
  {
    std::jthread other(take_turns);
    take_turns();
  }
  // The end of input: the search under way still writes its bestmove.
  engine.wait_search();
}

}  // namespace

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
    // Every answer is flushed at once: the controller waits for it. A search's `info depth`
    // line is the exception: its bestmove follows at once, and one write for both saves the
    // controller a wake-up.
    ai::UepEngine engine(
        [](const std::string& line) {
          std::cout << line << '\n';
          if (!line.starts_with("info depth")) std::cout.flush();
        },
        "ur", UR_VERSION, &table_store());
    // Rules first: the table and the agent are checked against it; a bad --rules is refused
    // as every command refuses it.
    if (!rules.empty() && !rules_option("engine", rules)) return;
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
    serve(engine);
  });
}

}  // namespace ur::cli
