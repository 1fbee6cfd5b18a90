#include "server/tables/puzzle_seeder.h"

#include <sys/resource.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "analysis/puzzle_generate.h"
#include "rules/presets.h"
#include "server/accounts/identity.h"
#include "server/log.h"
#include "server/storage/glicko2.h"
#include "solver/table_store.h"

namespace ur::server {
namespace {

constexpr std::size_t kBatch = 500;

}  // namespace

PuzzleRow puzzle_row(const nlohmann::json& j) {
  PuzzleRow p;
  p.id = j.at("id").get<std::string>();
  p.rules = j.at("rules").get<std::string>();
  p.position = j.at("position").get<std::string>();
  p.throw_k = j.at("throw").get<int>();
  p.moves = j.at("moves").dump();
  p.best = j.at("best").get<std::string>();
  p.themes = ",";
  for (const auto& t : j.at("themes")) p.themes += t.get<std::string>() + ",";
  p.difficulty = j.at("difficulty").get<double>();
  const Glicko start = puzzle_start_rating(p.difficulty);
  p.rating = start.rating;
  p.deviation = start.deviation;
  p.volatility = start.volatility;
  return p;
}

PuzzleSeeder::PuzzleSeeder(Storage& storage, const solver::TableStore& tables,
                           std::chrono::milliseconds period, std::vector<SeedTarget> targets)
    : storage_(storage), tables_(tables), period_(period), targets_(std::move(targets)) {}

PuzzleSeeder::~PuzzleSeeder() {
  stop();
}

void PuzzleSeeder::start() {
  thread_ = std::thread([this] { run(); });
}

void PuzzleSeeder::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::size_t PuzzleSeeder::target(std::string_view preset) {
  return preset == "finkel" ? 20'000 : 2'000;
}

std::vector<SeedTarget> PuzzleSeeder::preset_targets() {
  std::vector<SeedTarget> out;
  for (const PresetInfo& info : preset_list())
    out.push_back({*find_preset(info.id), target(info.id)});
  return out;
}

int PuzzleSeeder::top_up(std::size_t batch) {
  int stored = 0;
  for (const SeedTarget& t : targets_) {
    const RuleSet& rules = t.rules;
    if (!tables_.solved(rules)) continue;
    const std::string name = rules.to_string();
    const auto have = static_cast<std::size_t>(storage_.count_puzzles(name));
    if (have >= t.count) continue;
    analysis::OpenedSource src = analysis::open_source(rules, &tables_);
    if (!src.source || !src.source->exact()) continue;
    analysis::PuzzleGenerator gen(*src.source, {analysis::kDefaultPuzzleMargin, 1 + have});
    // A whole batch even when fewer are missing: the first puzzles a seed finds are the
    // commonest positions, often stored already, so a batch of the few missing could add none,
    // and the same seed (the count) would find the same ones next time, short of the target.
    gen.self_play(batch, batch * 100);
    std::vector<PuzzleRow> rows;
    for (const analysis::Puzzle& z : gen.puzzles())
      rows.push_back(puzzle_row(analysis::puzzle_json(src.source->engine(), z)));
    const std::size_t need = t.count - have;
    int added = 0;
    if (rows.size() <= need) {
      added = storage_.add_puzzles(rows, unix_now());
    } else {  // one at a time, up to the target
      for (std::size_t i = 0; i < rows.size() && static_cast<std::size_t>(added) < need; ++i)
        added += storage_.add_puzzles({rows[i]}, unix_now());
    }
    if (added > 0)
      log_line("puzzles: stored " + std::to_string(added) + " of " + name + " (" +
               std::to_string(have + static_cast<std::size_t>(added)) + " of " +
               std::to_string(t.count) + ")");
    stored += added;
  }
  return stored;
}

void PuzzleSeeder::run() {
  // The lowest priority for this thread only (Linux: a thread is a task with its own nice).
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    int stored = 0;
    try {
      stored = top_up(kBatch);
    } catch (const std::exception& e) {
      log_line(std::string("puzzles: ") + e.what());
    }
    lock.lock();
    // A batch stored: straight on to the next; nothing to do: look again after a period.
    if (stored == 0) wake_.wait_for(lock, period_, [this] { return stopping_; });
  }
}

}  // namespace ur::server
