// Tests for the text board of `ur play` (src/cli/board_view.h): concrete squares of concrete
// positions on each board shape, in the plain ASCII style that pipes and logs see.
#include "cli/board_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/notation.h"

namespace ur::cli {
namespace {

const BoardStyle kAscii{};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The five columns drawn for (file, rank): line 0 holds the file labels, then rank 3, 2, 1;
// every row starts with "r  " and every square is five columns wide.
std::string square_text(const std::string& board, int file, int rank) {
  const std::vector<std::string> lines = lines_of(board);
  const std::string& row = lines.at(1 + (3 - rank));
  return row.substr(3 + (file - 1) * 5, 5);
}

std::shared_ptr<const Engine> engine_for(const char* rules) {
  return std::make_shared<const Engine>(rule_set_or_throw(rules));
}

Position from_pieces(const Engine& e, Player turn, const std::vector<int>& light,
                     const std::vector<int>& dark) {
  PositionResult r = position_from_pieces(e, turn, light, dark);
  if (auto* err = std::get_if<Error>(&r)) ADD_FAILURE() << err->message;
  return std::get<Position>(r);
}

std::string describe_for_throw(const Engine& e, const Position& p, int k, int which) {
  MoveList moves;
  e.moves_for_throw(p, k, moves);
  EXPECT_GT(moves.size, which);
  return moves.size > which ? describe_move(e, p, moves[which]) : "";
}

TEST(BoardView, FinkelStartHasLabelsRosettesGapsAndNoPieces) {
  auto e = engine_for("finkel");
  const std::string b = render_board(*e, e->initial_position(), kAscii);
  const std::vector<std::string> lines = lines_of(b);
  ASSERT_EQ(lines.size(), 5u);  // labels, three ranks, legend
  EXPECT_EQ(lines[0], "     a    b    c    d    e    f    g    h");
  EXPECT_EQ(lines[1], "3  [ * ][   ][   ][   ]          [ * ][   ]  3");
  EXPECT_EQ(lines[2], "2  [   ][   ][   ][ * ][   ][   ][   ][   ]  2");
  EXPECT_EQ(lines[3], "1  [ * ][   ][   ][   ]          [ * ][   ]  1");
  EXPECT_NE(lines[4].find("L light"), std::string::npos);
  EXPECT_NE(lines[4].find("* rosette"), std::string::npos);
  EXPECT_EQ(lines[4].find("double"), std::string::npos);  // Finkel has no special squares
  for (char c : b) EXPECT_TRUE(static_cast<unsigned char>(c) < 0x80) << "non-ASCII in ASCII style";
}

TEST(BoardView, FinkelPiecesAppearOnTheirSquares) {
  auto e = engine_for("finkel");
  // Light: d1 (1), a1 (4, rosette), d2 (8, rosette), one borne off; dark: a2 (5), g3 (14).
  const Position p =
      from_pieces(*e, Player::kLight, {0, 0, 0, 1, 4, 8, 15}, {0, 0, 0, 0, 0, 5, 14});
  const std::string b = render_board(*e, p, kAscii);
  EXPECT_EQ(square_text(b, 4, 1), "[ L ]");
  EXPECT_EQ(square_text(b, 1, 1), "[*L ]");
  EXPECT_EQ(square_text(b, 4, 2), "[*L ]");
  EXPECT_EQ(square_text(b, 1, 2), "[ D ]");
  EXPECT_EQ(square_text(b, 7, 3), "[*D ]");
  EXPECT_EQ(square_text(b, 3, 1), "[   ]");
  EXPECT_EQ(square_text(b, 5, 1), "     ");  // e1 is a gap
  EXPECT_EQ(square_text(b, 6, 3), "     ");  // f3 is a gap
}

TEST(BoardView, AsebHasTwelveFilesAndOnlyRankTwoBeyondD) {
  auto e = engine_for("aseb");
  // Light on h2 (index 12, a rosette on Aseb) and b1 (3); dark on l2 (16, the last rosette).
  const Position p = from_pieces(*e, Player::kLight, {0, 0, 0, 3, 12}, {0, 0, 0, 0, 16});
  const std::string b = render_board(*e, p, kAscii);
  const std::vector<std::string> lines = lines_of(b);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_NE(lines[0].find("i    j    k    l"), std::string::npos);
  EXPECT_EQ(square_text(b, 8, 2), "[*L ]");
  EXPECT_EQ(square_text(b, 12, 2), "[*D ]");
  EXPECT_EQ(square_text(b, 2, 1), "[ L ]");
  EXPECT_EQ(square_text(b, 4, 2), "[ * ]");  // d2
  for (int f = 5; f <= 12; ++f) {
    EXPECT_EQ(square_text(b, f, 1), "     ") << "file " << f << " of rank 1";
    EXPECT_EQ(square_text(b, f, 3), "     ") << "file " << f << " of rank 3";
  }
  EXPECT_EQ(lines[2].size(), lines[3].size());  // rank labels line up on the right
}

TEST(BoardView, BoxedShowsStackCountsAndSpecialSquares) {
  auto e = engine_for("boxed");
  // Light: three on c2 (7, a double square), two on S (0), two not entered (-1).
  // Dark: two on f2 (10, the other double), one on b3 (3, an eye: forfeit), four not entered.
  const Position p =
      from_pieces(*e, Player::kLight, {-1, -1, 0, 0, 7, 7, 7}, {-1, -1, -1, -1, 3, 10, 10});
  const std::string b = render_board(*e, p, kAscii);
  EXPECT_EQ(square_text(b, 3, 2), "[=L3]");
  EXPECT_EQ(square_text(b, 6, 2), "[=D2]");
  EXPECT_EQ(square_text(b, 2, 3), "[!D ]");
  EXPECT_EQ(square_text(b, 2, 1), "[ ! ]");  // b1: forfeit square, empty
  EXPECT_EQ(square_text(b, 7, 2), "[ ! ]");  // g2: the centre-track eye
  EXPECT_EQ(square_text(b, 1, 1), "[ * ]");  // a1: rosette
  const std::string legend = lines_of(b).at(4);
  EXPECT_NE(legend.find("= double move"), std::string::npos);
  EXPECT_NE(legend.find("! forfeit"), std::string::npos);
  EXPECT_NE(legend.find("L3 = three pieces"), std::string::npos);

  const Game g(e, p);
  const std::string light = render_status(g, Player::kLight, kAscii);
  EXPECT_NE(light.find("to enter 2"), std::string::npos) << light;
  EXPECT_NE(light.find("on S 2"), std::string::npos) << light;
  EXPECT_NE(light.find("on board 3"), std::string::npos) << light;
  EXPECT_NE(light.find("<- to throw"), std::string::npos) << light;
  const std::string dark = render_status(g, Player::kDark, kAscii);
  EXPECT_NE(dark.find("to enter 4"), std::string::npos) << dark;
  EXPECT_EQ(dark.find("<-"), std::string::npos) << dark;
}

TEST(BoardView, ViewPutsDarkAboveAndLightBelowWithKittyForBell) {
  auto e = engine_for("bell");
  const Game g(e);
  const std::vector<std::string> lines = lines_of(render_view(g, kAscii));
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines.front().rfind("Dark", 0), 0u);
  EXPECT_EQ(lines[6].rfind("Light", 0), 0u);
  EXPECT_NE(lines[6].find("balance -1"), std::string::npos) << lines[6];
  EXPECT_EQ(lines[7], "Kitty 2");
}

TEST(BoardView, DescribesMovesWithSquareNames) {
  auto e = engine_for("finkel");
  EXPECT_EQ(describe_for_throw(*e, e->initial_position(), 2, 0), "enter to c1");
  EXPECT_EQ(describe_for_throw(*e, e->initial_position(), 4, 0), "enter to a1 (rosette)");
  // Light on a2 (5) and g1 (14); dark on c2 (light's index 7).
  const Position p = from_pieces(*e, Player::kLight, {0, 0, 0, 0, 0, 5, 14}, {0, 0, 0, 0, 0, 0, 7});
  MoveList moves;
  e->moves_for_throw(p, 1, moves);
  std::vector<std::string> seen;
  for (const Move& m : moves) seen.push_back(describe_move(*e, p, m));
  EXPECT_NE(std::find(seen.begin(), seen.end(), "g1 -> off"), seen.end());
  e->moves_for_throw(p, 2, moves);
  seen.clear();
  for (const Move& m : moves) seen.push_back(describe_move(*e, p, m));
  EXPECT_NE(std::find(seen.begin(), seen.end(), "a2 -> c2 captures"), seen.end());
}

TEST(BoardView, DescribesBoxedEntriesAndAwards) {
  auto e = engine_for("boxed");
  const Position p =
      from_pieces(*e, Player::kLight, {-1, -1, -1, -1, -1, -1, 0}, {-1, -1, -1, -1, -1, -1, -1});
  MoveList moves;
  e->moves_for_throw(p, 3, moves);  // three dots: enter onto S or move 5
  std::vector<std::string> seen;
  for (const Move& m : moves) seen.push_back(describe_move(*e, p, m));
  EXPECT_NE(std::find(seen.begin(), seen.end(), "enter a counter onto S"), seen.end());
  EXPECT_NE(std::find(seen.begin(), seen.end(), "S -> a2"), seen.end());
  EXPECT_EQ(describe_for_throw(*e, p, 2, 0), "S -> d1 (forfeit)");
  EXPECT_EQ(describe_move(*e, p, Move{kPool, 0, 0, MoveKind::kAwardYes}),
            "award: yes, enter a counter onto S");
  EXPECT_EQ(index_name(*e, Player::kLight, 0), "S");
  EXPECT_EQ(index_name(*e, Player::kLight, e->off_index()), "off");
}

TEST(BoardView, UnicodeStyleKeepsSquaresFiveColumnsWide) {
  auto e = engine_for("finkel");
  const Position p = from_pieces(*e, Player::kLight, {0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 0, 0, 0});
  BoardStyle uni;
  uni.unicode = true;
  const std::string b = render_board(*e, p, uni);
  EXPECT_NE(b.find("[\u273f\u25cf ]"), std::string::npos) << b;  // light on the a1 rosette
  EXPECT_EQ(b.find('\x1b'), std::string::npos);                  // no colour unless asked
  uni.colour = true;
  EXPECT_NE(render_board(*e, p, uni).find("\x1b["), std::string::npos);
}

}  // namespace
}  // namespace ur::cli
