// `ur rules list` and `ur rules show ID`: the presets and what each one decides.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "rules/presets.h"

namespace ur::cli {
namespace {

const char* start_name(StartPolicy s) {
  switch (s) {
    case StartPolicy::kLight:
      return "light starts";
    case StartPolicy::kDark:
      return "dark starts";
    case StartPolicy::kRollOff:
      return "roll-off (higher move starts, ties thrown again)";
    case StartPolicy::kCoinCall:
      return "coin call (50/50)";
  }
  return "?";
}

void show(const RuleSet& r) {
  std::cout << fmt::format("{} — {}\n", r.to_string(), r.name);
  std::cout << fmt::format("  {}\n", r.summary);
  std::cout << fmt::format("  source:     {}\n", r.citation);
  std::cout << fmt::format("  board:      {}\n", r.board_layout().id);
  std::string p1, p2;
  for (Cell c : r.path.cells[0]) p1 += cell_name(c) + (r.board_layout().is_rosette(c) ? "* " : " ");
  for (Cell c : r.path.cells[1]) p2 += cell_name(c) + (r.board_layout().is_rosette(c) ? "* " : " ");
  std::cout << fmt::format("  path:       {} (N={}), bear off with exactly N+1-i\n", r.path.id,
                           r.path_length());
  std::cout << fmt::format("    light:    [{}] {}-> [{}]\n", cell_name(r.path.start[0]), p1,
                           cell_name(r.path.end[0]));
  std::cout << fmt::format("    dark:     [{}] {}-> [{}]\n", cell_name(r.path.start[1]), p2,
                           cell_name(r.path.end[1]));
  std::cout << fmt::format("  dice:       {} ({} binary dice, p={})\n", r.dice.id, r.dice.dice,
                           r.dice.p_marked);
  for (int k = 0; k <= r.dice.dice; ++k) {
    const ThrowOutcome& o = r.dice.by_k[k];
    std::string what = o.move == 0 ? (o.ends_turn ? "ends the turn" : "no move, turn passes")
                                   : fmt::format("move {}", o.move);
    if (o.extra_throw) what += ", throw again";
    if (!o.may_enter && o.move > 0) what += ", cannot enter";
    std::cout << fmt::format("    k={}  P={:.4f}  {}\n", k, r.dice.probability(k), what);
  }
  std::cout << fmt::format("  pieces:     {}\n", r.pieces);
  const char* entry = r.entry == EntryTarget::kMoveValue    ? "a throw of m enters at index m"
                      : r.entry == EntryTarget::kFixedIndex ? "enters at a fixed index"
                                                            : "enters onto the staging space S";
  std::cout << fmt::format(
      "  entry:      {}{}\n", entry,
      r.entry == EntryTarget::kFixedIndex
          ? fmt::format(" ({}, {})", r.entry_index, cell_name(r.path.cells[0][r.entry_index - 1]))
          : "");
  std::cout << fmt::format("  rosettes:   {}, {}\n", r.safe_rosettes ? "safe" : "not safe",
                           r.rosette_extra ? "extra throw" : "no extra throw");
  std::cout << fmt::format("  captures:   {}{}\n",
                           r.capture_centre_only ? "only on the centre track (rank 2)"
                                                 : "on any shared square that is not safe",
                           r.capture_extra ? ", and a capture grants a throw" : "");
  std::cout << fmt::format("  stacking:   {}\n", r.stacking ? (r.bounce ? "unlimited; landing on "
                                                                          "2+ enemies sends the "
                                                                          "mover back"
                                                                        : "unlimited")
                                                            : "one piece per square");
  std::cout << fmt::format("  turn:       {}\n", r.turn_mode == TurnMode::kThrowChain
                                                     ? "throw chain (until a throw ends it)"
                                                     : "one throw (plus extra throws)");
  std::cout << fmt::format(
      "  start:      {}{}\n", start_name(r.start),
      r.start == StartPolicy::kRollOff && r.use_opening_roll ? ", the winning throw is used" : "");
  std::string specials;
  for (const SquareRule& s : r.squares) {
    if (s.special == Special::kDoubleMove) specials += cell_name(s.cell) + "=double ";
    if (s.special == Special::kForfeit) specials += cell_name(s.cell) + "=forfeit ";
    if (s.rosette_enters_counter) specials += cell_name(s.cell) + "=award ";
  }
  if (!specials.empty()) std::cout << fmt::format("  squares:    {}\n", specials);
  if (r.scored_win)
    std::cout << fmt::format(
        "  scoring:    {} a piece not entered, {} on S, square value x "
        "count on the board\n",
        r.score_not_entered, r.score_staged);
  if (r.stake || r.fine)
    std::cout << fmt::format(
        "  kitty:      stake {} each, fine {} per rosette landing, winner "
        "takes all\n",
        r.stake, r.fine);
}

}  // namespace

void add_rules_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("rules", "List the rule-set presets or show one in full");
  cmd->require_subcommand(1);
  auto* list = cmd->add_subcommand("list", "List every preset with its aliases");
  list->callback([] {
    for (const PresetInfo& p : preset_list()) {
      const RuleSet* r = find_preset(p.id);
      std::string aliases;
      for (const auto& a : p.aliases) aliases += (aliases.empty() ? " (alias " : ", ") + a;
      if (!aliases.empty()) aliases += ")";
      std::cout << fmt::format("{:<16} {}{}\n", p.id, r->name, aliases);
    }
    std::cout << "\nParameters override a preset: finkel(pieces=5,start=rolloff). Keys:\n";
    for (const auto& [k, v] : rule_set_parameters())
      std::cout << fmt::format("  {:<14} {}\n", k, v);
  });
  auto* show_cmd = cmd->add_subcommand("show", "Show one rule set, e.g. ur rules show masters");
  static std::string id;
  show_cmd->add_option("id", id, "preset id or rule-set string")->required();
  show_cmd->callback([] {
    RuleSetResult r = parse_rule_set(id);
    if (auto* e = std::get_if<Error>(&r)) {
      std::cerr << "ur rules show: " << e->message << "\n";
      exit_status() = 2;
      return;
    }
    show(std::get<RuleSet>(r));
  });
}

}  // namespace ur::cli
