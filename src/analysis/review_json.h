// A review as JSON: the one shape that `ur analyse --json` prints and
// GET /api/games/<id>/analysis answers (docs/analysis.md lists every field).
//
// "moves" (the decisions) and "players" keep the fields the replay screen has read since the
// first analysis (event, seat, legal, from, to, best, value, best_value, cost, grade; seat,
// decisions, best, total_cost, worst_cost); everything else is added beside them: the throws
// and their luck, accuracy, the decomposition, key moves, the graph points, and "estimate"
// (true on the review and on every value when they come from search, not a table).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/review.h"

namespace ur::analysis {

// Optional words for a move ("enter to d3", "c2 -> c5 captures"); the CLI passes its
// describe_move, the server leaves it empty (the client draws moves on its board).
using MoveDescriber = std::function<std::string(const Position&, const Move&)>;

nlohmann::json review_json(const Review& review, const MoveDescriber& describe = {});

// The seat number (1 light, 2 dark) the server and the client count in.
inline int seat_of(Player p) {
  return index_of(p) + 1;
}

}  // namespace ur::analysis
