// Path pairs: for each player the ordered list of squares a piece walks (docs/rules.md §2.2).
//
// Index 0 is the off-board start (or the boxed game's staging space S), indices 1..N are the
// squares, N+1 is bear-off. A path may visit a square twice (the Murray paths), which is why
// the engine stores a piece's path index and never just its square. Ids are stable strings
// (they appear in saved rule-set strings), written in lower case.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "rules/board.h"

namespace ur {

inline constexpr int kMaxPathLength = 27;  // MURRAY27

struct PathPair {
  std::string id;        // "bell14", "masters16", ...
  std::string citation;  // where the path comes from
  BoardShape board = BoardShape::kStandard;
  std::array<std::vector<Cell>, 2> cells;  // cells[player][i - 1] = square at path index i
  std::array<Cell, 2> start{};             // gap cell naming index 0 (e1 / e3)
  std::array<Cell, 2> end{};               // gap cell naming index N+1

  int length() const { return static_cast<int>(cells[0].size()); }
};

// Every known path pair, and a lookup by id (nullptr when unknown).
const std::vector<PathPair>& all_paths();
const PathPair* find_path(std::string_view id);

}  // namespace ur
