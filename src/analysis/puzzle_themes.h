// Puzzle themes: what the best move of a puzzle does, computed from the moves and the position.
//
// Each theme is one rule on the position p (awaiting the mover's move), the best move b and the
// position after it (docs/puzzles.md, "Themes", says the same in words):
//   capture   b hits an enemy piece
//   escape    b moves a piece the enemy could hit with one throw to where it cannot be hit
//   rosette   b lands on a rosette
//   blockade  b lands on the centre rosette (a rosette on both players' paths), or keeps the
//             mover's piece there while another legal move would have moved it off
//   entering  b brings a new piece onto the board
//   race      no piece of either side can ever hit one of the other's again (pure race)
//   bear-off  b bears a piece off
//   safety    after b no piece of the mover can be hit by one enemy throw, while after some
//             other legal move one could
// "Could be hit by one throw" asks the engine for the enemy's moves of every throw as if the
// enemy moved next, so it follows the rule set's safe squares, rosettes and stacking.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace ur::analysis {

enum class Theme : std::uint8_t {
  kCapture,
  kEscape,
  kRosette,
  kBlockade,
  kEntering,
  kRace,
  kBearOff,
  kSafety,
};
inline constexpr int kThemeCount = 8;

// A set of themes as bits (bit i = Theme i).
using ThemeSet = std::uint32_t;
constexpr ThemeSet theme_bit(Theme t) {
  return ThemeSet{1} << static_cast<int>(t);
}

// "capture", "escape", "rosette", "blockade", "entering", "race", "bear-off", "safety".
std::string_view theme_name(Theme t);
// The theme of a name, or false.
bool theme_from_name(std::string_view name, Theme& out);
std::vector<std::string> theme_names(ThemeSet set);
// One short reason per theme, for the player after an attempt ("it hits an enemy piece").
std::string_view theme_reason(Theme t);

// The themes of best move `best` at decision position `p` (p.phase == kAwaitingMove).
ThemeSet puzzle_themes(const Engine& engine, const Position& p, const Move& best);

// Path indices (bit i) of `victim`'s pieces that the other player could hit with one throw if
// it moved next from `p` (any phase; none once the game is over).
std::uint32_t threatened(const Engine& engine, const Position& p, Player victim);

// True when no piece of either side can ever land on a piece of the other again.
bool is_race(const Engine& engine, const Position& p);

}  // namespace ur::analysis
