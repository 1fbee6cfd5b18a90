// PuzzleSeeder: puzzles out of the box. A server whose database holds fewer puzzles of a rule
// set than its target generates more in the background, from the rule set's solved table
// (analysis/puzzle_generate.h), and stores them (Storage::add_puzzles): at start for the tables
// already there, and within a period of the background solve writing a new one. The thread runs
// at the lowest CPU priority and stores a batch at a time, so it never holds the server up; a
// rule set without a table gets none (docs/puzzles.md, "Puzzles out of the box").
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "rules/rule_set.h"
#include "server/storage/storage.h"

namespace ur::solver {
class TableStore;
}

namespace ur::server {

// A puzzle line of `ur puzzles generate` (docs/puzzles.md, "File") as a stored row, starting at
// the rating of its difficulty.
PuzzleRow puzzle_row(const nlohmann::json& puzzle);

// A rule set the seeder keeps puzzles of, and how many.
struct SeedTarget {
  RuleSet rules;
  std::size_t count = 0;
};

class PuzzleSeeder {
 public:
  PuzzleSeeder(Storage& storage, const solver::TableStore& tables,
               std::chrono::milliseconds period = std::chrono::seconds(60),
               std::vector<SeedTarget> targets = preset_targets());
  ~PuzzleSeeder();  // stops and joins
  PuzzleSeeder(const PuzzleSeeder&) = delete;
  PuzzleSeeder& operator=(const PuzzleSeeder&) = delete;

  void start();
  void stop();

  // How many puzzles of a preset the seeder keeps stored: 20,000 for finkel, 2,000 for others.
  static std::size_t target(std::string_view preset);
  // Every preset with its target: what a server seeds.
  static std::vector<SeedTarget> preset_targets();
  // One pass over the targets whose rule set has a solved table: generates and stores at most
  // `batch` new puzzles of each one below its target (never beyond it); returns how many it
  // stored. The generator's seed is
  // the stored count, so nodes seeding the same database at once make the same puzzles, which
  // are stored once.
  int top_up(std::size_t batch);

 private:
  void run();

  Storage& storage_;
  const solver::TableStore& tables_;
  std::chrono::milliseconds period_;
  std::vector<SeedTarget> targets_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ur::server
