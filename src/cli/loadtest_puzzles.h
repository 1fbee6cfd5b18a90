// `ur loadtest --puzzles N` (cmd_loadtest_puzzles.cpp): the puzzle mode of the load test.
#pragma once

namespace ur::cli {

struct PuzzleLoadOptions {
  int puzzles = 100'000;  // stored before the run
  int solvers = 500;      // accounts solving at once, one HTTP connection each
  double duration = 30;   // seconds measured, after every solver has registered
  int think_ms = 1000;    // mean pause before each request
  bool json_out = false;
  // The database, as `ur serve --db` names it ("postgresql://…", "sqlite:PATH"): "" a fresh
  // SQLite file in a temporary directory. A named one keeps its puzzles and accounts after the
  // run, so the accounts' names carry the run's start time.
  std::string db;
};

// Starts a server in this process with `puzzles` puzzles stored, registers `solvers` accounts
// and has each one ask for its next puzzle and answer it, over and over; prints the latency of
// GET /api/puzzles/next (p50/p90/p99/max) and of the attempts. Exit status 1 on any error.
int run_puzzle_loadtest(const PuzzleLoadOptions& o);

}  // namespace ur::cli
