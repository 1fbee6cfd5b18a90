// `ur solve --rules R`: value iteration over every state, written as a table file.
// `ur table info FILE`, `ur table query FILE --position P`: read a table.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "engine/notation.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::cli {
namespace {

long peak_rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long value = 0;
  while (in >> key) {
    if (key == "VmHWM:") {
      in >> value;
      return value;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

std::uint64_t machine_memory() {
  return static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
}

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1ull << 30));
}

struct SolveArgs {
  std::string rules = "finkel";
  std::string out;
  std::string checkpoint;
  std::string precision = "u16";
  std::string encoding = "auto";
  int threads = 2;
  int endgame = 0;  // k > 0: only the positions with at most k pieces left a side
  double tolerance = 1e-7;
  double memory_gib = 0;  // 0: the machine's memory
  bool count = false;
  bool keep_checkpoint = false;
};

std::uint64_t memory_limit(const SolveArgs& args) {
  return args.memory_gib > 0 ? static_cast<std::uint64_t>(args.memory_gib * (1ull << 30))
                             : machine_memory();
}

// `--count` prints what a solve needs; otherwise false (with the refusal printed) when it does
// not fit in the memory it may use, before anything is allocated. A solve needs `need` with
// its successor streams in memory, and at least `least` with every stream block beyond the
// limit spilled to a file (read back in every sweep: slower, same values).
bool fits(const solver::StateIndex& index, const std::string& rules, const SolveArgs& args) {
  const std::uint64_t need = solver::ValueIteration::memory_needed(index);
  const std::uint64_t least = solver::ValueIteration::memory_needed(index, true);
  const std::uint64_t have = memory_limit(args);
  if (args.count) {
    std::cout << fmt::format(
        "{} states ({} encoding{}, {} layers), needs {} to solve\n", index.size(),
        index.dense() ? "dense" : "multiset",
        index.endgame() > 0
            ? fmt::format(", endgame: at most {} pieces left a side", index.endgame())
            : "",
        index.layers().size(), gib(need));
    std::cout << fmt::format(
        "at least {} with the successor streams beyond --memory spilled to disk\n", gib(least));
    return false;
  }
  if (std::string why = solver::ValueIteration::cannot_solve(index); !why.empty() || least > have) {
    std::cerr << fmt::format("ur solve: {} has {} states and needs {} to solve; {}\n", rules,
                             index.size(), gib(least),
                             why.empty() ? "the limit is " + gib(have) + " (--memory)" : why);
    exit_status() = 2;
    return false;
  }
  if (need > have)
    std::cout << fmt::format(
        "{} with every stream in memory, the limit is {} (--memory): stream blocks beyond it "
        "are spilled to the checkpoint directory and read back in every sweep\n",
        gib(need), gib(have));
  return true;
}

// During a layer `change` is the last sweep's largest change; once it is done, the certified
// residual max |Bellman(V) - V| (float32 resolution: 5.96e-08 is one step near 1).
void print_progress(const solver::Progress& p) {
  static const bool tty = isatty(STDERR_FILENO);
  const char* what = p.layer_done ? "residual" : "change";
  if (tty) {
    std::cerr << fmt::format(
        "\r  layer {:>2}/{} ({},{})  sweep {:>3}  {} {:.2e}  "
        "{:5.1f}%  ETA {:>5.0f} s   ",
        p.layer, p.layers, p.a, p.b, p.sweep, what, p.change, 100 * p.fraction_done, p.eta_seconds);
    if (p.layer_done) std::cerr << "\n";
  } else if (p.layer_done) {
    // Logs and CI: a line a layer instead of a redrawn bar,
    std::cerr << fmt::format(
        "  layer {:>2}/{} ({},{}) done after {} sweeps, {} {:.2e}, "
        "{:.1f}% of the work, ETA {:.0f} s\n",
        p.layer, p.layers, p.a, p.b, p.sweep, what, p.change, 100 * p.fraction_done, p.eta_seconds);
  } else {
    // and within a large layer, which sweeps for hours, a line a minute.
    static auto last = std::chrono::steady_clock::now();
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::minutes(1)) return;
    last = now;
    std::cerr << fmt::format(
        "  layer {:>2}/{} ({},{}) sweep {}, change {:.2e}, {:.1f}% of the work, ETA {:.0f} s\n",
        p.layer, p.layers, p.a, p.b, p.sweep, p.change, 100 * p.fraction_done, p.eta_seconds);
  }
}

void print_reports(const solver::ValueIteration& vi) {
  for (const solver::LayerReport& r : vi.reports())
    std::cout << fmt::format(
        "  layer ({},{}) {:>10} states  {:>4} sweeps  last change {:.2e}  residual {:.2e}  "
        "{:7.1f} s{}{}\n",
        r.a, r.b, r.states, r.sweeps, r.last_change, r.residual, r.seconds,
        r.from_checkpoint  ? "  (from checkpoint)"
        : r.resumed_at > 0 ? fmt::format("  (resumed after {} sweeps)", r.resumed_at)
                           : "",
        r.spilled_bytes > 0
            ? fmt::format("  stream {} ({} spilled)", gib(r.stream_bytes), gib(r.spilled_bytes))
            : "");
}

