// UepEngine: line dispatch, the search thread and its life cycle (uep_engine.h). The commands
// that change the position or the options are in uep_commands.cpp.
#include "ai/uep_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>

#include "ai/expectimax.h"
#include "engine/notation.h"

namespace ur::ai {
namespace {

// Longer lines are refused before they are split: no command needs more than a position
// string and a rule-set string, and a bounded line keeps error messages readable.
constexpr std::size_t kMaxLine = 4096;
constexpr int kMaxDepth = 60;
constexpr int kMaxMoveTimeMs = 3'600'000;

// A positive integer in [1, max]; nullopt otherwise.
std::optional<int> bounded_int(std::string_view s, int max) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || v < 1 || v > max)
    return std::nullopt;
  return v;
}

// What is wrong with the characters of a line ("" when nothing): control characters and NUL
// are refused so that an error message can quote the line safely.
std::string check_characters(std::string_view line) {
  if (line.size() > kMaxLine) return fmt::format("line longer than {} characters", kMaxLine);
  for (unsigned char c : line)
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return fmt::format("control character 0x{:02x} in the line", static_cast<int>(c));
  return "";
}

}  // namespace

std::vector<std::string_view> uep_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

UepEngine::UepEngine(Output out, std::string name, std::string version,
                     const solver::TableStore* tables)
    : out_(std::move(out)),
      name_(std::move(name)),
      version_(std::move(version)),
      tables_(tables),
      worker_([this](std::stop_token st) { work(st); }) {
  // The defaults always build (finkel, medium); should they not, the engine still answers.
  if (std::string why = build(settings_, built_); !why.empty()) error(why);
  if (built_.engine) pos_ = built_.engine->initial_position();
}

UepEngine::~UepEngine() {
  stop_search();
  wait_search();
  worker_.request_stop();
  // jthread joins in its destructor; condition_variable_any wakes on the stop request.
}

void UepEngine::emit(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_(line);
}

void UepEngine::error(const std::string& what) {
  emit("info string error: " + what);
}

void UepEngine::wait_search() {
  std::unique_lock lock(job_mutex_);
  idle_.wait(lock, [this] { return !searching_; });
}

void UepEngine::stop_search() {
  std::lock_guard lock(job_mutex_);
  search_stop_.request_stop();
}

bool UepEngine::handle(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (std::string bad = check_characters(line); !bad.empty()) {
    error(bad);
    return true;
  }
  const std::vector<std::string_view> words = uep_words(line);
  if (words.empty()) return true;
  const std::string_view cmd = words[0];
  auto no_arguments = [&] {
    if (words.size() == 1) return true;
    error(fmt::format("{}: takes no arguments (got '{}')", cmd, words[1]));
    return false;
  };
  if (cmd == "isready") {
    if (no_arguments()) emit("readyok");
    return true;
  }
  if (cmd == "stop") {
    if (no_arguments()) stop_search();  // no search: nothing to stop, no answer
    return true;
  }
  if (cmd == "quit") {
    stop_search();
    wait_search();
    return false;
  }
  static constexpr std::string_view kKnown[] = {"uep", "setoption", "newgame", "position",
                                                "go",  "eval",      "throw",   "move"};
  if (std::find(std::begin(kKnown), std::end(kKnown), cmd) == std::end(kKnown)) {
    error(
        fmt::format("unknown command '{}' (known: uep, isready, setoption, newgame, position, "
                    "go, eval, throw, move, stop, quit)",
                    cmd.substr(0, 40)));
    return true;
  }
  if (searching_) {
    error(fmt::format("{}: busy searching; only isready, stop and quit until bestmove", cmd));
    return true;
  }
  search_agent_.reset();  // the last search has written its bestmove: it is done with it
  if (cmd == "uep" && no_arguments()) cmd_uep();
  if (cmd == "setoption") cmd_setoption(line.substr(line.find("setoption") + 9));
  if (cmd == "newgame" && no_arguments()) cmd_newgame();
  if (cmd == "position") cmd_position(words);
  if (cmd == "go") cmd_go(words);
  if (cmd == "eval" && no_arguments()) cmd_eval();
  if (cmd == "throw") cmd_throw(words);
  if (cmd == "move") cmd_move(words);
  return true;
}

