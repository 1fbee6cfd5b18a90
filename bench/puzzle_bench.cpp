// The next puzzle of a player with 100,000 puzzles stored (a benchmark, not a test): Storage::
// next_puzzle on SQLite, the server's default, for an account that attempted 200 of them, aimed
// at a random rating each time, with and without a theme. The database is built once, in a
// temporary directory, with ratings spread over 800-2,500 and three themes in turn.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include "server/storage/storage.h"

namespace {

using ur::server::PuzzleRow;
using ur::server::Storage;

constexpr int kPuzzles = 100'000;

struct Stored {
  std::filesystem::path dir;
  std::unique_ptr<Storage> storage;
  std::int64_t user = 0;

  Stored() {
    dir = std::filesystem::temp_directory_path() / ("ur_puzzle_bench_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    storage = ur::server::open_storage((dir / "ur.db").string()).storage;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> rating(800, 2500);
    const char* themes[] = {",capture,", ",escape,safety,", ",race,bear-off,"};
    std::vector<PuzzleRow> rows;
    for (int i = 0; i < kPuzzles; ++i) {
      PuzzleRow p;
      char id[17];
      std::snprintf(id, sizeof id, "%016x", i * 2654435761u);
      p.id = id;
      p.rules = "finkel";
      p.position = "L4/0000006/0000005";
      p.throw_k = 4;
      p.moves = R"([{"move":"0->4","value":0.45},{"move":"6->10","value":0.52}])";
      p.best = "6->10";
      p.themes = themes[i % 3];
      p.rating = rating(rng);
      rows.push_back(std::move(p));
    }
    storage->add_puzzles(rows, 1);
    user = storage->create_user("bench", "h", 1)->id;
    for (int i = 0; i < 200; ++i) storage->record_attempt(user, rows[i * 97].id, "6->10", i % 2, 2);
  }
  ~Stored() {
    storage.reset();
    std::filesystem::remove_all(dir);
  }
};

Stored& stored() {
  static Stored s;
  return s;
}

void next_puzzle(benchmark::State& state, const char* theme) {
  Stored& s = stored();
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> aim(1000, 2300);
  for (auto _ : state)
    benchmark::DoNotOptimize(s.storage->next_puzzle({s.user, "finkel", theme, aim(rng)}));
}

void BM_NextPuzzle(benchmark::State& state) {
  next_puzzle(state, "");
}
BENCHMARK(BM_NextPuzzle);

void BM_NextPuzzleOfATheme(benchmark::State& state) {
  next_puzzle(state, "race");
}
BENCHMARK(BM_NextPuzzleOfATheme);

}  // namespace
