// The modes of `ur analyse` (cmd_analyse.cpp registers them): a game record's review, one
// position's throws and moves (--position), and the accuracy ladder (--ladder). Each prints
// and sets the exit status; the numbers come from src/analysis/.
#pragma once

#include <string>

#include "analysis/value_source.h"

namespace ur::cli {

struct AnalyseOptions {
  std::string file;              // a game record, "-" for stdin
  std::string table;             // --table: a solved table (default: the rule set's default path)
  std::string svg;               // --svg: write the win-chance graph here
  std::string position;          // --position: explore this position string instead of a record
  std::string rules = "finkel";  // --rules: the rule set of --position and --ladder
  std::string ladder;            // --ladder: comma-separated agent specs
  int games = 200;               // --games: ladder games per agent
  int depth = 0;                 // --depth: the estimate's search depth (0: the rule set's default)
  bool estimate = false;         // --estimate: search even when a table exists
  bool compare = false;          // --compare: estimates against the table on the ladder's games
  bool all = false;
  bool json = false;
};

// The values for `rules`: the table (opt.table, else the default path), else estimates; with
// --estimate always estimates. A --table that does not open leaves `source` empty.
analysis::OpenedSource open_for(const RuleSet& rules, const AnalyseOptions& opt);

void analyse_record(const AnalyseOptions& opt);
void analyse_position(const AnalyseOptions& opt);
void analyse_ladder(const AnalyseOptions& opt);

}  // namespace ur::cli
