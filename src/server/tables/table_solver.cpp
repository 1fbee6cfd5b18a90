#include "server/tables/table_solver.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "rules/presets.h"
#include "server/log.h"
#include "solver/state_index.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::server {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// "about 4 minutes", "about 40 seconds", "about 2 hours".
std::string about(double seconds) {
  if (seconds < 0) return "time unknown";
  if (seconds < 90)
    return "about " + std::to_string(std::lround(std::max(1.0, seconds))) + " seconds";
  if (seconds < 5400) return "about " + std::to_string(std::lround(seconds / 60)) + " minutes";
  return "about " + std::to_string(std::lround(seconds / 3600)) + " hours";
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

// The most pieces left a side of an endgame table of `engine`'s rule set that a server solves:
// at most kMaxEndgameStates states, every layer addressable, and within `memory` (0: any) when
// some k is; 0 when no k qualifies.
int endgame_to_solve(const Engine& engine, std::uint64_t memory) {
  int fallback = 0;
  for (int k = engine.rules().pieces - 1; k > 0; --k) {
    auto made = solver::StateIndex::create(engine, solver::Encoding::kAuto, k);
    const auto* index = std::get_if<solver::StateIndex>(&made);
    if (index == nullptr || index->size() > TableSolver::kMaxEndgameStates ||
        !solver::ValueIteration::cannot_solve(*index).empty())
      continue;
    if (fallback == 0) fallback = k;  // skipped with the reason when nothing smaller fits
    const std::uint64_t need = solver::ValueIteration::memory_needed(*index, true);
    if (memory == 0 || need <= memory) return k;
  }
  return fallback;
}

}  // namespace

std::uint64_t default_solve_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<std::uint64_t>(pages) * size / 2 : 0;
}

TableSolver::TableSolver(TableSolverConfig config) : config_(std::move(config)) {}

TableSolver::~TableSolver() {
  stop();
}

void TableSolver::start() {
  thread_ = std::thread([this] { run(); });
}

void TableSolver::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (child_ > 0) ::kill(child_, SIGTERM);  // its finished layers stay as checkpoints
  }
  if (thread_.joinable()) thread_.join();
}

json TableSolver::status(const std::string& preset) const {
  std::lock_guard lock(mutex_);
  for (const Job& j : jobs_) {
    if (j.preset != preset) continue;
    json s{{"state", j.state}, {"progress", j.progress}};
    if (j.eta_seconds >= 0 && j.state == "solving") s["eta_seconds"] = std::lround(j.eta_seconds);
    if (!j.reason.empty()) s["reason"] = j.reason;
    return s;
  }
  return nullptr;
}

void TableSolver::run() {
  // Plan: every preset that can be solved and has no table yet.
  std::vector<Job> plan;
  for (const PresetInfo& info : preset_list()) {
    if (stopping_) return;
    const RuleSet* rules = find_preset(info.id);
    if (config_.tables->has_file(rules->to_string())) continue;
    const Engine engine(*rules);
    auto made = solver::StateIndex::create(engine);
    if (!std::holds_alternative<solver::StateIndex>(made)) continue;
    Job j;
    // Too large whole (Murray's and the boxed game's seven counters): its endgame table.
    if (!solver::ValueIteration::cannot_solve(std::get<solver::StateIndex>(made)).empty()) {
      j.endgame = endgame_to_solve(engine, config_.memory_limit);
      if (j.endgame == 0 || config_.tables->endgame_on_disk(rules->to_string()) >= j.endgame)
        continue;
      made = solver::StateIndex::create(engine, solver::Encoding::kAuto, j.endgame);
    }
    const auto& index = std::get<solver::StateIndex>(made);
    if (!solver::ValueIteration::cannot_solve(index).empty()) continue;
    j.preset = info.id;
    j.name = rules->name + (j.endgame > 0 ? " (endgame)" : "");
    j.states = index.size();
    // The least the solve needs: within the limit it keeps what streams fit and spills the
    // rest (`ur solve --memory`, below).
    j.memory = solver::ValueIteration::memory_needed(index, true);
    plan.push_back(std::move(j));
  }
  // The default rule set first (most games are Finkel), then the whole tables from the
  // smallest, then the endgame tables from the smallest.
  std::stable_sort(plan.begin(), plan.end(), [](const Job& a, const Job& b) {
    if ((a.preset == "finkel") != (b.preset == "finkel")) return a.preset == "finkel";
    if ((a.endgame > 0) != (b.endgame > 0)) return b.endgame > 0;
    return a.states < b.states;
  });
  {
    std::lock_guard lock(mutex_);
    jobs_ = std::move(plan);
  }
  for (std::size_t i = 0; i < jobs_.size() && !stopping_; ++i) {
    const std::uint64_t need = jobs_[i].memory;
    if (config_.memory_limit && need > config_.memory_limit) {
      std::lock_guard lock(mutex_);
      jobs_[i].state = "skipped";
      jobs_[i].reason = "needs about " + gib(need) + ", the limit is " + gib(config_.memory_limit) +
                        " (--solve-memory)";
      log_line("Perfect play for " + jobs_[i].name + ": not solving, it " + jobs_[i].reason);
      continue;
    }
    if (!solve(i)) return;
  }
}