void UepEngine::cmd_go(const std::vector<std::string_view>& words) {
  int depth = 0, movetime = 0;
  for (std::size_t i = 1; i < words.size(); i += 2) {
    const std::string_view key = words[i];
    if (key != "depth" && key != "movetime")
      return error(fmt::format("go: unknown parameter '{}' (known: depth N, movetime MS)",
                               key.substr(0, 40)));
    if (i + 1 >= words.size()) return error(fmt::format("go: {} needs a value", key));
    const int max = key == "depth" ? kMaxDepth : kMaxMoveTimeMs;
    const std::optional<int> v = bounded_int(words[i + 1], max);
    if (!v)
      return error(fmt::format("go: {} must be a whole number from 1 to {}, not '{}'", key, max,
                               words[i + 1].substr(0, 40)));
    int& slot = key == "depth" ? depth : movetime;
    if (slot != 0) return error(fmt::format("go: {} given twice", key));
    slot = *v;
  }
  const Engine& engine = *built_.engine;
  if (!pos_.is_decision()) {
    if (pos_.is_over()) {
      emit(fmt::format("info string the game is over: {} has won", player_name(pos_.turn)));
    } else {
      emit(fmt::format("info string awaiting a throw: send throw <k> (0..{})",
                       engine.rules().dice.dice));
    }
    emit("bestmove (none)");
    return;
  }
  std::unique_ptr<Agent> temporary;
  if (depth != 0 || movetime != 0) {
    if (built_.agent->name().starts_with("expectimax")) {
      const std::string spec = movetime != 0 ? fmt::format("expectimax(depth={},time_ms={})",
                                                           depth != 0 ? depth : kMaxDepth, movetime)
                                             : fmt::format("expectimax(depth={})", depth);
      temporary = std::get<std::unique_ptr<Agent>>(make_agent(spec, engine.rules(), 0, tables_));
    } else {
      emit(fmt::format("info string {} has no depth or time to limit: it plays as it is",
                       built_.agent->name()));
    }
  }
  // Only a search is worth a thread: the other agents (random, first, greedy, perfect's lookup)
  // decide in microseconds, less than the hand-over to the worker would cost
  // (docs/benchmarks.md, "Engine protocol").
  if (temporary == nullptr && dynamic_cast<const ExpectimaxAgent*>(built_.agent.get()) == nullptr)
    return emit("bestmove " + move_text(built_.agent->choose(*built_.engine, pos_, {})));
  start_search(std::move(temporary));
}

void UepEngine::start_search(std::unique_ptr<Agent> temporary) {
  search_agent_ = std::move(temporary);
  Agent* agent = search_agent_ ? search_agent_.get() : built_.agent.get();
  {
    std::lock_guard lock(job_mutex_);
    search_stop_ = std::stop_source{};
    (inline_ ? inline_job_ : job_) = Job{agent, pos_};
    searching_ = true;
  }
  if (!inline_) job_ready_.notify_one();
}

void UepEngine::run_search() {
  if (!inline_job_) return;
  const Job job = *inline_job_;
  inline_job_.reset();
  std::stop_token stop;
  {
    std::lock_guard lock(job_mutex_);
    stop = search_stop_.get_token();
  }
  search(job, stop);
}

void UepEngine::work(std::stop_token thread_stop) {
  for (;;) {
    Job job{};
    std::stop_token stop;
    {
      std::unique_lock lock(job_mutex_);
      if (!job_ready_.wait(lock, thread_stop, [this] { return job_.has_value(); })) return;
      job = *job_;
      job_.reset();
      stop = search_stop_.get_token();
    }
    search(job, stop);
  }
}

void UepEngine::search(const Job& job, const std::stop_token& stop) {
  const auto start = std::chrono::steady_clock::now();
  const Move m = job.agent->choose(*built_.engine, job.pos, stop);
  std::string info;
  if (const auto* ex = dynamic_cast<const ExpectimaxAgent*>(job.agent)) {
    const SearchStats& st = ex->last_stats();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    info = fmt::format("info depth {} nodes {} win {:.6f} time {}", st.completed_depth, st.nodes,
                       st.value, ms);
  }
  {
    // Idle before bestmove is written: the controller's next line must not find us busy.
    std::lock_guard lock(out_mutex_);
    if (!info.empty()) out_(info);
    searching_ = false;
    out_("bestmove " + move_text(m));
  }
  std::lock_guard lock(job_mutex_);  // wait_search() checks searching_ under it
  idle_.notify_all();
}

}  // namespace ur::ai
