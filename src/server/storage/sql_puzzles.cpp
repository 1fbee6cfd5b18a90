#include "server/storage/sql_puzzles.h"

#include <fmt/format.h>

#include <cstring>
#include <string>

#include "server/storage/glicko2.h"
#include "server/storage/sql_rows.h"

namespace ur::server::sql {
namespace {

constexpr const char* kPuzzleColumns =
    "SELECT p.id, p.rules, p.position, p.throw_k, p.moves, p.best, p.themes, p.difficulty, "
    "p.rating, p.deviation, p.volatility, p.attempts, p.solved, p.created_at FROM puzzles p ";

PuzzleRow to_puzzle(const SqlRow& r) {
  PuzzleRow p;
  p.id = r.text(0);
  p.rules = r.text(1);
  p.position = r.text(2);
  p.throw_k = static_cast<int>(r.integer(3));
  p.moves = r.text(4);
  p.best = r.text(5);
  p.themes = r.text(6);
  p.difficulty = r.real(7);
  p.rating = r.real(8);
  p.deviation = r.real(9);
  p.volatility = r.real(10);
  p.attempts = static_cast<int>(r.integer(11));
  p.solved = static_cast<int>(r.integer(12));
  p.created_at = r.integer(13);
  return p;
}

PuzzleRating to_rating(const SqlRow& r) {
  return PuzzleRating{r.real(0), r.real(1), r.real(2), static_cast<int>(r.integer(3)),
                      static_cast<int>(r.integer(4))};
}

// The rule set ($1) and theme ($2, "" any) of every part of next_puzzle; unseen(x) is "never
// one the account ($3) attempted" for the puzzle id x: one probe of puzzle_attempts' key.
constexpr const char* kRulesTheme =
    "p.rules = $1 AND ($2 = '' OR p.themes LIKE '%,' || $2 || ',%') ";
std::string unseen(const char* id) {
  return std::string(
             "NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = $3 AND "
             "a.puzzle_id = ") +
         id + ") ";
}

// The aim: the account's puzzle rating ($4 true; $5 when it has none) or $5, plus $6.
constexpr const char* kAim =
    "aim(r) AS MATERIALIZED (SELECT CASE WHEN $4 THEN COALESCE((SELECT q.rating FROM "
    "puzzle_ratings q WHERE q.user_id = $3), $5) ELSE $5 END + $6)";

// next_puzzle's statement, which reads only index entries near the aim however many puzzles the
// account has seen. `levels` are the ratings of the filter's puzzles nearest to aim + d and
// aim - d for d = 0, 1, 4, 16, 64, 256, 1024 up to $8 (one index seek each). At each level, the first
// unseen puzzle among the 64 whose id follows $7 (a random id; wrapping to the level's first
// 64), so that puzzles sharing a rating are served in a random order. Of those, the one nearest
// to the aim. A run of puzzles the account has seen next to the aim is skipped by the wider
// levels instead of being walked through.
std::string probe_sql() {
  const std::string walk = std::string("(SELECT w.id FROM (SELECT p.id FROM puzzles p WHERE ") +
                           kRulesTheme + "AND p.rating = l.r AND p.id ";
  const std::string walked = " ORDER BY p.id LIMIT 64) w WHERE " + unseen("w.id") + "LIMIT 1)";
  const std::string level = std::string("(SELECT p.rating FROM puzzles p WHERE ") + kRulesTheme;
  return std::string("WITH RECURSIVE ") + kAim +
         ", d(x) AS (SELECT CAST(0 AS DOUBLE PRECISION) UNION ALL SELECT CASE WHEN x = 0 THEN 1 "
         "ELSE x * 4 END FROM d WHERE x < $8), levels(r) AS MATERIALIZED (SELECT " +
         level + "AND p.rating >= (SELECT r FROM aim) + d.x ORDER BY p.rating LIMIT 1) FROM d " +
         "UNION SELECT " + level +
         "AND p.rating < (SELECT r FROM aim) - d.x ORDER BY p.rating DESC LIMIT 1) FROM d), " +
         "picks(id) AS (SELECT COALESCE(" + walk + ">= $7" + walked + ", " + walk + "< $7" +
         walked + ") FROM levels l WHERE l.r IS NOT NULL) " + kPuzzleColumns +
         "WHERE p.id IN (SELECT id FROM picks) "
         "ORDER BY abs(p.rating - (SELECT r FROM aim)), p.rating DESC LIMIT 1";
}

// When every level of probe_sql is seen: the nearest unseen puzzle at or above the aim, or
// below it, walking the index through the seen ones.
std::string walk_sql() {
  const std::string side = std::string(kPuzzleColumns) + "WHERE " + kRulesTheme + "AND " +
                           unseen("p.id") + "AND p.rating ";
  return std::string("WITH ") + kAim + " SELECT * FROM (SELECT * FROM (" + side +
         ">= (SELECT r FROM aim) ORDER BY p.rating LIMIT 1) a UNION ALL SELECT * FROM (" + side +
         "< (SELECT r FROM aim) ORDER BY p.rating DESC LIMIT 1) b) c "
         "ORDER BY abs(c.rating - (SELECT r FROM aim)), c.rating DESC LIMIT 1";
}

}  // namespace

int add_puzzles(SqlSession& s, const std::vector<PuzzleRow>& puzzles, std::int64_t now) {
  int added = 0;
  for (const PuzzleRow& p : puzzles)
    added += static_cast<int>(
        s.run("INSERT INTO puzzles(id, rules, position, throw_k, moves, best, themes, "
              "difficulty, rating, deviation, volatility, created_at) "
              "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING",
              {p.id, p.rules, p.position, p.throw_k, p.moves, p.best, p.themes, p.difficulty,
               p.rating, p.deviation, p.volatility, now}));
  return added;
}

std::optional<PuzzleRow> find_puzzle(SqlSession& s, std::string_view id) {
  return first(s, std::string(kPuzzleColumns) + "WHERE p.id = $1", {id}, to_puzzle);
}

std::optional<PuzzleRow> next_puzzle(SqlSession& s, const PuzzleQuery& q) {
  static const std::string probe = probe_sql();
  static const std::string walk = walk_sql();
  // The random id puzzles sharing a rating are taken from, drawn from the aim's bits, so that a
  // guest (whom nothing is excluded for) meets another puzzle next time.
  const double drawn_from = q.own_rating ? q.offset : q.rating;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &drawn_from, sizeof bits);
  const std::string from_id = fmt::format("{:016x}", bits * 0x9E3779B97F4A7C15ull);
  const double base = q.own_rating ? kNewSolver.rating : q.rating;
  const double offset = q.own_rating ? q.offset : 0.0;
  std::optional<PuzzleRow> found;
  auto keep = [&found](const SqlRow& r) {
    if (!found) found = to_puzzle(r);
  };
  // The two levels nearest to the aim first (most often one of them has a puzzle the account
  // has not seen), then every level, then the walk.
  for (double widest : {0.0, 1024.0}) {
    s.run_kept(probe, {q.rules, q.theme, q.user_id, q.own_rating, base, offset, from_id, widest},
               keep);
    if (found) return found;
  }
  s.run_kept(walk, {q.rules, q.theme, q.user_id, q.own_rating, base, offset}, keep);
  return found;
}

