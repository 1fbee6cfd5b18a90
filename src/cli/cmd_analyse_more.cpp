// `ur analyse --position P [--rules R]`: every throw and legal move of one position with its
// winning chance (analysis::explore); `ur analyse --ladder A,B,... [--games N]`: the mean
// accuracy of computer players in self-play (analysis::self_play_accuracy), and with
// --compare how far search estimates are from the table on the same games.
#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <string>

#include "analysis/explore.h"
#include "analysis/ladder.h"
#include "cli/analyse_views.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "engine/notation.h"

namespace ur::cli {
namespace {

void print_moves(const Engine& engine, const Position& at,
                 const std::vector<analysis::ExploredMove>& moves, const char* est) {
  for (const analysis::ExploredMove& m : moves)
    std::cout << fmt::format("    {:<28} {}{:.4f}{}\n", describe_move(engine, at, m.move), est,
                             m.value, m.best ? "  best" : "");
}

}  // namespace

void analyse_position(const AnalyseOptions& opt) {
  std::optional<RuleSet> rules = rules_option("analyse", opt.rules);
  if (!rules) return;
  analysis::OpenedSource src = open_for(*rules, opt);
  if (!src.source) {
    std::cerr << "ur analyse: " << src.why << "\n";
    exit_status() = 1;
    return;
  }
  const Engine& engine = src.source->engine();
  PositionResult pr = parse_position_string(engine, opt.position);
  if (auto* e = std::get_if<Error>(&pr)) {
    // The notation's message starts by quoting the text; the person typed it, so say why only.
    std::string why = e->message;
    const std::string quoted = "position '" + opt.position + "': ";
    if (why.rfind(quoted, 0) == 0) why = why.substr(quoted.size());
    std::cerr << "ur analyse: the position string does not parse: " << why
              << " (docs/notation.md)\n";
    exit_status() = 1;
    return;
  }
  const analysis::Exploration x = analysis::explore(*src.source, std::get<Position>(pr));
  if (opt.json) {
    auto describe = [&](const Position& p, const Move& m) { return describe_move(engine, p, m); };
    std::cout << analysis::exploration_json(engine, x, describe).dump(2) << "\n";
    return;
  }
  const char* est = x.estimate ? "~" : "";
  std::cout << fmt::format("{} {}: {} {}, winning chance {}{:.4f}{}\n", rules->to_string(),
                           to_position_string(engine, x.position), player_name(x.actor),
                           x.position.is_over()     ? "has won"
                           : x.position.is_chance() ? "to throw"
                                                    : "to decide",
                           est, x.value,
                           x.estimate ? " (ESTIMATED by " + src.source->name() + ")" : "");
  if (x.position.is_decision()) print_moves(engine, x.position, x.moves, est);
  for (const analysis::ExploredThrow& t : x.throws) {
    std::cout << fmt::format("  throw {} (p {:.4f}): {}{:.4f}{}\n", t.outcome, t.probability, est,
                             t.value, t.moves.empty() ? "  passes" : "");
    print_moves(engine, t.after, t.moves, est);
  }
}

namespace {

// Which grades the estimate takes for which: a row per exact grade, a column per estimated one.
void print_confusion(const analysis::EstimateCheck& k) {
  const int first = static_cast<int>(analysis::Grade::kBest);
  std::string head = "  exact \\ estimated";
  for (int g = first; g < analysis::kGradeCount; ++g)
    head += fmt::format(" {:>10}", analysis::grade_name(static_cast<analysis::Grade>(g)));
  std::cout << head << "\n";
  for (int e = first; e < analysis::kGradeCount; ++e) {
    std::string row =
        fmt::format("  {:<18}", analysis::grade_name(static_cast<analysis::Grade>(e)));
    for (int g = first; g < analysis::kGradeCount; ++g)
      row += fmt::format(" {:>10}", k.confusion[e][g]);
    std::cout << row << "\n";
  }
}

}  // namespace

void analyse_ladder(const AnalyseOptions& opt) {
  std::optional<RuleSet> rules = rules_option("analyse", opt.rules);
  if (!rules) return;
  AnalyseOptions exact_opt = opt;
  exact_opt.estimate = false;
  analysis::OpenedSource src = open_for(*rules, exact_opt);
  if (!src.source || src.table != analysis::TableState::kReady) {
    std::cerr << "ur analyse: the ladder needs a solved table: " << src.why << "\n";
    exit_status() = 1;
    return;
  }
  auto engine = std::make_shared<const Engine>(*rules);
  std::stringstream list(opt.ladder);
  for (std::string spec; std::getline(list, spec, ',');) {
    if (spec == "perfect" && !opt.table.empty()) spec = "perfect(table=" + opt.table + ")";
    if (opt.compare) {
      auto guess = analysis::estimate_source(engine, &table_store(), opt.depth);
      auto c =
          analysis::check_estimate(engine, *src.source, *guess, spec, opt.games, 1, &table_store());
      if (auto* e = std::get_if<Error>(&c)) {
        std::cerr << "ur analyse: " << e->message << "\n";
        exit_status() = 1;
        return;
      }
      const analysis::EstimateCheck& k = std::get<analysis::EstimateCheck>(c);
      std::cout << fmt::format(
          "{:<22} {}: same grade {}/{} ({:.1f}%), winning chance error mean {:.4f} max {:.4f}, "
          "accuracy error {:.1f}, loss a decision {:.4f} (exact {:.4f}), {:.3f} s a game\n",
          spec, guess->name(), k.same_grade(), k.decisions,
          100.0 * k.same_grade() / std::max(1, k.decisions), k.mean_error, k.max_error,
          k.accuracy_error, k.loss_estimate, k.loss_exact,
          k.estimate_seconds / std::max(1, k.games));
      print_confusion(k);
      continue;
    }
    auto entry =
        analysis::self_play_accuracy(engine, *src.source, spec, opt.games, 1, &table_store());
    if (auto* e = std::get_if<Error>(&entry)) {
      std::cerr << "ur analyse: " << e->message << "\n";
      exit_status() = 1;
      return;
    }
    const analysis::LadderEntry& l = std::get<analysis::LadderEntry>(entry);
    std::cout << fmt::format(
        "{:<22} accuracy {:6.2f} (sd {:5.2f}, {} games), mean loss {:.5f} (95% CI {:.5f} .. "
        "{:.5f}) over {} decisions, mean luck {:+.5f}\n",
        spec, l.accuracy, l.accuracy_sd, l.games, l.mean_loss,
        std::max(0.0, l.mean_loss - l.loss_ci95), l.mean_loss + l.loss_ci95, l.decisions,
        l.mean_luck);
  }
}

}  // namespace ur::cli
