// `ur analyse RECORD`: a game record reviewed (analysis::review): every decision graded
// against best play, the luck of every throw, accuracy and luck per player, the key moves and
// the sum "Light won: +31% from the dice, −9% from mistakes; Dark −4%". Values come from the
// rule set's solved table, else from search, and are then labelled as estimates. `--svg FILE`
// writes the win-chance graph; `--position P` and `--ladder` are in cmd_analyse_more.cpp.
// Exit status 1 for a bad record or position, 2 for an unreadable file.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <string>

#include "analysis/review.h"
#include "analysis/review_json.h"
#include "analysis/review_svg.h"
#include "cli/analyse_views.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "engine/game_record.h"

namespace ur::cli {
namespace {

std::string pct(double v) {
  return fmt::format("{:+.1f}%", 100.0 * v);
}

std::string player_line(const analysis::Review& r, Player p) {
  const analysis::PlayerReview& s = r.players[index_of(p)];
  std::string line =
      !s.accuracy
          ? fmt::format("{}: no decisions with a choice", player_name(p))
          : fmt::format(
                "{}: {} decisions, {} best ({:.1f}%), mean cost {:.4f} a move, worst {:.4f} "
                "({}); accuracy {:.1f}",
                player_name(p), s.decisions, s.best, 100.0 * s.best / s.decisions,
                s.lost / s.decisions, s.worst, analysis::grade_name(analysis::grade_of(s.worst, 2)),
                *s.accuracy);
  line += fmt::format("; luck {} over {} throws", pct(s.luck), s.throws);
  if (s.luckiest >= 0) {
    const analysis::Step& a = r.steps[s.luckiest];
    const analysis::Step& b = r.steps[s.unluckiest];
    line += fmt::format(" (luckiest: event {} threw {}, {}; unluckiest: event {} threw {}, {})",
                        a.event + 1, a.outcome, pct(a.luck), b.event + 1, b.outcome, pct(b.luck));
  }
  return line + (r.estimate ? " [estimate]" : "");
}

std::string step_line(const Engine& engine, const analysis::Review& r, const analysis::Step& s) {
  const char* est = r.estimate && !s.exact ? "~" : "";
  if (s.kind == analysis::StepKind::kThrow)
    return fmt::format("  {:>4}  {:<5} threw {}{:<19} luck {}{}", s.event + 1,
                       player_name(s.player), s.outcome, "", est, pct(s.luck));
  if (s.kind == analysis::StepKind::kResign)
    return fmt::format("  {:>4}  {:<5} resigned, giving up {}{:.4f}", s.event + 1,
                       player_name(s.player), est, s.lost);
  const std::string played = describe_move(engine, s.before, s.played);
  std::string line =
      fmt::format("  {:>4}  {:<5} threw {}: {:<24} {}{:.4f}", s.event + 1, player_name(s.player),
                  s.before.phase == Phase::kAwaitingMove ? engine.move_value(s.before.roll) : 0,
                  played, est, s.played_value);
  if (s.grade == analysis::Grade::kForced || s.grade == analysis::Grade::kBest)
    return line + "  " + std::string(analysis::grade_name(s.grade));
  return line + fmt::format("  -{:.4f} {} (best {} {}{:.4f})", s.lost,
                            analysis::grade_name(s.grade), describe_move(engine, s.before, s.best),
                            est, s.best_value);
}

void print_key_moves(const Engine& engine, const analysis::Review& r) {
  if (r.key_decisions.empty() && r.key_throws.empty()) return;
  std::cout << "key moves:\n";
  for (int i : r.key_decisions) {
    const analysis::Step& s = r.steps[i];
    std::cout << fmt::format("  event {:>4}: {} played {}, {} ({}; best {})\n", s.event + 1,
                             player_name(s.player), describe_move(engine, s.before, s.played),
                             pct(-s.lost), analysis::grade_name(s.grade),
                             describe_move(engine, s.before, s.best));
  }
  for (int i : r.key_throws) {
    const analysis::Step& s = r.steps[i];
    std::cout << fmt::format("  event {:>4}: {} threw {}, luck {}\n", s.event + 1,
                             player_name(s.player), s.outcome, pct(s.luck));
  }
}

// Reads and replays the record; nullopt (with the exit status set) when it cannot.
std::optional<Game> load_game(const std::string& file) {
  std::string text, why;
  if (!read_input(file, text, why)) {
    std::cerr << fmt::format("ur analyse: cannot read {}: {}\n", file, why);
    exit_status() = 2;
    return std::nullopt;
  }
  RecordResult r = read_record(text);
  if (auto* e = std::get_if<Error>(&r)) {
    std::cerr << fmt::format("ur analyse: {}: {}\n", file, e->message);
    exit_status() = 1;
    return std::nullopt;
  }
  return std::get<Game>(std::move(r));
}

}  // namespace

analysis::OpenedSource open_for(const RuleSet& rules, const AnalyseOptions& opt) {
  if (opt.estimate)
    return {analysis::search_source(std::make_shared<const Engine>(rules), opt.depth),
            analysis::TableState::kMissing, "--estimate"};
  analysis::OpenedSource s = analysis::open_source(rules, &table_store(), opt.table, opt.depth);
  // A table named that is not there is a mistyped path: an error, since falling back would hide
  // it. A table that is there but fails its checks (corrupt, another rule set) is refused
  // loudly and the estimate is used, as for the default table (docs/analysis.md).
  if (!opt.table.empty() && s.table == analysis::TableState::kMissing) s.source.reset();
  if (s.table == analysis::TableState::kRefused)
    std::cerr << "ur analyse: the table was refused, the values are estimates: " << s.why << "\n";
  return s;
}

void analyse_record(const AnalyseOptions& opt) {
  std::optional<Game> game = load_game(opt.file);
  if (!game) return;
  analysis::OpenedSource src = open_for(game->rules(), opt);
  if (!src.source) {
    std::cerr << "ur analyse: " << src.why << "\n";
    exit_status() = 1;
    return;
  }
  analysis::ReviewResult rr = analysis::review(*game, *src.source);
  if (auto* e = std::get_if<Error>(&rr)) {
    std::cerr << "ur analyse: " << e->message << "\n";
    exit_status() = 1;
    return;
  }
  const analysis::Review& r = std::get<analysis::Review>(rr);
  const Engine& engine = game->engine();
  if (!opt.svg.empty()) {
    std::ofstream out(opt.svg, std::ios::binary);
    out << analysis::review_svg(r,
                                {.title = game->rules().to_string() + ": light's winning chance"});
    if (!out) {
      std::cerr << fmt::format("ur analyse: cannot write {}\n", opt.svg);
      exit_status() = 2;
      return;
    }
  }
  if (opt.json) {
    auto describe = [&](const Position& p, const Move& m) { return describe_move(engine, p, m); };
    nlohmann::json j = analysis::review_json(r, describe);
    j["rules"] = game->rules().to_string();
    if (r.estimate && !src.why.empty()) j["table_note"] = src.why;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format(
      "{}: {} events, {} steps, values {}\n", game->rules().to_string(), game->events().size(),
      r.steps.size(),
      !r.estimate ? "exact (table)"
      : src.table == analysis::TableState::kReady
          ? fmt::format("exact in the endgame, estimated before it ({}; {} decisions graded "
                        "exactly, the others marked ~)",
                        r.source, r.exact_decisions)
          : "ESTIMATED by " + r.source + " (" + src.why + ")");
  for (const analysis::Step& s : r.steps) {
    const bool shown = s.kind == analysis::StepKind::kResign ||
                       (s.kind == analysis::StepKind::kDecision && s.legal > 1);
    if (shown || opt.all) std::cout << step_line(engine, r, s) << "\n";
  }
  for (Player p : {Player::kLight, Player::kDark}) std::cout << player_line(r, p) << "\n";
  print_key_moves(engine, r);
  std::cout << analysis::summary_line(r) << "\n";
  std::cout << fmt::format("start {:.1f}%, result {:.1f}%, residual {:.2g}\n", 100 * r.start_value,
                           100 * r.result, r.residual);
}

void add_analyse_command(CLI::App& app) {
  auto opt = std::make_shared<AnalyseOptions>();
  auto* cmd = app.add_subcommand(
      "analyse",
      "Review a game record (docs/notation.md): every decision graded against best play (best,\n"
      "good, inaccuracy, mistake, blunder; forced), the luck of every throw, accuracy and luck\n"
      "per player, key moves and the sum of luck and mistakes (docs/analysis.md). Values come\n"
      "from the rule set's solved table, else from search (marked as estimates).\n"
      "--position P explores one position; --ladder measures accuracy of computer players.");
  cmd->alias("analyze");
  cmd->add_option("file", opt->file, "the record file, or - for stdin");
  cmd->add_option("--table", opt->table,
                  "the solved table (default: DATA/tables/<rules>.urt, DATA from UR_DATA_DIR, "
                  "else ./data)");
  cmd->add_option("--svg", opt->svg, "write light's winning chance as an SVG graph to FILE");
  cmd->add_option("--position", opt->position,
                  "every throw and legal move of this position string with its winning chance");
  cmd->add_option("--rules,-r", opt->rules, "the rule set of --position and --ladder");
  cmd->add_option("--ladder", opt->ladder,
                  "comma-separated agents: mean accuracy of each in self-play games");
  cmd->add_option("--games", opt->games, "--ladder: games per agent")->check(CLI::Range(1, 100000));
  cmd->add_option("--depth", opt->depth, "estimates: the search depth (0: the default)")
      ->check(CLI::Range(0, 8));
  cmd->add_flag("--estimate", opt->estimate, "estimate by search even where a table exists");
  cmd->add_flag("--compare", opt->compare,
                "--ladder: compare estimates (--depth) with the table on the same games");
  cmd->add_flag("--all", opt->all, "list forced moves and throws too");
  cmd->add_flag("--json", opt->json, "print the review as JSON");
  cmd->callback([opt] {
    if (!opt->position.empty())
      analyse_position(*opt);
    else if (!opt->ladder.empty())
      analyse_ladder(*opt);
    else if (!opt->file.empty())
      analyse_record(*opt);
    else {
      std::cerr << "ur analyse: give a record file, --position or --ladder\n";
      exit_status() = 1;
    }
  });
}

}  // namespace ur::cli