std::optional<PuzzleRow> daily_puzzle(SqlSession& s, const SqlDialect& d, std::string_view rules,
                                      std::string_view key) {
  const std::string order = std::string(" ORDER BY p.id") + d.bytewise + " LIMIT 1";
  auto found = first(
      s,
      std::string(kPuzzleColumns) + "WHERE p.rules = $1 AND p.id" + d.bytewise + " >= $2" + order,
      {rules, key}, to_puzzle);
  if (found) return found;
  return first(s, std::string(kPuzzleColumns) + "WHERE p.rules = $1" + order, {rules}, to_puzzle);
}

std::int64_t count_puzzles(SqlSession& s, std::string_view rules) {
  return first(s, "SELECT COUNT(*) FROM puzzles WHERE rules = $1", {rules},
               [](const SqlRow& r) { return r.integer(0); })
      .value_or(0);
}

// One seek in the index on (rules, rating, id), however many puzzles there are.
bool has_puzzles(SqlSession& s, std::string_view rules) {
  return first(s, "SELECT 1 FROM puzzles WHERE rules = $1 LIMIT 1", {rules},
               [](const SqlRow&) { return true; })
      .has_value();
}

PuzzleRating puzzle_rating(SqlSession& s, std::int64_t user_id) {
  return first(s,
               "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings "
               "WHERE user_id = $1",
               {user_id}, to_rating)
      .value_or(PuzzleRating{kNewSolver.rating, kNewSolver.deviation, kNewSolver.volatility});
}

