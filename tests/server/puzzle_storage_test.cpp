// Puzzles in storage (migration 11; docs/puzzles.md, "Storage") on every backend: SQLite always,
// PostgreSQL when UR_TEST_PG_URL names a server (ctest's server.postgresql entry). Puzzles are
// stored once by id, the next puzzle is the nearest to the rating and never one the account
// attempted, an attempt is rated once (a replay changes nothing), and attempts of one puzzle
// recorded at once from two storages (two nodes) lose no update of its rating.
#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <set>
#include <thread>

#include "backend_fixture.h"
#include "harness.h"
#include "server/storage/glicko2.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class PuzzleStorage : public BackendTest {
 protected:
  long long count(const std::string& sql) {
    if (pg_) return std::stoll(pg_query_value(pg_->url(), sql));
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open((dir_ / "ur.db").c_str(), &h), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
  }

  static std::string hex_id(int i) {
    return fmt::format("{:016x}", (static_cast<std::uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ull);
  }

  static PuzzleRow puzzle(const std::string& id, double rating, const std::string& themes = ",") {
    PuzzleRow p;
    p.id = id;
    p.rules = "finkel";
    p.position = "L4/0000006/0000005";
    p.throw_k = 4;
    p.moves = R"([{"move":"0->4","value":0.45},{"move":"6->10","value":0.52}])";
    p.best = "6->10";
    p.themes = themes;
    p.difficulty = 0.5;
    p.rating = rating;
    return p;
  }
};

TEST_P(PuzzleStorage, PuzzlesAreStoredOnceByIdAndFoundNearTheRating) {
  auto s = open();
  EXPECT_EQ(s->add_puzzles({puzzle("a1", 1200), puzzle("a2", 1500, ",capture,"),
                            puzzle("a3", 1800, ",capture,race,")},
                           100),
            3);
  EXPECT_EQ(s->add_puzzles({puzzle("a1", 999), puzzle("a4", 2100)}, 101), 1) << "a1 exists";
  EXPECT_EQ(s->count_puzzles("finkel"), 4);
  EXPECT_EQ(s->count_puzzles("masters"), 0);
  EXPECT_TRUE(s->has_puzzles("finkel"));
  EXPECT_FALSE(s->has_puzzles("masters"));
  EXPECT_EQ(s->find_puzzle("a1")->rating, 1200) << "the first a1 stands";
  EXPECT_EQ(s->find_puzzle("a3")->best, "6->10");
  EXPECT_FALSE(s->find_puzzle("zz"));
  EXPECT_EQ(s->next_puzzle({0, "finkel", "", 1450})->id, "a2");
  EXPECT_EQ(s->next_puzzle({0, "finkel", "", 1300})->id, "a1");
  EXPECT_EQ(s->next_puzzle({0, "finkel", "", 3000})->id, "a4");
  EXPECT_EQ(s->next_puzzle({0, "finkel", "race", 1000})->id, "a3");
  EXPECT_EQ(s->next_puzzle({0, "finkel", "capture", 2500})->id, "a3");
  EXPECT_FALSE(s->next_puzzle({0, "finkel", "bear-off", 1500}));
  EXPECT_FALSE(s->next_puzzle({0, "masters", "", 1500}));
  // The daily puzzle: the first id at or after the key, wrapping past the last.
  EXPECT_EQ(s->daily_puzzle("finkel", "a2")->id, "a2");
  EXPECT_EQ(s->daily_puzzle("finkel", "a35")->id, "a4");
  EXPECT_EQ(s->daily_puzzle("finkel", "f")->id, "a1");
}

TEST_P(PuzzleStorage, PuzzlesSharingARatingAreServedInTurnToAGuest) {
  auto s = open();
  std::vector<PuzzleRow> rows;
  // Ids as the generator writes them (16 hex digits): the next one is drawn at a random id.
  for (int i = 0; i < 40; ++i) rows.push_back(puzzle(hex_id(i), 1500));
  rows.push_back(puzzle("u1", 1900));
  ASSERT_EQ(s->add_puzzles(rows, 1), 41);
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    auto p = s->next_puzzle({0, "finkel", "", 1400 + 4.03 * i});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->rating, 1500) << "always of the nearest rating";
    seen.insert(p->id);
  }
  EXPECT_GE(seen.size(), 8u) << "not the first of the rating every time";
}

