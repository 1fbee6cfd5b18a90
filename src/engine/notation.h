// Notation: the one-line position string, positions built from piece lists, and moves in words.
//
// Position string (docs/notation.md):   <actor><state>/<light>/<dark>
//   actor  L or D: the player who acts now (throws or decides); at the end, the winner
//   state  r     awaiting a throw
//          0..9  awaiting a move for raw throw k
//          aL aD awaiting the rosette-award decision; then L / D throws
//          fL fD awaiting the forfeit response; then L / D throws
//          s     the start: roll-off or coin call not thrown yet
//          oK    roll-off: light threw K, dark throws next
//          w     the game is over and the actor has won
//   light, dark: one character per piece, ascending: the path index in base 36 (0 = not
//          entered, or S in staging rule sets; N+1 = borne off), '-' = not entered in
//          staging rule sets.
// Example: Finkel's start is "Lr/0000000/0000000".
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "rules/error.h"

namespace ur {

using PositionResult = Result<Position>;

std::string to_position_string(const Engine& e, const Position& p);
PositionResult parse_position_string(const Engine& e, std::string_view text);

// A player's pieces as path indices, ascending (-1 = not entered in staging rule sets).
std::vector<int> piece_list(const Engine& e, const Position& p, Player pl);

// Builds a position awaiting `turn`'s throw from piece lists; validates everything (piece
// count, index range, one piece per square without stacking, no square shared by light and
// dark, at most one finished player).
PositionResult position_from_pieces(const Engine& e, Player turn, const std::vector<int>& light,
                                    const std::vector<int>& dark);

// A move in words, as `ur moves` and the engine protocol (docs/engine_protocol.md) write it:
// "FROM->TO" with the path indices of `ur moves` ("-1->0" enters a counter onto S), and
// "award_yes" / "award_no" for the boxed rosette award. One token: no spaces.
std::string move_text(const Move& m);

// The legal move of decision position `p` that `text` names, or why there is none (a
// malformed word, a position that awaits no decision, a move that is not legal there).
using MoveResult = Result<Move>;
MoveResult parse_move_text(const Engine& e, const Position& p, std::string_view text);

}  // namespace ur