std::vector<PuzzleAttemptRow> history(SqlSession& s, std::int64_t user_id, int limit) {
  return all(s,
             "SELECT a.puzzle_id, p.rules, a.move, a.solved, a.rating_before, a.rating_after, "
             "a.created_at FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id "
             "WHERE a.user_id = $1 ORDER BY a.created_at DESC, a.puzzle_id LIMIT $2",
             {user_id, limit}, [](const SqlRow& r) {
               return PuzzleAttemptRow{r.text(0), r.text(1), r.text(2),   r.boolean(3),
                                       r.real(4), r.real(5), r.integer(6)};
             });
}

std::optional<AttemptOutcome> record_attempt(SqlSession& s, const SqlDialect& d,
                                             std::int64_t user_id, std::string_view puzzle_id,
                                             std::string_view move, bool solved, std::int64_t now) {
  // The puzzle's row first, then the account's: every attempt locks in this order.
  auto puzzle = first(
      s,
      std::string("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1") + d.lock_rows,
      {puzzle_id}, [](const SqlRow& r) {
        return Glicko{r.real(0), r.real(1), r.real(2)};
      });
  if (!puzzle) return std::nullopt;
  s.run(
      "INSERT INTO puzzle_ratings(user_id, rating, deviation, volatility) "
      "VALUES($1, $2, $3, $4) ON CONFLICT DO NOTHING",
      {user_id, kNewSolver.rating, kNewSolver.deviation, kNewSolver.volatility});
  const PuzzleRating before = *first(s,
                                     std::string("SELECT rating, deviation, volatility, attempts, "
                                                 "solved FROM puzzle_ratings WHERE user_id = $1") +
                                         d.lock_rows,
                                     {user_id}, to_rating);
  AttemptOutcome out;
  out.before = out.after = before;
  out.puzzle_before = out.puzzle_after = puzzle->rating;
  if (s.run("INSERT INTO puzzle_attempts(user_id, puzzle_id, move, solved, rating_before, "
            "rating_after, puzzle_before, puzzle_after, created_at) "
            "VALUES($1, $2, $3, $4, $5, $5, $6, $6, $7) ON CONFLICT DO NOTHING",
            {user_id, puzzle_id, move, solved, before.rating, puzzle->rating, now}) == 0)
    return out;  // attempted before: nothing changes
  const AttemptRatings r =
      glicko2_attempt({before.rating, before.deviation, before.volatility}, *puzzle, solved);
  out.rated = true;
  out.after = {r.solver.rating, r.solver.deviation, r.solver.volatility, before.attempts + 1,
               before.solved + (solved ? 1 : 0)};
  out.puzzle_after = r.puzzle.rating;
  s.run(
      "UPDATE puzzle_ratings SET rating = $1, deviation = $2, volatility = $3, "
      "attempts = attempts + 1, solved = solved + $4 WHERE user_id = $5",
      {r.solver.rating, r.solver.deviation, r.solver.volatility, solved ? 1 : 0, user_id});
  s.run(
      "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, "
      "attempts = attempts + 1, solved = solved + $4 WHERE id = $5",
      {r.puzzle.rating, r.puzzle.deviation, r.puzzle.volatility, solved ? 1 : 0, puzzle_id});
  s.run(
      "UPDATE puzzle_attempts SET rating_after = $1, puzzle_after = $2 "
      "WHERE user_id = $3 AND puzzle_id = $4",
      {r.solver.rating, r.puzzle.rating, user_id, puzzle_id});
  return out;
}

}  // namespace ur::server::sql
