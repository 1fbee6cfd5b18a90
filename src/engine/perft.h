// perft: leaf count of the full throw/decision tree, a deterministic checksum of the rules.
//
// One ply is a throw (every outcome of the chance node counted once, not weighted) together
// with every decision it leads to before the next throw: the move, and in the boxed game the
// rosette-award choice and the opponent's forfeit response. A throw that passes is a ply
// with one continuation. A finished game is a leaf at any depth.
#pragma once

#include <cstdint>

#include "engine/engine.h"

namespace ur {

std::uint64_t perft(const Engine& e, const Position& p, int depth);

}  // namespace ur
