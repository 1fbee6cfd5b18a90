// UepEngine: the engine side of UEP, the Ur engine protocol (docs/engine_protocol.md), without
// any process or stream: it takes one input line at a time through handle() and writes whole
// answer lines through an Output callback, so tests drive it directly and `ur engine` only
// pumps stdin into it.
//
// Invariants: the engine never throws on input and never ends on bad input; every line it
// cannot obey is answered `info string error: <why>` and changes nothing. The current rule set,
// agent and position always agree (an option that cannot be applied keeps its old value). A
// `go` of a search agent (expectimax, the medium and hard levels) runs on a worker thread (the
// other agents decide in microseconds and answer at once); while it runs, only `isready`,
// `stop` and `quit` are obeyed, so the agent and the position are never touched by two threads.
// Output lines are written one at a time under a mutex, from the calling thread or the search
// thread; `bestmove` is the search thread's last use of the agent, and the engine is idle again
// before it is written.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "ai/agent.h"

namespace ur::ai {

// The words of a protocol line, split at spaces and tabs.
std::vector<std::string_view> uep_words(std::string_view line);

class UepEngine {
 public:
  // Receives one line without its newline; called under the engine's output mutex.
  using Output = std::function<void(const std::string& line)>;

  // `tables`: where the perfect player and eval find solved tables (null: none; only the Table
  // option's file then).
  UepEngine(Output out, std::string name, std::string version,
            const solver::TableStore* tables = nullptr);
  ~UepEngine();  // stops and joins a search under way
  UepEngine(const UepEngine&) = delete;
  UepEngine& operator=(const UepEngine&) = delete;

  // Obeys one input line; false once `quit` has been read (the search is then stopped).
  bool handle(std::string_view line);
  // Blocks until a search under way has written its bestmove (the end of input, tests).
  void wait_search();
  bool searching() const { return searching_.load(); }
  // Sets an option as `setoption` does (the name in any case); "" or why it was not set.
  // For a command line's options before the protocol starts.
  std::string set_option(std::string_view name, std::string_view value);

  // For a caller that reads its input on two threads in turn (`ur engine`): with inline
  // searches, handle() does not give a search `go` to the worker but keeps it, search_due()
  // says so, and the caller lets its other thread read on while it runs run_search() itself.
  // That saves waking the worker on every go (docs/benchmarks.md, "Engine protocol"). Only the
  // thread whose handle() kept the search may run it.
  void set_inline_searches(bool on) { inline_ = on; }
  bool search_due() const { return inline_job_.has_value(); }
  void run_search();

 private:
  struct Settings {
    std::string rules = "finkel";
    std::string agent = "medium";
    std::string table;
    std::uint64_t seed = 1;
    int eval_depth = 2;
  };
  // What the settings build; replaced whole, so a failed build changes nothing.
  struct Built {
    std::shared_ptr<const Engine> engine;
    std::unique_ptr<Agent> agent;
    std::string note;  // why the agent does not play as named (perfect without a table)
  };

  void emit(const std::string& line);
  void error(const std::string& what);
  std::string build(const Settings& s, Built& out) const;  // "" or why not

  void cmd_uep();
  void cmd_setoption(std::string_view rest);
  void cmd_newgame();
  void cmd_position(const std::vector<std::string_view>& words);
  void cmd_go(const std::vector<std::string_view>& words);
  void cmd_eval();
  void cmd_throw(const std::vector<std::string_view>& words);
  void cmd_move(const std::vector<std::string_view>& words);
  void start_search(std::unique_ptr<Agent> temporary);
  void stop_search();
  void work(std::stop_token thread_stop);
  struct Job;
  void search(const Job& job, const std::stop_token& stop);

  Output out_;
  std::string name_, version_;
  const solver::TableStore* tables_;
  std::mutex out_mutex_;
  Settings settings_;
  Built built_;
  Position pos_{};
  std::unique_ptr<Agent> search_agent_;  // a go's own agent (depth, movetime), else null
  std::atomic<bool> searching_{false};
  // The job of the worker: set by start_search, taken by work(); guarded by job_mutex_.
  struct Job {
    Agent* agent;
    Position pos;
  };
  std::mutex job_mutex_;
  std::condition_variable_any job_ready_, idle_;
  std::optional<Job> job_;
  bool inline_ = false;
  std::optional<Job> inline_job_;  // a search kept for run_search()
  std::stop_source search_stop_;   // a fresh one per search
  std::jthread worker_;            // last: stopped and joined before the members above go
};

}  // namespace ur::ai
