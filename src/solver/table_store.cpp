#include "solver/table_store.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "solver/value_iteration.h"

namespace ur::solver {

std::string table_file_name(const std::string& rules) {
  std::string name;
  for (char c : rules) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name + ".urt";
}

std::string table_path(const std::string& data_dir, const std::string& rules) {
  return (std::filesystem::path(data_dir.empty() ? "." : data_dir) / "tables" /
          table_file_name(rules))
      .string();
}

double table_value(const Table& table, const StateIndex& index, const Engine& engine,
                   const Position& q, Player pov) {
  if (q.is_over()) return q.turn == pov ? 1.0 : 0.0;
  if (q.is_decision()) {
    MoveList moves;
    engine.legal_moves(q, moves);
    double best = 0;  // the decider's best
    for (const Move& m : moves) {
      Position r = q;
      engine.apply_move(r, m);
      best = std::max(best, table_value(table, index, engine, r, q.turn));
    }
    return q.turn == pov ? best : 1.0 - best;
  }
  const double v = table.value(index.rank(q));
  return q.turn == pov ? v : 1.0 - v;
}

double SolvedTable::value(const Position& q, Player pov) const {
  return table_value(*table, *index, *engine, q, pov);
}

TableLookup open_table(const RuleSet& rules, const std::string& path, bool exists) {
  const std::string name = rules.to_string();
  TableLookup out;
  auto engine = std::make_shared<const Engine>(rules);
  StateIndexResult ir = StateIndex::create(*engine);
  if (auto* e = std::get_if<Error>(&ir)) {
    out.state = TableState::kUnsolvable;
    out.why = e->message;
    return out;
  }
  auto index = std::make_shared<const StateIndex>(std::get<StateIndex>(std::move(ir)));
  if (std::string why = ValueIteration::cannot_solve(*index); !why.empty()) {
    out.state = TableState::kUnsolvable;  // Murray's and the boxed game's seven counters
    out.why = name + " cannot be solved whole: " + why;
    return out;
  }
  if (!exists) {
    out.state = TableState::kMissing;
    out.why = "no table available for " + name + " (looked for " + path +
              "; make one with `ur solve --rules '" + name + "'`)";
    return out;
  }
  TableResult r = Table::open(path, name);
  if (auto* e = std::get_if<Error>(&r)) {
    out.state = TableState::kRefused;
    out.why = e->message;
    return out;
  }
  // A rule set the dense index serves may also have been solved in the multiset encoding
  // (`ur solve --encoding multiset`): read the file with the index it was made with.
  const std::string& encoding = std::get<std::shared_ptr<const Table>>(r)->info().encoding;
  if (encoding != index->encoding_id())
    if (StateIndexResult m = StateIndex::for_table(*engine, encoding);
        std::holds_alternative<StateIndex>(m))
      index = std::make_shared<const StateIndex>(std::get<StateIndex>(std::move(m)));
  if (encoding != index->encoding_id() ||
      std::get<std::shared_ptr<const Table>>(r)->size() != index->size()) {
    out.state = TableState::kRefused;
    out.why = "table " + path + ": state encoding '" + encoding +
              "' does not match this build's '" + index->encoding_id() + "'";
    return out;
  }
  out.state = TableState::kReady;
  out.solved = {std::get<std::shared_ptr<const Table>>(r), std::move(index), std::move(engine)};
  return out;
}

TableStore::TableStore(const std::string& data_dir)
    : tables_dir_(std::filesystem::path(table_path(data_dir, "x")).parent_path().string()) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(tables_dir_, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".urt") files_.insert(it->path().filename().string());
}

std::string TableStore::path_for(const std::string& rules) const {
  return (std::filesystem::path(tables_dir_) / table_file_name(rules)).string();
}

bool TableStore::has_file(const std::string& rules) const {
  std::lock_guard lock(mutex_);
  return files_.count(table_file_name(rules)) > 0;
}

void TableStore::add(const std::string& rules) {
  std::lock_guard lock(mutex_);
  files_.insert(table_file_name(rules));
  answers_.erase(rules);
  ++generation_;
}

TableLookup TableStore::remember(const std::string& key, TableLookup answer,
                                 std::uint64_t generation) const {
  std::lock_guard lock(mutex_);
  // An answer found before an add() may be stale: it is given to this caller, not kept.
  if (generation != generation_) return answer;
  // Two threads may have opened the same table at once: the first answer stays, so every
  // caller shares one mapping and one index.
  return answers_.emplace(key, std::move(answer)).first->second;
}

TableLookup TableStore::find(const RuleSet& rules) const {
  const std::string name = rules.to_string();
  std::uint64_t generation = 0;
  bool exists = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = answers_.find(name); it != answers_.end()) return it->second;
    generation = generation_;
    exists = files_.count(table_file_name(name)) > 0;
  }
  // Opened outside the lock: indexing a rule set takes a moment, and other rule sets' answers
  // need not wait for it.
  return remember(name, open_table(rules, path_for(name), exists), generation);
}

TableLookup TableStore::find_file(const RuleSet& rules, const std::string& path) const {
  const std::string key = path + "\n" + rules.to_string();
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    if (auto it = answers_.find(key); it != answers_.end()) return it->second;
    generation = generation_;
  }
  std::error_code ec;
  TableLookup answer = open_table(rules, path, std::filesystem::exists(path, ec));
  // A file named by its caller is looked at again until it opens: the caller may be about to
  // put it there (a UEP controller setting Table after writing the file).
  if (!answer.ready()) return answer;
  return remember(key, std::move(answer), generation);
}

TableLookup find_table(const TableStore* tables, const RuleSet& rules, const std::string& path) {
  if (tables != nullptr) return path.empty() ? tables->find(rules) : tables->find_file(rules, path);
  if (!path.empty()) {
    std::error_code ec;
    return open_table(rules, path, std::filesystem::exists(path, ec));
  }
  TableLookup none;
  none.why = "no table available for " + rules.to_string() + " (no data directory)";
  return none;
}

}  // namespace ur::solver