bool TableSolver::solve(std::size_t i) {
  const std::string rules = find_preset(jobs_[i].preset)->to_string();
  const int endgame = jobs_[i].endgame;
  const std::string out = config_.tables->path_for(rules, endgame);
  std::error_code ec;
  fs::create_directories(config_.tables->tables_dir(), ec);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return false;
  std::vector<std::string> args = {config_.solver_binary, "solve", "--rules", rules,
                                   "--threads",           "1",     "--out",   out};
  if (endgame > 0) args.insert(args.end(), {"--endgame", std::to_string(endgame)});
  if (config_.memory_limit > 0) {
    char gib_text[32];
    // Rounded up: the limit the plan was checked against, not a hair below it.
    std::snprintf(
        gib_text, sizeof gib_text, "%.3f",
        std::ceil(static_cast<double>(config_.memory_limit) / (1ull << 30) * 1000) / 1000);
    args.insert(args.end(), {"--memory", gib_text});
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    jobs_[i].state = "solving";
    child_ = ::fork();
    if (child_ == 0) {
      // Only async-signal-safe calls until exec: the server is multithreaded.
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // a killed server takes its solve along
      ::setpriority(PRIO_PROCESS, 0, 19);
      int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(pipe_fds[1], 2);
      ::close_range(3, ~0u, 0);  // no listening socket or database handle in the child
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ::close(pipe_fds[1]);
  log_line("Perfect play for " + jobs_[i].name + ": solving in the background (" +
           std::to_string(jobs_[i].states) + " states, one thread, low priority)");
  FILE* in = ::fdopen(pipe_fds[0], "r");
  char line[512];
  while (in && std::fgets(line, sizeof line, in)) update(i, line);
  if (in) std::fclose(in);
  int status = 0;
  pid_t pid;
  {
    std::lock_guard lock(mutex_);
    pid = child_;
  }
  ::waitpid(pid, &status, 0);
  std::lock_guard lock(mutex_);
  child_ = 0;
  if (stopping_) {
    jobs_[i].state = "queued";
    return false;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    config_.tables->add(rules, endgame);  // the perfect level and the review use it from now on
    jobs_[i].state = "ready";
    jobs_[i].progress = 1;
    log_line("Perfect play for " + jobs_[i].name + " ready");
    return true;
  }
  jobs_[i].state = "failed";
  jobs_[i].reason = "the solver stopped (status " + std::to_string(status) + ")";
  log_line("Perfect play for " + jobs_[i].name + ": " + jobs_[i].reason);
  return true;
}

// Reads `ur solve`'s line a layer: "... 42.0% of the work, ETA 240 s".
void TableSolver::update(std::size_t i, const std::string& line) {
  std::size_t pct = line.find("% of the work, ETA ");
  if (pct == std::string::npos) return;
  std::size_t start = line.find_last_not_of("0123456789.", pct - 1);
  start = start == std::string::npos ? 0 : start + 1;
  double progress = std::strtod(line.c_str() + start, nullptr) / 100;
  double eta = std::strtod(line.c_str() + pct + 19, nullptr);
  std::lock_guard lock(mutex_);
  Job& j = jobs_[i];
  // The log hears of every tenth of the way; GET /api/rules of every layer.
  if (std::floor(progress * 10) > std::floor(j.progress * 10))
    log_line("Perfect play for " + j.name + ": " + std::to_string(std::lround(progress * 100)) +
             "%, " + about(eta));
  j.progress = progress;
  j.eta_seconds = eta;
}

}  // namespace ur::server