TEST_P(PuzzleStorage, AnAttemptIsRatedOnceAndItsPuzzleIsNotServedAgain) {
  auto s = open();
  const auto user = s->create_user("solver", "h", 1);
  ASSERT_TRUE(user);
  s->add_puzzles({puzzle("p1", 1500), puzzle("p2", 1520)}, 1);
  EXPECT_EQ(s->puzzle_rating(user->id).rating, kNewSolver.rating);
  EXPECT_EQ(s->next_puzzle({user->id, "finkel", "", 1500})->id, "p1");
  auto first = s->record_attempt(user->id, "p1", "6->10", true, 10);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->rated);
  const AttemptRatings expected = glicko2_attempt(kNewSolver, {1500, 500, 0.09}, true);
  EXPECT_DOUBLE_EQ(first->after.rating, expected.solver.rating);
  EXPECT_DOUBLE_EQ(first->puzzle_after, expected.puzzle.rating);
  EXPECT_EQ(first->after.attempts, 1);
  EXPECT_EQ(first->after.solved, 1);
  EXPECT_DOUBLE_EQ(s->puzzle_rating(user->id).rating, expected.solver.rating);
  EXPECT_DOUBLE_EQ(s->find_puzzle("p1")->rating, expected.puzzle.rating);
  EXPECT_EQ(s->next_puzzle({user->id, "finkel", "", 1500})->id, "p2") << "p1 was attempted";
  // The same attempt again, or another move at the same puzzle: nothing changes.
  auto again = s->record_attempt(user->id, "p1", "0->4", false, 11);
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->rated);
  EXPECT_DOUBLE_EQ(s->puzzle_rating(user->id).rating, expected.solver.rating);
  EXPECT_EQ(s->puzzle_rating(user->id).attempts, 1);
  EXPECT_EQ(s->find_puzzle("p1")->attempts, 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts"), 1);
  EXPECT_FALSE(s->record_attempt(user->id, "nope", "6->10", true, 12)) << "an unknown puzzle";
  EXPECT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts"), 1);
}

// An account that attempted a run of puzzles around its rating (it solves near it) is served one
// it has not seen, past the run; its rating, read in the same statement, sets the aim.
TEST_P(PuzzleStorage, ARunOfAttemptedPuzzlesAroundTheAimIsSkipped) {
  auto s = open();
  const auto user = s->create_user("runner", "h", 1);
  ASSERT_TRUE(user);
  std::vector<PuzzleRow> rows;
  for (int i = 0; i < 1000; ++i) rows.push_back(puzzle(hex_id(i), 1000 + i));  // 1000..1999
  ASSERT_EQ(s->add_puzzles(rows, 1), 1000);
  std::set<std::string> seen;
  for (int i = 0; i < 400; ++i) {  // everything from 1300 to 1699
    ASSERT_TRUE(s->record_attempt(user->id, hex_id(300 + i), "6->10", i % 2 == 0, 2));
    seen.insert(hex_id(300 + i));
  }
  const double rating = s->puzzle_rating(user->id).rating;
  for (double offset : {-100.0, -3.0, 0.0, 0.5, 42.0, 100.0}) {
    PuzzleQuery q{user->id, "finkel", "", 0};
    q.own_rating = true;
    q.offset = offset;
    auto p = s->next_puzzle(q);
    ASSERT_TRUE(p) << offset;
    EXPECT_FALSE(seen.contains(p->id)) << "served an attempted puzzle at offset " << offset;
    EXPECT_TRUE(p->rating < 1300 || p->rating >= 1700) << p->rating;
    // The same aim given as a plain rating gives the same puzzle: the stored rating was read.
    PuzzleQuery plain{user->id, "finkel", "", rating + offset};
    plain.own_rating = false;
    EXPECT_EQ(std::abs(s->next_puzzle(plain)->rating - (rating + offset)),
              std::abs(p->rating - (rating + offset)));
  }
}

