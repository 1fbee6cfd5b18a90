// Board shapes and squares in the UR-AN coordinate convention of docs/rules.md §1.
//
// A cell is a (file, rank) pair, files a..l (1..12) along the long axis and ranks 1..3 across
// it, packed into one small integer so that a set of cells fits in a 64-bit mask. Rank 1 is
// the private row of light (P1), rank 3 that of dark (P2), rank 2 the shared middle row. The
// gap cells e1/f1/e3/f3 are not squares; they name the off-board start and bear-off points.
//
// A board shape only says which cells are squares and which carry which marking; what a
// marking does (safe? extra throw? award?) is decided by the rule set (rule_set.h), so one
// shape serves every preset that plays on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ur {

// A cell id: (rank - 1) * kFiles + (file - 1). kNoCell marks "not on the board".
using Cell = std::uint8_t;
inline constexpr int kFiles = 12;
inline constexpr int kRanks = 3;
inline constexpr int kCells = kFiles * kRanks;  // 36: every cell mask fits in 64 bits
inline constexpr Cell kNoCell = 0xff;

constexpr Cell make_cell(int file, int rank) {
  return static_cast<Cell>((rank - 1) * kFiles + (file - 1));
}
constexpr int cell_file(Cell c) {
  return c % kFiles + 1;
}
constexpr int cell_rank(Cell c) {
  return c / kFiles + 1;
}

// "d1" -> cell; nullopt for anything that is not a file a..l followed by a rank 1..3.
std::optional<Cell> parse_cell(std::string_view name);
std::string cell_name(Cell c);

// The British Museum markings used by the boxed game (docs/rules.md §2.1).
enum class Marking : std::uint8_t {
  kPlain,
  kRosette,
  kEyes,
  kFiveCircles,
  kQuincunxes,
  kGrid,
  kZigZag
};

struct Square {
  Cell cell = kNoCell;
  Marking marking = Marking::kPlain;
  int dots = 0;  // inlaid dots on the British Museum board; the boxed game's square value
};

enum class BoardShape : std::uint8_t { kStandard, kAseb };

struct Board {
  BoardShape shape = BoardShape::kStandard;
  std::string id;               // "STD20", "ASEB20"
  std::vector<Square> squares;  // every square, in file-then-rank order
  int files = 8;                // how many files the drawing needs (8 or 12)

  const Square* find(Cell c) const;
  bool is_rosette(Cell c) const;
};

const Board& standard_board();  // STD20 with the British Museum markings of §2.1
const Board& aseb_board();      // ASEB20

}  // namespace ur
