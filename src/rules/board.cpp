#include "rules/board.h"

namespace ur {

std::optional<Cell> parse_cell(std::string_view name) {
  if (name.size() != 2) return std::nullopt;
  char f = name[0];
  if (f >= 'A' && f <= 'L') f = static_cast<char>(f - 'A' + 'a');
  if (f < 'a' || f > 'l' || name[1] < '1' || name[1] > '3') return std::nullopt;
  return make_cell(f - 'a' + 1, name[1] - '0');
}

std::string cell_name(Cell c) {
  if (c == kNoCell || c >= kCells) return "--";
  return std::string{static_cast<char>('a' + cell_file(c) - 1),
                     static_cast<char>('0' + cell_rank(c))};
}

const Square* Board::find(Cell c) const {
  for (const Square& s : squares)
    if (s.cell == c) return &s;
  return nullptr;
}

bool Board::is_rosette(Cell c) const {
  const Square* s = find(c);
  return s != nullptr && s->marking == Marking::kRosette;
}

namespace {

Square sq(const char* name, Marking m, int dots) {
  return Square{*parse_cell(name), m, dots};
}

Board make_standard() {
  using M = Marking;
  Board b;
  b.shape = BoardShape::kStandard;
  b.id = "STD20";
  b.files = 8;
  // docs/rules.md §2.1, read off the British Museum board BM 120834.
  b.squares = {
      sq("a1", M::kRosette, 0), sq("b1", M::kEyes, 4),        sq("c1", M::kFiveCircles, 5),
      sq("d1", M::kEyes, 4),    sq("g1", M::kRosette, 0),     sq("h1", M::kZigZag, 5),
      sq("a2", M::kGrid, 12),   sq("b2", M::kFiveCircles, 5), sq("c2", M::kQuincunxes, 20),
      sq("d2", M::kRosette, 0), sq("e2", M::kFiveCircles, 5), sq("f2", M::kQuincunxes, 20),
      sq("g2", M::kEyes, 4),    sq("h2", M::kFiveCircles, 5), sq("a3", M::kRosette, 0),
      sq("b3", M::kEyes, 4),    sq("c3", M::kFiveCircles, 5), sq("d3", M::kEyes, 4),
      sq("g3", M::kRosette, 0), sq("h3", M::kZigZag, 5),
  };
  return b;
}

Board make_aseb() {
  using M = Marking;
  Board b;
  b.shape = BoardShape::kAseb;
  b.id = "ASEB20";
  b.files = 12;
  for (const char* n : {"a1", "b1", "c1", "d1", "a3", "b3", "c3", "d3"})
    b.squares.push_back(sq(n, n[0] == 'a' ? M::kRosette : M::kPlain, 0));
  for (const char* n : {"a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "j2", "k2", "l2"}) {
    bool rosette = n[0] == 'd' || n[0] == 'h' || n[0] == 'l';
    b.squares.push_back(sq(n, rosette ? M::kRosette : M::kPlain, 0));
  }
  return b;
}

}  // namespace

const Board& standard_board() {
  static const Board b = make_standard();
  return b;
}

const Board& aseb_board() {
  static const Board b = make_aseb();
  return b;
}

}  // namespace ur
