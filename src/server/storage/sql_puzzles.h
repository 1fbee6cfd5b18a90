// Puzzles in the SQL storage (sql_puzzles.cpp): the statements of Storage's puzzle calls, over
// one session; SqlStorage runs each in a read or a write.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "server/storage/sql_database.h"
#include "server/storage/storage.h"

namespace ur::server::sql {

int add_puzzles(SqlSession& s, const std::vector<PuzzleRow>& puzzles, std::int64_t now);
std::optional<PuzzleRow> find_puzzle(SqlSession& s, std::string_view id);
std::optional<PuzzleRow> next_puzzle(SqlSession& s, const PuzzleQuery& q);
std::optional<PuzzleRow> daily_puzzle(SqlSession& s, const SqlDialect& d, std::string_view rules,
                                      std::string_view key);
std::int64_t count_puzzles(SqlSession& s, std::string_view rules);
bool has_puzzles(SqlSession& s, std::string_view rules);
PuzzleRating puzzle_rating(SqlSession& s, std::int64_t user_id);
std::vector<PuzzleAttemptRow> history(SqlSession& s, std::int64_t user_id, int limit);
// Inside a write: the dialect's lock_rows locks the puzzle's row, then the account's.
std::optional<AttemptOutcome> record_attempt(SqlSession& s, const SqlDialect& d,
                                             std::int64_t user_id, std::string_view puzzle_id,
                                             std::string_view move, bool solved, std::int64_t now);

}  // namespace ur::server::sql
