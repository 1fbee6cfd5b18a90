// TableStore: the solved tables of one data directory, found, opened, verified, indexed and
// cached in one place, shared by every agent, level, analysis and request of a process.
//
// Built once at start-up from the data directory (the command line's --data-dir or
// $UR_DATA_DIR, read in src/cli/): it lists DATA_DIR/tables/*.urt then and never looks at the
// disk again to answer "is there a table for this rule set?". The first question about a rule
// set opens, verifies and indexes its table (or finds that there is none, or that the rule set
// cannot be solved) and every later one gets the same answer from memory, on any thread. A table
// written while the process runs (the server's background solve) becomes visible through add().
//
// A table named by path (`perfect(table=FILE)`, `--table FILE`) is opened through the store too,
// once per path, so an explicit file is verified and indexed once as well; a named file that
// does not open is looked at again at the next call (its caller may be about to write it).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "solver/state_index.h"
#include "solver/table_file.h"

namespace ur::solver {

// A verified table, the index it is read with and the engine the index points into.
struct SolvedTable {
  std::shared_ptr<const Table> table;
  std::shared_ptr<const StateIndex> index;
  std::shared_ptr<const Engine> engine;

  // 0 for a table of the whole game; k for an endgame table, which holds only the positions
  // where each side has at most k pieces left to bear off.
  int endgame() const { return index ? index->endgame() : 0; }
  // Whether value() may be asked about q: every position of the game for a whole table; for an
  // endgame table a finished game or a position past the start where both sides have at most k
  // pieces left (moves only bear pieces off, so every position after it is covered too).
  bool covers(const Position& q) const;
  // Why q is outside an endgame table, for people ("" when covers(q)).
  std::string outside(const Position& q) const;

  // The chance of `pov` in q: a position awaiting a throw read from the table, a finished
  // game, or a decision inside a turn (a move; the boxed game's award, double or forfeit move)
  // taken by whoever decides there. Not the start's roll-off or coin call (analysis/ does it).
  // q must be covered (covers(q)); callers of an endgame table ask first.
  double value(const Position& q, Player pov) const;
};

// The same for a table, index and engine held elsewhere (q within the index: index.contains).
double table_value(const Table& table, const StateIndex& index, const Engine& engine,
                   const Position& q, Player pov);

enum class TableState : std::uint8_t {
  kReady,       // a verified table: exact values
  kUnsolvable,  // no index, or too large to solve whole (Murray's and the boxed game's 7)
  kMissing,     // solvable, but there is no table file
  kRefused,     // a table file is there but failed its checks (corrupt, another rule set...)
};

struct TableLookup {
  TableState state = TableState::kMissing;
  SolvedTable solved;  // kReady only
  std::string why;     // otherwise: why there is no table, for people (it may name the file)
  bool ready() const { return state == TableState::kReady; }
};

// The file name of a rule set's table: the rule-set string made file-name safe
// ("finkel(pieces=3)" -> "finkel_pieces_3.urt").
std::string table_file_name(const std::string& rules);

// Where the table of `rules` lives in a data directory: DATA_DIR/tables/<file name>.
std::string table_path(const std::string& data_dir, const std::string& rules);

// The file name of a rule set's endgame table with at most k pieces left a side
// ("murray" -> "murray.endgame4.urt"); k = 0 names the whole table.
std::string table_file_name(const std::string& rules, int endgame);
std::string table_path(const std::string& data_dir, const std::string& rules, int endgame);

// Opens, verifies and indexes the table at `path` for `rules`, without caching (TableStore
// caches); `exists` says whether the file is there (the store knows it from its listing).
TableLookup open_table(const RuleSet& rules, const std::string& path, bool exists);

class TableStore {
 public:
  // The tables of `data_dir` (DATA_DIR/tables), listed now. A directory that does not exist
  // holds no table.
  explicit TableStore(const std::string& data_dir);
  TableStore(const TableStore&) = delete;
  TableStore& operator=(const TableStore&) = delete;

  const std::string& tables_dir() const { return tables_dir_; }
  // Where the table of `rules` is (or is to be written): DATA_DIR/tables/<name>.urt.
  std::string path_for(const std::string& rules, int endgame = 0) const;

  // The table of `rules` in the data directory, or why there is none (answered once). Where
  // there is no whole table (a rule set too large to solve, or not solved yet) the endgame
  // table with the most pieces left is the answer when there is one (SolvedTable::endgame).
  TableLookup find(const RuleSet& rules) const;
  // The largest k of an endgame table of `rules` in the data directory, 0 when there is none.
  int endgame_on_disk(const std::string& rules) const;
  // The table at `path` for `rules` (an explicit file), or why not (opened once per path).
  TableLookup find_file(const RuleSet& rules, const std::string& path) const;
  // Whether a verified table of `rules` is in the data directory.
  bool solved(const RuleSet& rules) const { return find(rules).ready(); }
  // Whether a table file of `rules` is in the data directory, verified or refused.
  bool has_file(const std::string& rules, int endgame = 0) const;

  // A table of `rules` has been written at path_for(rules, endgame) since the store was built:
  // the next find() opens and verifies it instead of answering from memory.
  void add(const std::string& rules, int endgame = 0);

 private:
  // Keeps `answer` under `key` unless an add() came since `generation` (it may be stale).
  TableLookup remember(const std::string& key, TableLookup answer, std::uint64_t generation) const;

  std::string tables_dir_;
  mutable std::mutex mutex_;
  std::set<std::string> files_;                         // file names in tables_dir_
  mutable std::map<std::string, TableLookup> answers_;  // by rules, or path + "\n" + rules
  std::uint64_t generation_ = 0;                        // add() calls so far
};

// The table a caller asked for: the file at `path` when one is named, else the table of `rules`
// in `tables` (null: a process without a data directory, which has none).
TableLookup find_table(const TableStore* tables, const RuleSet& rules, const std::string& path);

}  // namespace ur::solver
