// Migration 15 in both dialects (sql_dialects.cpp lists it): the index the next puzzle is chosen
// by (docs/puzzles.md, "Choosing the next puzzle"). (rules, rating, id) replaces (rules, rating):
// it answers "the nearest rating at or above (below) x" as before and, among the puzzles of one
// rating, "the first id at or after a random one" without sorting them, which is how puzzles
// sharing a rating are served in a random order.
#pragma once

namespace ur::server::sql {

inline constexpr const char* kMigration15 = R"sql(
  CREATE INDEX puzzles_pick ON puzzles(rules, rating, id);
  DROP INDEX puzzles_rating;
)sql";

}  // namespace ur::server::sql
