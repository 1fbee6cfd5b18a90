// `ur puzzles generate`: puzzles with proven answers (docs/puzzles.md), from self-play of the
// levels beginner, easy and medium and from finished games' records, graded against the rule
// set's solved table. Output: one JSON object a line (docs/puzzles.md, "File"). A rule set
// without a table gets no puzzles: its answers would be estimates.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/puzzle_generate.h"
#include "cli/commands.h"
#include "engine/game_record.h"

namespace ur::cli {
namespace {

struct PuzzleOptions {
  std::string rules = "finkel";
  std::size_t count = 1000;
  std::string from;
  std::string out = "-";
  std::string db;
  std::string table;
  double margin = analysis::kDefaultPuzzleMargin;
  std::uint64_t seed = 1;
  std::uint64_t games = 0;
};

// Offers every record of `file` (one game record a line; other rule sets are skipped).
bool offer_records(analysis::PuzzleGenerator& gen, const PuzzleOptions& opt, const RuleSet& rules) {
  std::string text, error;
  if (!read_input(opt.from, text, error)) {
    std::cerr << "ur puzzles: " << error << "\n";
    exit_status() = 2;
    return false;
  }
  std::istringstream lines(text);
  std::string line;
  int number = 0, skipped = 0, bad = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    RecordResult r = read_record(line);
    if (auto* e = std::get_if<Error>(&r)) {
      if (++bad <= 3) std::cerr << fmt::format("ur puzzles: line {}: {}\n", number, e->message);
      continue;
    }
    const Game& g = std::get<Game>(r);
    if (g.rules().to_string() != rules.to_string()) {
      ++skipped;
      continue;
    }
    gen.offer_game(g);
  }
  std::cerr << fmt::format("records: {} lines, {} unreadable, {} of other rule sets\n", number, bad,
                           skipped);
  return true;
}

// Writes the puzzles to --out (unless --db alone was given) and stores them with --db; false
// after saying why on stderr.
bool write_puzzles(const analysis::PuzzleGenerator& gen, const Engine& engine,
                   const PuzzleOptions& opt) {
  std::vector<nlohmann::json> out;
  for (const analysis::Puzzle& z : gen.puzzles()) {
    if (out.size() == opt.count) break;
    out.push_back(analysis::puzzle_json(engine, z));
  }
  if (!opt.db.empty()) {
    int added = 0;
    const std::string error = store_puzzles(opt.db, out, added);
    if (!error.empty()) {
      std::cerr << "ur puzzles: --db: " << error << "\n";
      exit_status() = 1;
      return false;
    }
    std::cerr << fmt::format("stored {} new puzzles of {}\n", added, out.size());
    if (opt.out == "-") return true;
  }
  std::ofstream file;
  if (opt.out != "-") {
    file.open(opt.out);
    if (!file) {
      std::cerr << "ur puzzles: cannot write " << opt.out << "\n";
      exit_status() = 2;
      return false;
    }
  }
  std::ostream& to = opt.out == "-" ? std::cout : file;
  for (const nlohmann::json& j : out) to << j.dump() << "\n";
  return true;
}

void run_generate(const PuzzleOptions& opt) {
  std::optional<RuleSet> rules = rules_option("puzzles", opt.rules);
  if (!rules) return;
  analysis::OpenedSource src = analysis::open_source(*rules, &table_store(), opt.table);
  if (!src.source || !src.source->exact()) {
    std::cerr << "ur puzzles: " << rules->to_string()
              << " has no solved table, and puzzles need exact answers: "
              << (src.why.empty() ? "make one with ur solve" : src.why) << "\n";
    exit_status() = 1;
    return;
  }
  analysis::PuzzleGenerator gen(*src.source, {opt.margin, opt.seed});
  const auto start = std::chrono::steady_clock::now();
  if (!opt.from.empty() && !offer_records(gen, opt, *rules)) return;
  gen.self_play(opt.count, opt.games == 0 ? opt.count * 100 : opt.games);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!write_puzzles(gen, src.source->engine(), opt)) return;
  const analysis::GenerateStats& s = gen.stats();
  std::cerr << fmt::format(
      "{} puzzles in {:.1f} s from {} games and {} decisions ({} repeated, {} without a clear "
      "best move, {} trivial); grading {} positions took {:.3f} s ({:.0f} a second)\n",
      std::min(gen.puzzles().size(), opt.count), seconds, s.games, s.decisions, s.duplicates,
      s.no_margin, s.trivial, s.graded, s.grade_seconds,
      s.grade_seconds > 0 ? s.graded / s.grade_seconds : 0.0);
}

}  // namespace

void add_puzzles_command(CLI::App& app) {
  auto opt = std::make_shared<PuzzleOptions>();
  auto* cmd = app.add_subcommand("puzzles", "Puzzles with proven answers (docs/puzzles.md)");
  cmd->require_subcommand(1);
  auto* gen = cmd->add_subcommand(
      "generate",
      "Decision points from self-play (beginner, easy, medium) and from game records, kept when\n"
      "the solved table proves the best move beats every other by --margin and easy or medium\n"
      "misses it; one JSON puzzle a line.");
  gen->add_option("--rules,-r", opt->rules, "the rule set (it needs a solved table)")
      ->capture_default_str();
  gen->add_option("--count,-n", opt->count, "puzzles to write")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  gen->add_option("--from", opt->from, "game records, one a line (- for stdin), offered first");
  gen->add_option("--out,-o", opt->out,
                  "the output file (default: standard output, unless --db is given)");
  gen->add_option(
      "--db", opt->db,
      "also store them in the server's database (sqlite:PATH, a path or postgresql://)");
  gen->add_option("--table", opt->table, "the solved table (default: DATA/tables/<rules>.urt)");
  gen->add_option("--margin", opt->margin, "the best move's least lead in winning chance")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  gen->add_option("--seed", opt->seed, "the seed of self-play's dice and players")
      ->capture_default_str();
  gen->add_option("--games", opt->games, "at most this many self-play games (0: 100 a puzzle)")
      ->capture_default_str();
  gen->callback([opt] { run_generate(*opt); });
}

}  // namespace ur::cli
