// TableSolver: perfect play on a fresh start. A server whose data directory lacks the solved
// table of a rule set its lobby offers solves it in the background, so that the perfect level
// and the game review switch from search to the exact table by themselves once it is written:
// the solver adds each table it writes to the server's solver::TableStore.
//
// Each solve is a child process (`ur solve --threads 1`, at the lowest CPU priority): it cannot
// take the server down (a crash or the kernel's OOM killer ends only the child), it is stopped
// with SIGTERM when the server stops, and it resumes from its checkpoints
// (solver/value_iteration.h) when the server starts again. Finkel comes first (the default rule
// set), then the others from the smallest, then the endgame tables; a rule set too large to solve whole (Murray's and the
// boxed game's seven counters) gets its endgame table instead (`ur solve --endgame K`, the most
// pieces left a side whose table has at most kMaxEndgameStates states and fits the memory
// limit); a solve that would need more memory than the limit is skipped and the log says so. Progress is read from the child's per-layer lines and shown
// in GET /api/rules.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ur::solver {
class TableStore;
}

namespace ur::server {

struct TableSolverConfig {
  std::string solver_binary;             // the `ur` program (the server's own, /proc/self/exe)
  solver::TableStore* tables = nullptr;  // the server's: what is there, where to write, add
  std::uint64_t memory_limit = 0;
};

class TableSolver {
 public:
  explicit TableSolver(TableSolverConfig config);
  ~TableSolver();  // stops the running solve (its checkpoints stay) and joins
  TableSolver(const TableSolver&) = delete;
  TableSolver& operator=(const TableSolver&) = delete;

  // Plans the queue (every solvable preset without a table) and starts the worker thread.
  void start();
  void stop();

  // The state of a preset's table, for GET /api/rules: {"state": "queued" | "solving" | "ready"
  // | "skipped" | "failed", "progress": 0..1, "eta_seconds", "reason"}; null when it needs no
  // solve (a table was there already, or the rule set cannot be solved).
  nlohmann::json status(const std::string& preset) const;

  // The largest endgame table a server solves on its own: no larger than the largest whole
  // table it solves (Masters, 501 M states), which picks k = 4 for Murray and k = 5 for the
  // boxed game (docs/solver.md).
  static constexpr std::uint64_t kMaxEndgameStates = 600'000'000;

 private:
  struct Job {
    std::string preset, name;  // id and display name
    std::uint64_t states = 0;
    std::uint64_t memory = 0;  // the least its solve needs (streams spilled beyond the limit)
    int endgame = 0;           // k > 0: the endgame table, at most k pieces left a side
    std::string state = "queued";
    double progress = 0;
    double eta_seconds = -1;
    std::string reason;
  };
  void run();
  bool solve(std::size_t job);  // false when stopped
  void update(std::size_t job, const std::string& line);

  TableSolverConfig config_;
  mutable std::mutex mutex_;
  std::vector<Job> jobs_;
  std::atomic<bool> stopping_{false};
  int child_ = 0;  // pid of the running solve (under mutex_)
  std::thread thread_;
};

// Half of the machine's physical memory: the default limit of a background solve.
std::uint64_t default_solve_memory();

}  // namespace ur::server
