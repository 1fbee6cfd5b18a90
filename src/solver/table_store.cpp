#include "solver/table_store.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "solver/value_iteration.h"

namespace ur::solver {

std::string table_file_name(const std::string& rules) {
  return table_file_name(rules, 0);
}

std::string table_file_name(const std::string& rules, int endgame) {
  std::string name;
  for (char c : rules) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name + (endgame > 0 ? ".endgame" + std::to_string(endgame) : "") + ".urt";
}

std::string table_path(const std::string& data_dir, const std::string& rules) {
  return table_path(data_dir, rules, 0);
}

std::string table_path(const std::string& data_dir, const std::string& rules, int endgame) {
  return (std::filesystem::path(data_dir.empty() ? "." : data_dir) / "tables" /
          table_file_name(rules, endgame))
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

bool SolvedTable::covers(const Position& q) const {
  if (q.is_over()) return true;
  if (q.phase == Phase::kStart || q.phase == Phase::kRollOff) return endgame() == 0;
  return index->contains(q);
}

std::string SolvedTable::outside(const Position& q) const {
  if (covers(q)) return "";
  const int P = engine->rules().pieces, off = engine->path_length() + 1;
  return "the position is outside the endgame table of " + engine->rules().to_string() +
         " (it holds the positions where each side has at most " + std::to_string(endgame()) +
         " pieces left; light has " + std::to_string(P - q.count[0][off]) + ", dark " +
         std::to_string(P - q.count[1][off]) + ")";
}

namespace {

// The file at `path`, opened, verified and read with the index its encoding names.
TableLookup open_file(std::shared_ptr<const Engine> engine, const std::string& path) {
  const std::string name = engine->rules().to_string();
  TableLookup out;
  out.state = TableState::kRefused;
  TableResult r = Table::open(path, name);
  if (auto* e = std::get_if<Error>(&r)) {
    out.why = e->message;
    return out;
  }
  auto table = std::get<std::shared_ptr<const Table>>(std::move(r));
  // A rule set the dense index serves may also have been solved in the multiset encoding
  // (`ur solve --encoding multiset`), and an endgame table names its k: read the file with the
  // index it was made with.
  const std::string& encoding = table->info().encoding;
  StateIndexResult ir = StateIndex::for_table(*engine, encoding);
  if (auto* e = std::get_if<Error>(&ir)) {
    out.why = "table " + path + ": " + e->message;
    return out;
  }
  auto index = std::make_shared<const StateIndex>(std::get<StateIndex>(std::move(ir)));
  if (encoding != index->encoding_id() || table->size() != index->size()) {
    out.why = "table " + path + ": state encoding '" + encoding +
              "' does not match this build's '" + index->encoding_id() + "'";
    return out;
  }
  out.state = TableState::kReady;
  out.solved = {std::move(table), std::move(index), std::move(engine)};
  return out;
}

}  // namespace

TableLookup open_table(const RuleSet& rules, const std::string& path, bool exists) {
  const std::string name = rules.to_string();
  auto engine = std::make_shared<const Engine>(rules);
  if (exists) return open_file(std::move(engine), path);
  TableLookup out;
  StateIndexResult ir = StateIndex::create(*engine);
  if (auto* e = std::get_if<Error>(&ir)) {
    out.state = TableState::kUnsolvable;
    out.why = e->message;
    return out;
  }
  if (std::string why = ValueIteration::cannot_solve(std::get<StateIndex>(ir)); !why.empty()) {
    out.state = TableState::kUnsolvable;  // Murray's and the boxed game's seven counters
    out.why = name + " cannot be solved whole: " + why + " (an endgame table can be: `ur solve " +
              "--rules '" + name + "' --endgame K`)";
    return out;
  }
  out.state = TableState::kMissing;
  out.why = "no table available for " + name + " (looked for " + path +
            "; make one with `ur solve --rules '" + name + "'`)";
  return out;
}

TableStore::TableStore(const std::string& data_dir)
    : tables_dir_(std::filesystem::path(table_path(data_dir, "x")).parent_path().string()) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(tables_dir_, ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".urt") files_.insert(it->path().filename().string());
}

std::string TableStore::path_for(const std::string& rules, int endgame) const {
  return (std::filesystem::path(tables_dir_) / table_file_name(rules, endgame)).string();
}

bool TableStore::has_file(const std::string& rules, int endgame) const {
  std::lock_guard lock(mutex_);
  return files_.count(table_file_name(rules, endgame)) > 0;
}

int TableStore::endgame_on_disk(const std::string& rules) const {
  std::lock_guard lock(mutex_);
  for (int k = kMaxPieces; k > 0; --k)
    if (files_.count(table_file_name(rules, k)) > 0) return k;
  return 0;
}

void TableStore::add(const std::string& rules, int endgame) {
  std::lock_guard lock(mutex_);
  files_.insert(table_file_name(rules, endgame));
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
  TableLookup answer = open_table(rules, path_for(name), exists);
  if (answer.state == TableState::kUnsolvable || answer.state == TableState::kMissing)
    if (const int k = endgame_on_disk(name); k > 0) {
      TableLookup endgame = open_table(rules, path_for(name, k), true);
      // A refused endgame file says why; the whole table's absence is the lesser news.
      answer = std::move(endgame);
    }
  return remember(name, std::move(answer), generation);
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
