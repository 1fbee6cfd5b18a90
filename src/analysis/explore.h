// The explorer: every throw and every legal move of one position with its winning chance.
//
// At a position awaiting a throw: for each throw its probability, the thrower's chance after
// it (with the best decision that follows, or the pass) and, where a decision follows, every
// legal move with the decider's chance after it. At a position awaiting a decision: every
// legal move. Values come from a ValueSource like the review's (exact from a table, else
// estimates), and the best move of each list is the first of the highest value, as the
// perfect player picks it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/value_source.h"

namespace ur::analysis {

struct ExploredMove {
  Move move{};
  double value = 0;  // the decider's winning chance after the move
  bool best = false;
};

struct ExploredThrow {
  int outcome = 0;  // the raw throw (the coin call: 0 light starts, 1 dark)
  double probability = 0;
  double value = 0;                 // the thrower's chance after it
  Position after{};                 // the position the throw leads to
  std::vector<ExploredMove> moves;  // empty when the throw passes (or ends the start)
};

struct Exploration {
  Position position{};
  Player actor{};    // who throws or decides
  double value = 0;  // the actor's winning chance
  bool estimate = false;
  std::vector<ExploredThrow> throws;  // a position awaiting a throw
  std::vector<ExploredMove> moves;    // a position awaiting a decision
};

Exploration explore(ValueSource& source, const Position& p);

// As JSON (moves described by `describe` when given, as in review_json.h).
nlohmann::json exploration_json(
    const Engine& engine, const Exploration& x,
    const std::function<std::string(const Position&, const Move&)>& describe = {});

}  // namespace ur::analysis