// Every puzzle of a rating but one attempted: that one is served, from any aim, whether the
// probes find it or the walk after them does; with all attempted, none.
TEST_P(PuzzleStorage, TheLastUnattemptedPuzzleIsFoundWhereverItIs) {
  auto s = open();
  const auto user = s->create_user("solver", "h", 1);
  ASSERT_TRUE(user);
  std::vector<PuzzleRow> rows;
  for (int i = 0; i < 200; ++i) rows.push_back(puzzle(hex_id(i), 1500));
  ASSERT_EQ(s->add_puzzles(rows, 1), 200);
  // Attempts written directly, so that the puzzles keep their shared rating (a rated attempt
  // would move each one's): one level of 200, 199 of them attempted.
  count(fmt::format(
      "INSERT INTO puzzle_attempts(user_id, puzzle_id, move, solved, rating_before, rating_after, "
      "puzzle_before, puzzle_after, created_at) SELECT {}, id, '6->10', 1 = 1, 1500, 1500, 1500, "
      "1500, 2 FROM puzzles WHERE id <> '{}' RETURNING 1",
      user->id, hex_id(137)));
  ASSERT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts"), 199);
  for (int k = 0; k < 20; ++k) {
    auto p = s->next_puzzle({user->id, "finkel", "", 1300 + 21.7 * k});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->id, hex_id(137)) << "aim " << 1300 + 21.7 * k;
  }
  ASSERT_TRUE(s->record_attempt(user->id, hex_id(137), "6->10", true, 3));
  EXPECT_FALSE(s->next_puzzle({user->id, "finkel", "", 1500})) << "none left";
  EXPECT_TRUE(s->next_puzzle({0, "finkel", "", 1500})) << "a guest is served any";
}

// Many solvers attempt one puzzle at once through two storages, as two nodes would. Each
// rated attempt stores the puzzle's rating it started from and the one it left: with no lost
// update they form one chain, every attempt starting from a different rating.
TEST_P(PuzzleStorage, AttemptsOfOnePuzzleFromTwoNodesLoseNoUpdate) {
  constexpr int kSolvers = 24;
  auto node_a = open();
  auto node_b = open();
  node_a->add_puzzles({puzzle("hot", 1500)}, 1);
  std::vector<std::int64_t> users;
  for (int i = 0; i < kSolvers; ++i)
    users.push_back(node_a->create_user("s" + std::to_string(i), "h", 1)->id);
  auto solve = [&](Storage& s, int from) {
    for (int i = from; i < kSolvers; i += 2)
      s.record_attempt(users[i], "hot", "6->10", i % 3 != 0, 5);
  };
  std::thread a([&] { solve(*node_a, 0); });
  std::thread b([&] { solve(*node_b, 1); });
  a.join();
  b.join();
  EXPECT_EQ(node_a->find_puzzle("hot")->attempts, kSolvers);
  EXPECT_EQ(count("SELECT COUNT(DISTINCT puzzle_before) FROM puzzle_attempts"), kSolvers);
  // Exactly one attempt starts from the stored start and one ends at the stored rating.
  EXPECT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts WHERE puzzle_before = 1500"), 1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts a WHERE NOT EXISTS (SELECT 1 FROM "
                  "puzzle_attempts b WHERE b.puzzle_before = a.puzzle_after)"),
            1);
  EXPECT_EQ(count("SELECT COUNT(*) FROM puzzle_attempts a, puzzles p WHERE p.id = 'hot' AND "
                  "a.puzzle_after = p.rating"),
            1);
}

INSTANTIATE_TEST_SUITE_P(Backends, PuzzleStorage, ::testing::ValuesIn(storage_backends()),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace ur::server