void run_solve(const SolveArgs& args) {
  const std::optional<RuleSet> parsed = rules_option("solve", args.rules);
  if (!parsed) return;
  const Engine engine(*parsed);
  const auto encoding = args.encoding == "dense"      ? solver::Encoding::kDense
                        : args.encoding == "multiset" ? solver::Encoding::kMultiset
                                                      : solver::Encoding::kAuto;
  solver::StateIndexResult ir = solver::StateIndex::create(engine, encoding, args.endgame);
  if (auto* e = std::get_if<Error>(&ir)) {
    std::cerr << "ur solve: " << e->message << "\n";
    exit_status() = 2;
    return;
  }
  const solver::StateIndex& index = std::get<solver::StateIndex>(ir);
  const std::string rules = engine.rules().to_string();
  if (!fits(index, rules, args)) return;
  const std::string out =
      args.out.empty() ? solver::table_path(data_dir(), rules, args.endgame) : args.out;
  solver::SolveOptions opt;
  opt.threads = args.threads;
  opt.tolerance = args.tolerance;
  opt.checkpoint_dir = args.checkpoint.empty() ? out + ".partial" : args.checkpoint;
  // Each layer goes to the table file as it is finished, and its values are dropped once no
  // later layer reads them.
  const auto type = args.precision == "f32" ? solver::ValueType::kF32 : solver::ValueType::kU16;
  solver::TableWriter writer(out, type, index.size());
  opt.keep_values = false;
  opt.on_layer = [&](const solver::Layer&, std::span<const float> v) { writer.append(v); };
  opt.memory_limit = memory_limit(args);
  std::cout << fmt::format("solving {}: {} states in {} layers, {} threads, tolerance {:g}\n",
                           rules, index.size(), index.layers().size(), opt.threads, opt.tolerance);
  std::cout << fmt::format("checkpoints in {} (an interrupted solve resumes from them)\n",
                           opt.checkpoint_dir);
  std::cout.flush();
  const auto t0 = std::chrono::steady_clock::now();
  solver::ValueIteration vi(index, opt);
  vi.solve(print_progress);
  print_reports(vi);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (std::string err = writer.finish(rules, index.encoding_id(), vi.max_residual());
      !err.empty()) {
    std::cerr << "ur solve: " << err << "\n";
    exit_status() = 1;
    return;
  }
  Position start = engine.initial_position();
  start.phase = Phase::kAwaitingRoll;
  start.turn = start.next = Player::kLight;
  std::cout << fmt::format("max residual {:.2e}; wrote {} ({} bytes)\n", vi.max_residual(), out,
                           std::filesystem::file_size(out));
  std::cout << fmt::format("time {:.1f} s, peak memory {:.2f} GiB\n", secs,
                           peak_rss_kib() / 1048576.0);
  if (!args.keep_checkpoint) std::filesystem::remove_all(opt.checkpoint_dir);
  if (index.endgame() > 0) return;  // the start is not an endgame position
  std::cout << fmt::format(
      "start position: the first player (light, to throw) wins with "
      "probability {:.6f}\n",
      vi.value(start));
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "solve", "Solve a rule set: the exact winning chance of every state, as a table file");
  static SolveArgs args;
  add_rules_and_out(*cmd, args.rules, args.out,
                    "table file (default $UR_DATA_DIR/tables/<rules>.urt, or "
                    "<rules>.endgame<K>.urt with --endgame; data dir ./data)");
  cmd->add_option("--threads,-t", args.threads, "threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--precision", args.precision, "value type on disk")
      ->check(CLI::IsMember({"u16", "f32"}))
      ->capture_default_str();
  cmd->add_option("--tolerance", args.tolerance, "stop a layer when no value changes by more")
      ->capture_default_str();
  cmd->add_option("--checkpoint", args.checkpoint, "checkpoint directory (default <out>.partial)");
  cmd->add_flag("--keep-checkpoint", args.keep_checkpoint, "keep the layer files afterwards");
  cmd->add_option("--encoding", args.encoding,
                  "state encoding: dense where it applies, else multiset (auto), or either")
      ->check(CLI::IsMember({"auto", "dense", "multiset"}))
      ->capture_default_str();
  cmd->add_option("--endgame", args.endgame,
                  "an endgame table: only the positions where each side has at most K pieces "
                  "left (default out $UR_DATA_DIR/tables/<rules>.endgame<K>.urt)")
      ->check(CLI::Range(1, solver::kMaxPieces - 1));
  cmd->add_option("--memory", args.memory_gib,
                  "GiB the solve may use; a bigger one is refused (default: the machine's memory)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--count", args.count,
                "only print the number of states and the memory the solve needs");
  cmd->callback([] { run_solve(args); });
}

}  // namespace ur::cli
