// docs/rules.md §8 "Checks for an implementation", one TEST per check, and the §7b decisions for
// the throw-chain presets (A-30 .. A-37).
//
// Positions are built from piece lists (path indices; -1 = not entered in the boxed game,
// whose index 0 is the staging space S). Cells are checked by name so that a test also pins
// the path table it relies on.
#include <gtest/gtest.h>

#include <memory>

#include "../test_util.h"
#include "engine/game.h"
#include "rules/board.h"

namespace ur {
namespace {

using test::find_move;
using test::make_engine;
using test::moves_for;
using test::MoveSet;
using test::pieces;

using test::kD;
using test::kL;

Cell cell(const char* name) {
  return *parse_cell(name);
}

// Applies throw k and expects a decision; returns its moves.
MoveList throw_decides(const Engine& e, Position& p, int k) {
  MoveList moves;
  EXPECT_TRUE(e.apply_throw(p, k, moves)) << "throw " << k << " should leave a decision";
  EXPECT_EQ(p.phase, Phase::kAwaitingMove);
  return moves;
}

// ---- §8, probabilities -----------------------------------------------------------------------

TEST(Rules8, D4BSumsTo16Sixteenths) {
  const Engine e = make_engine("finkel");
  const ChanceList c = e.chance_outcomes(e.initial_position());
  ASSERT_EQ(c.size, 5);
  const int sixteenths[] = {1, 4, 6, 4, 1};
  int total = 0;
  for (int k = 0; k <= 4; ++k) {
    EXPECT_EQ(c.items[k].outcome, k);
    EXPECT_DOUBLE_EQ(c.items[k].probability * 16, sixteenths[k]) << "k=" << k;
    total += static_cast<int>(std::lround(c.items[k].probability * 16));
  }
  EXPECT_EQ(total, 16);
  EXPECT_EQ(e.move_value(0), 0) << "D4B: k=0 is a null throw";
}

TEST(Rules8, D3B0Is4GivesFourWithOneEighthAndNeverZero) {
  const Engine e = make_engine("masters");
  double p_move[6] = {};
  for (const ChanceOutcome& c : e.chance_outcomes(e.initial_position()))
    p_move[e.move_value(c.outcome)] += c.probability;
  EXPECT_DOUBLE_EQ(p_move[0], 0.0);
  EXPECT_DOUBLE_EQ(p_move[1], 3.0 / 8);
  EXPECT_DOUBLE_EQ(p_move[2], 3.0 / 8);
  EXPECT_DOUBLE_EQ(p_move[3], 1.0 / 8);
  EXPECT_DOUBLE_EQ(p_move[4], 1.0 / 8);
}

TEST(Rules8, D3BBellEndsTurnWithThreeEighths) {
  const Engine e = make_engine("bell");
  const Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0});
  double p_end = 0;
  for (const ChanceOutcome& c : e.chance_outcomes(p))
    if (e.throw_ends_turn(c.outcome)) p_end += c.probability;
  EXPECT_DOUBLE_EQ(p_end, 3.0 / 8);
}

// ---- §8, Finkel entry, blocking, capture ---------------------------------------------------

TEST(Rules8, FinkelEntryOnFourLandsOnRosetteAndThrowsAgain) {
  const Engine e = make_engine("finkel");
  Position p = e.initial_position();
  const MoveList moves = throw_decides(e, p, 4);
  EXPECT_EQ(test::move_set(moves), (MoveSet{{0, 4}}));
  EXPECT_EQ(e.cell_at(kL, 4), cell("a1"));
  const Move m = find_move(moves, 0, 4);
  EXPECT_TRUE(m.flags & move_flag::kRosette);
  EXPECT_TRUE(m.flags & move_flag::kEnter);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_TRUE(fx.extra);
  EXPECT_EQ(fx.rosettes, 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL) << "a rosette gives light another throw";
  EXPECT_EQ(p.count[0][4], 1);
}

TEST(Rules8, FinkelThrowsOneToThreeEnterD1C1B1) {
  const Engine e = make_engine("finkel");
  const char* squares[] = {"", "d1", "c1", "b1"};
  for (int k = 1; k <= 3; ++k) {
    Position p = e.initial_position();
    const MoveList moves = throw_decides(e, p, k);
    EXPECT_EQ(test::move_set(moves), (MoveSet{{0, k}}));
    EXPECT_EQ(e.cell_at(kL, k), cell(squares[k]));
    EXPECT_EQ(e.cell_at(kD, k), make_cell(cell_file(cell(squares[k])), 3)) << "dark: rank 3";
    e.apply_move(p, moves[0]);
    EXPECT_EQ(p.turn, kD) << "k=" << k << ": no rosette, the turn passes";
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  }
}

TEST(Rules8, FinkelEnemyOnD2Blocks) {
  const Engine e = make_engine("finkel");
  ASSERT_EQ(e.cell_at(kL, 8), cell("d2"));
  ASSERT_EQ(e.cell_at(kD, 8), cell("d2"));
  // Light pieces 1..4 squares short of d2; dark sits on d2.
  const Position p = pieces(e, kL, {0, 0, 0, 4, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 8});
  for (int k = 1; k <= 4; ++k) {
    const MoveSet moves = moves_for(e, p, k);
    for (const auto& [from, to] : moves) EXPECT_NE(to, 8) << "k=" << k << " from " << from;
    EXPECT_FALSE(moves.count({8 - k, 8})) << "k=" << k;
  }
  // Control: with dark one square further on, light may land on d2.
  const Position q = pieces(e, kL, {0, 0, 0, 4, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 9});
  EXPECT_TRUE(moves_for(e, q, 1).count({7, 8}));
}

TEST(Rules8, FinkelCaptureFromA2WithTwo) {
  const Engine e = make_engine("finkel");
  ASSERT_EQ(e.cell_at(kL, 5), cell("a2"));
  ASSERT_EQ(e.cell_at(kD, 7), cell("c2"));
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 7});
  const MoveList moves = throw_decides(e, p, 2);
  const Move m = find_move(moves, 5, 7);
  EXPECT_TRUE(m.flags & move_flag::kCapture);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_EQ(fx.captures, 1);
  EXPECT_EQ(p.count[0][7], 1);
  EXPECT_EQ(p.count[1][7], 0);
  EXPECT_EQ(p.count[1][0], 7) << "the captured piece goes back to not-entered";
  EXPECT_EQ(p.turn, kD) << "a capture gives no extra throw in Finkel";
  EXPECT_EQ(e.check(p), "");
}

// ---- §8, bearing off -------------------------------------------------------------------------

TEST(Rules8, Bell14BearOffExact) {
  const Engine e = make_engine("finkel");
  ASSERT_EQ(e.off_index(), 15);
  ASSERT_EQ(e.cell_at(kL, 13), cell("h1"));
  // From index i only a throw of exactly 15 - i bears off; a larger one is not a move.
  for (int i = 11; i <= 14; ++i) {
    const Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, i}, {0, 0, 0, 0, 0, 0, 0});
    for (int k = 1; k <= 4; ++k) {
      const MoveSet moves = moves_for(e, p, k);
      EXPECT_EQ(moves.count({i, 15}), k == 15 - i ? 1u : 0u) << "from " << i << " k=" << k;
      for (const auto& [from, to] : moves) EXPECT_LE(to, 15);
      if (i + k > 15) {
        EXPECT_EQ(moves, (MoveSet{{0, k}})) << "overshoot: only the entry";
      }
    }
  }
  // h1 with 3 or 4: not a legal move, so with nothing else to move the throw passes.
  for (int k : {3, 4}) {
    Position p = pieces(e, kL, {13, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, k, moves)) << "k=" << k;
    EXPECT_EQ(p.turn, kD);
  }
}

TEST(Rules8, Masters16BearOffExact) {
  const Engine e = make_engine("masters");
  ASSERT_EQ(e.off_index(), 17);
  ASSERT_EQ(e.cell_at(kL, 16), cell("g1"));
  ASSERT_EQ(e.cell_at(kL, 15), cell("h1"));
  ASSERT_EQ(e.cell_at(kL, 13), cell("h3"));
  struct Case {
    int index;
    int needs;
  };
  for (const Case c : {Case{16, 1}, Case{15, 2}, Case{13, 4}}) {
    const Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, c.index}, {0, 0, 0, 0, 0, 0, 0});
    for (int k = 0; k <= 3; ++k) {
      const int m = e.move_value(k);
      EXPECT_EQ(moves_for(e, p, k).count({c.index, 17}), m == c.needs ? 1u : 0u)
          << "from " << c.index << " move " << m;
      if (c.index + m > 17) {
        for (const auto& [from, to] : moves_for(e, p, k)) EXPECT_NE(from, c.index);
      }
    }
  }
}

// ---- §8, rosettes on the Masters path ------------------------------------------------------

// Light on g2 (11) throws 1 towards g3 (light 12); dark sits on g3 (dark 16).
Position g3_position(const Engine& e) {
  std::vector<int> light(e.pieces(), 0), dark(e.pieces(), 0);
  light.back() = 11;
  dark.back() = 16;
  return pieces(e, kL, light, dark);
}

TEST(Rules8, ConventionalG3Blocked) {
  const Engine e = make_engine("conventional");
  ASSERT_EQ(e.cell_at(kL, 12), cell("g3"));
  ASSERT_EQ(e.cell_at(kD, 16), cell("g3"));
  const Position p = g3_position(e);
  EXPECT_EQ(moves_for(e, p, 1), (MoveSet{{0, 1}})) << "the safe rosette g3 blocks 11->12";
}

TEST(Rules8, MastersG3CaptureGivesOneExtra) {
  const Engine e = make_engine("masters");
  Position p = g3_position(e);
  const MoveList moves = throw_decides(e, p, 1);
  const Move m = find_move(moves, 11, 12);
  EXPECT_TRUE(m.flags & move_flag::kCapture);
  EXPECT_TRUE(m.flags & move_flag::kRosette);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_EQ(fx.captures, 1);
  EXPECT_EQ(p.count[1][16], 0);
  EXPECT_EQ(p.count[1][0], 7);
  ASSERT_EQ(p.phase, Phase::kAwaitingRoll);
  ASSERT_EQ(p.turn, kL) << "the rosette gives one extra throw";
  // That throw is the only one: a plain entry afterwards passes the turn.
  throw_decides(e, p, 1);
  e.apply_move(p, find_move(e, p, 0, 1));
  EXPECT_EQ(p.turn, kD);
}

TEST(Rules8, MastersPlainCaptureGivesNoExtra) {
  const Engine e = make_engine("masters");
  ASSERT_EQ(e.cell_at(kL, 6), e.cell_at(kD, 6));  // b2
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 6});
  throw_decides(e, p, 1);
  EXPECT_EQ(e.apply_move(p, find_move(e, p, 5, 6)).captures, 1);
  EXPECT_EQ(p.turn, kD);
}

TEST(Rules8, BlitzCaptureOnRosetteStillOneExtra) {
  const Engine e = make_engine("blitz");
  Position p = g3_position(e);
  throw_decides(e, p, 1);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 11, 12));
  EXPECT_EQ(fx.captures, 1);
  EXPECT_EQ(fx.rosettes, 1);
  ASSERT_EQ(p.turn, kL);
  ASSERT_EQ(p.phase, Phase::kAwaitingRoll);
  // Capture + rosette is still one extra throw: a plain move after it passes the turn.
  throw_decides(e, p, 1);
  e.apply_move(p, find_move(e, p, 0, 1));
  EXPECT_EQ(p.turn, kD) << "extra throws do not accumulate";
}

TEST(Rules8, BlitzPlainCaptureGivesExtra) {
  const Engine e = make_engine("blitz");
  Position p = pieces(e, kL, {0, 0, 0, 0, 5}, {0, 0, 0, 0, 6});
  throw_decides(e, p, 1);
  EXPECT_EQ(e.apply_move(p, find_move(e, p, 5, 6)).captures, 1);
  EXPECT_EQ(p.turn, kL) << "a capture grants another throw in Blitz";
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
}

// ---- §8, Murray ------------------------------------------------------------------------------

TEST(Rules8, MurrayOwnA1Blocked) {
  const Engine e = make_engine("murray");
  ASSERT_EQ(e.off_index(), 28);
  ASSERT_EQ(e.cell_at(kL, 24), cell("a1"));
  ASSERT_EQ(e.cell_at(kL, 4), cell("a1"));
  ASSERT_EQ(e.move_value(0), 4);
  // A piece on its way back (d2, index 20) throws 4 towards index 24 = a1, where a piece has
  // just entered (index 4).
  const Position p = pieces(e, kL, {0, 0, 0, 0, 0, 4, 20}, {0, 0, 0, 0, 0, 0, 0});
  const MoveSet moves = moves_for(e, p, 0);
  EXPECT_FALSE(moves.count({20, 24}));
  EXPECT_FALSE(moves.count({0, 4})) << "the entry square is taken as well";
  EXPECT_FALSE(moves.count({4, 8})) << "d2 is light's index 8 and 20: the returning piece holds it";
  EXPECT_TRUE(moves.empty()) << "so a throw of 4 passes";
  EXPECT_EQ(moves_for(e, p, 1), (MoveSet{{0, 1}, {4, 5}, {20, 21}}));
  // And the other way round: a returning piece on a1 blocks the entry on 4.
  const Position q = pieces(e, kL, {0, 0, 0, 0, 0, 0, 24}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_FALSE(moves_for(e, q, 0).count({0, 4}));
  // Control: with a1 free, the returning piece may land there.
  const Position r = pieces(e, kL, {0, 0, 0, 0, 0, 0, 20}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_TRUE(moves_for(e, r, 0).count({20, 24}));
  // A position with both pieces on a1 is not a position.
  EXPECT_TRUE(std::holds_alternative<Error>(
      position_from_pieces(e, kL, {0, 0, 0, 0, 0, 4, 24}, {0, 0, 0, 0, 0, 0, 0})));
}

TEST(Rules8, MurrayRoyalUrReturnsOverTheOpponentsRow) {
  const Engine e = make_engine("murray-royalur");
  EXPECT_EQ(e.cell_at(kL, 24), cell("a3"));
  EXPECT_EQ(e.cell_at(kL, 27), cell("d3"));
  EXPECT_EQ(e.cell_at(kD, 24), cell("a1"));
  // Light's return leg crosses dark's row: dark's piece on a3 (dark 4), a safe rosette, blocks
  // light's 20 -> 24.
  const Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 20}, {0, 0, 0, 0, 0, 0, 4});
  EXPECT_FALSE(moves_for(e, p, 0).count({20, 24}));
}

// ---- §8, Bell ---------------------------------------------------------------------------------

TEST(Rules8, BellOnlyThreeEnters) {
  const Engine e = make_engine("bell");
  ASSERT_EQ(e.cell_at(kL, 5), cell("a2"));
  const Position start = pieces(e, kL, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(moves_for(e, start, 3), (MoveSet{{0, 5}}));
  for (int k : {0, 1, 2}) EXPECT_TRUE(moves_for(e, start, k).empty()) << "k=" << k;
  // k=0 and k=2: nothing to move, and the player throws again.
  for (int k : {0, 2}) {
    Position p = start;
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, k, moves)) << "k=" << k;
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
    EXPECT_EQ(p.turn, kL) << "k=" << k << " throws again";
  }
  // k=1 ends the turn.
  Position p = start;
  MoveList moves;
  EXPECT_FALSE(e.apply_throw(p, 1, moves));
  EXPECT_EQ(p.turn, kD);
  // k=3 enters at a2, and the chain goes on.
  p = start;
  throw_decides(e, p, 3);
  e.apply_move(p, find_move(e, p, 0, 5));
  EXPECT_EQ(p.count[0][5], 1);
  EXPECT_EQ(p.turn, kL);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
}

// §5.7: Bell's entry on a2 follows the capture rules; bear-off uses the move values 1, 4, 5.
TEST(Rules57, BellEntryOnA2CapturesASingleEnemy) {
  const Engine e = make_engine("bell");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 5});
  throw_decides(e, p, 3);
  const Move m = find_move(e, p, 0, 5);
  EXPECT_TRUE(m.flags & move_flag::kCapture);
  EXPECT_EQ(e.apply_move(p, m).captures, 1);
  EXPECT_EQ(p.count[1][0], 7);
  // An own piece on a2 blocks the entry: 3 marks then only move the pieces on the board.
  const Position q = pieces(e, kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(moves_for(e, q, 3), (MoveSet{{5, 10}}));
}

TEST(Rules57, BellBearOffUsesOneFourFive) {
  const Engine e = make_engine("bell");
  // g1 (14) needs 1, g2 (11) needs 4, f2 (10) needs 5; h2 (12) and h1 (13) must step first.
  struct Case {
    int index;
    int k;  // the throw that bears off, -1 = none
  };
  for (const Case c : {Case{14, 2}, Case{11, 0}, Case{10, 3}, Case{12, -1}, Case{13, -1}}) {
    const Position p = pieces(e, kL, {c.index, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
    for (int k = 0; k <= 3; ++k)
      EXPECT_EQ(moves_for(e, p, k).count({c.index, 15}), k == c.k ? 1u : 0u)
          << "from " << c.index << " k=" << k;
  }
}

TEST(Rules51, FinkelBearingOffGivesNoExtraThrow) {
  const Engine e = make_engine("finkel");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 13}, {0, 0, 0, 0, 0, 0, 0});
  throw_decides(e, p, 2);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 13, 15));
  EXPECT_EQ(fx.borne_off, 1);
  EXPECT_FALSE(fx.won);
  EXPECT_EQ(p.turn, kD);
}

TEST(Rules512, AsebRosettesH2AndL2AreSafeAndGiveAThrow) {
  const Engine e = make_engine("aseb");
  ASSERT_EQ(e.cell_at(kL, 12), cell("h2"));
  ASSERT_EQ(e.cell_at(kL, 16), cell("l2"));
  // Dark on h2 blocks light's 11 -> 12; light on l2 bears off with exactly 1.
  const Position p = pieces(e, kL, {0, 0, 0, 0, 11}, {0, 0, 0, 0, 12});
  EXPECT_FALSE(moves_for(e, p, 1).count({11, 12}));
  Position q = pieces(e, kL, {0, 0, 0, 0, 11}, {0, 0, 0, 0, 0});
  throw_decides(e, q, 1);
  EXPECT_TRUE(e.apply_move(q, find_move(e, q, 11, 12)).extra);
  EXPECT_EQ(q.turn, kL);
  const Position r = pieces(e, kL, {0, 0, 0, 0, 16}, {0, 0, 0, 0, 0});
  EXPECT_EQ(moves_for(e, r, 1).count({16, 17}), 1u);
  EXPECT_EQ(moves_for(e, r, 2).count({16, 18}), 0u);
}

// ---- §8, the boxed game ----------------------------------------------------------------------

constexpr int kOut = -1;  // boxed: not entered

TEST(Rules8, BoxedSOnZeroDotsReachesA1Award) {
  const Engine e = make_engine("boxed");
  ASSERT_TRUE(e.has_staging());
  ASSERT_EQ(e.move_value(0), 4);
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, kOut});
  const MoveList moves = throw_decides(e, p, 0);
  EXPECT_EQ(test::move_set(moves), (MoveSet{{0, 4}})) << "no entry on 0 dots";
  EXPECT_EQ(e.cell_at(kL, 4), cell("a1"));
  const MoveEffects fx = e.apply_move(p, moves[0]);
  EXPECT_TRUE(fx.award);
  ASSERT_EQ(p.phase, Phase::kAwaitingAward);
  EXPECT_EQ(p.turn, kL);
  EXPECT_EQ(p.next, kL);
  MoveList award;
  e.legal_moves(p, award);
  ASSERT_EQ(award.size, 2);
  Move yes{};
  for (const Move& m : award)
    if (m.kind == MoveKind::kAwardYes) yes = m;
  ASSERT_EQ(yes.kind, MoveKind::kAwardYes);
  e.apply_move(p, yes);
  EXPECT_EQ(p.pool[0], 5);
  EXPECT_EQ(p.count[0][0], 1) << "the award puts a counter on S";
  EXPECT_EQ(p.count[0][4], 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL) << "the chain goes on";
}

TEST(Rules8, BoxedAwardMayBeDeclined) {
  const Engine e = make_engine("boxed");
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, kOut});
  throw_decides(e, p, 0);
  e.apply_move(p, find_move(e, p, 0, 4));
  MoveList award;
  e.legal_moves(p, award);
  for (const Move& m : award)
    if (m.kind == MoveKind::kAwardNo) e.apply_move(p, m);
  EXPECT_EQ(p.pool[0], 6);
  EXPECT_EQ(p.count[0][0], 0);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL);
}

TEST(Rules8, BoxedD1Forfeit) {
  const Engine e = make_engine("boxed");
  ASSERT_EQ(e.move_value(2), 1);
  ASSERT_EQ(e.cell_at(kL, 1), cell("d1"));
  // Dark has one counter on c3 (dark 2) that can move 4, to b2 (dark 6): a plain square.
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 2});
  throw_decides(e, p, 2);
  const Move m = find_move(e, p, 0, 1);
  EXPECT_TRUE(m.flags & move_flag::kForfeit);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_TRUE(fx.forfeit);
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  EXPECT_EQ(p.turn, kD) << "the opponent moves";
  EXPECT_EQ(p.next, kL) << "then the mover resumes";
  EXPECT_EQ(test::legal(e, p), (MoveSet{{2, 6}})) << "one counter, 4 squares";
  e.apply_move(p, find_move(e, p, 2, 6));
  EXPECT_EQ(p.count[1][6], 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL) << "the player goes on throwing";
}

TEST(Rules8, BoxedC2DoubleToG2Forfeit) {
  const Engine e = make_engine("boxed");
  ASSERT_EQ(e.cell_at(kL, 3), cell("b1"));
  ASSERT_EQ(e.cell_at(kL, 7), cell("c2"));
  ASSERT_EQ(e.cell_at(kL, 11), cell("g2"));
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 3},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 2});
  throw_decides(e, p, 0);  // 0 dots: a score of 4
  const Move m = find_move(e, p, 3, 7);
  EXPECT_TRUE(m.flags & move_flag::kDouble);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_TRUE(fx.doubled);
  EXPECT_TRUE(fx.forfeit);
  EXPECT_EQ(p.count[0][7], 0);
  EXPECT_EQ(p.count[0][11], 1) << "the same counter moved on 4 more, to g2";
  EXPECT_EQ(p.phase, Phase::kAwaitingForfeit);
  EXPECT_EQ(p.turn, kD);
  EXPECT_EQ(p.next, kL);
}

TEST(Rules8, BoxedScoringExample86) {
  const Engine e = make_engine("boxed");
  // The loser (dark): 1 counter off the board, 2 on S, 2 on f2, 1 on its exit rosette g3,
  // 1 at H: 25 + 20 + 40 + 1 + 0 = 86.
  ASSERT_EQ(e.cell_at(kD, 10), cell("f2"));
  ASSERT_EQ(e.cell_at(kD, 14), cell("g3"));
  const Position p = pieces(e, kD, {15, 15, 15, 15, 15, 15, 15}, {kOut, 0, 0, 10, 10, 14, 15});
  ASSERT_EQ(p.phase, Phase::kGameOver);
  ASSERT_EQ(p.turn, kL) << "the winner";
  EXPECT_EQ(e.win_score(p, kL), 86);
  const Game g(std::make_shared<const Engine>(e), p);
  EXPECT_TRUE(g.is_over());
  EXPECT_EQ(g.winner(), kL);
  EXPECT_EQ(g.win_score(), 86);
  // The unscored presets score nothing.
  const Engine f = make_engine("finkel");
  EXPECT_EQ(f.win_score(pieces(f, kD, {15, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0}), kL), 0);
}

// ---- §7b decisions -----------------------------------------------------------------------------

TEST(Rules7b, A30BounceSendsTheMoverBackWithoutAward) {
  const Engine e = make_engine("boxed");
  // Light on a1 (4) throws 0 dots (4) onto d2 (8), where two dark counters stand.
  Position p =
      pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 4}, {kOut, kOut, kOut, kOut, kOut, 8, 8});
  throw_decides(e, p, 0);
  const Move m = find_move(e, p, 4, 8);
  EXPECT_TRUE(m.flags & move_flag::kBounce);
  EXPECT_FALSE(m.flags & move_flag::kCapture);
  const MoveEffects fx = e.apply_move(p, m);
  EXPECT_EQ(fx.bounces, 1);
  EXPECT_EQ(fx.captures, 0);
  EXPECT_EQ(fx.rosettes, 0) << "a bounce is no rosette landing";
  EXPECT_FALSE(fx.award);
  EXPECT_EQ(p.pool[0], 7) << "the mover goes back to not-entered";
  EXPECT_EQ(p.count[1][8], 2);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll) << "no award decision";
  EXPECT_EQ(p.turn, kL);
  EXPECT_EQ(e.check(p), "");
}

TEST(Rules7b, A30BounceIsCompulsoryWhenItIsTheOnlyMove) {
  const Engine e = make_engine("boxed");
  Position p =
      pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 4}, {kOut, kOut, kOut, kOut, kOut, 8, 8});
  EXPECT_EQ(moves_for(e, p, 0), (MoveSet{{4, 8}}));
}

TEST(Rules7b, A30BounceIsNotACaptureInTheStatistics) {
  const Engine e = make_engine("boxed");
  Game g(std::make_shared<const Engine>(e), pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 4},
                                                   {kOut, kOut, kOut, kOut, kOut, 8, 8}));
  ASSERT_TRUE(g.apply_throw(0).ok());
  ASSERT_TRUE(g.apply_move(4, 8).ok());
  EXPECT_EQ(g.stats(kL).bounces, 1);
  EXPECT_EQ(g.stats(kL).captures, 0);
  EXPECT_EQ(g.stats(kL).rosettes, 0);
}

TEST(Rules7b, A31AwardSkippedWhenNoCounterWaits) {
  const Engine e = make_engine("boxed");
  Position p = pieces(e, kL, {0, 0, 0, 0, 0, 0, 0}, {kOut, kOut, kOut, kOut, kOut, kOut, kOut});
  throw_decides(e, p, 0);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 0, 4));
  EXPECT_EQ(fx.rosettes, 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll) << "nothing to award";
  EXPECT_EQ(p.turn, kL);
}

TEST(Rules7b, A31ForfeitSkippedWhenTheOpponentCannotMoveFour) {
  const Engine e = make_engine("boxed");
  // Dark has nothing entered: no forfeit response is possible.
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, kOut});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL);
  // Dark's only counter is on g3 (14): 4 would overshoot H (15).
  Position q = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 14});
  throw_decides(e, q, 2);
  e.apply_move(q, find_move(e, q, 0, 1));
  EXPECT_EQ(q.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(q.turn, kL);
}

TEST(Rules7b, A32ForfeitResponseMovesNoCounterFromOffTheBoard) {
  const Engine e = make_engine("boxed");
  // Dark: five off the board, one on S, one on c3 (2). The response moves S or c3, never the
  // pool.
  Position p =
      pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0}, {kOut, kOut, kOut, kOut, kOut, 0, 2});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  EXPECT_EQ(test::legal(e, p), (MoveSet{{0, 4}, {2, 6}}));
}

TEST(Rules7b, A32ForfeitResponseOnRosetteGetsItsOwnAwardFirst) {
  const Engine e = make_engine("boxed");
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 0});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  e.apply_move(p, find_move(e, p, 0, 4));  // dark S -> a3, a rosette
  ASSERT_EQ(p.phase, Phase::kAwaitingAward);
  EXPECT_EQ(p.turn, kD) << "the beneficiary decides his award";
  EXPECT_EQ(p.next, kL) << "before the mover resumes";
  MoveList award;
  e.legal_moves(p, award);
  for (const Move& m : award)
    if (m.kind == MoveKind::kAwardYes) e.apply_move(p, m);
  EXPECT_EQ(p.count[1][0], 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL);
}

TEST(Rules7b, A32ForfeitResponseIgnoresForfeitSquares) {
  const Engine e = make_engine("boxed");
  // Dark's counter on c2 (7) moves 4 to g2 (11), an eye: ignored in a response.
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 7});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 7, 11));
  EXPECT_FALSE(fx.forfeit);
  EXPECT_EQ(p.count[1][11], 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
  EXPECT_EQ(p.turn, kL) << "no forfeit back: the mover throws again";
}

TEST(Rules7b, A32ForfeitResponseDoubleMovesTheSameCounterFourAgain) {
  const Engine e = make_engine("boxed");
  // Dark's counter on b2 (6) moves 4 to f2 (10), a double: on 4 more to g3 (14), a rosette.
  Position p = pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0},
                      {kOut, kOut, kOut, kOut, kOut, kOut, 6});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 6, 10));
  EXPECT_TRUE(fx.doubled);
  EXPECT_EQ(p.count[1][10], 0);
  EXPECT_EQ(p.count[1][14], 1);
  EXPECT_EQ(p.phase, Phase::kAwaitingAward) << "g3 is a rosette and dark has counters waiting";
  EXPECT_EQ(p.turn, kD);
  EXPECT_EQ(p.next, kL);
}

TEST(Rules7b, A32ForfeitResponseHits) {
  const Engine e = make_engine("boxed");
  // Light lands on d1 from S; dark on a2 (5) responds 5 -> 9 (e2) and hits light there.
  Position p =
      pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, 9, 0}, {kOut, kOut, kOut, kOut, kOut, kOut, 5});
  throw_decides(e, p, 2);
  e.apply_move(p, find_move(e, p, 0, 1));
  ASSERT_EQ(p.phase, Phase::kAwaitingForfeit);
  const Move m = find_move(e, p, 5, 9);
  EXPECT_TRUE(m.flags & move_flag::kCapture);
  EXPECT_EQ(e.apply_move(p, m).captures, 1);
  EXPECT_EQ(p.pool[0], 6) << "the hit counter goes off the board, not to S";
  EXPECT_EQ(p.count[0][9], 0);
  EXPECT_EQ(p.turn, kL);
}

TEST(Rules7b, A34BellStakeFineAndKitty) {
  Game g("bell");
  EXPECT_EQ(g.kitty(), 2) << "stakes are paid at the start";
  EXPECT_EQ(g.balance(kL), -1);
  EXPECT_EQ(g.balance(kD), -1);
  // Roll-off: light throws 3 (5), dark 1 (0): light starts with his 3 and enters on a2.
  ASSERT_TRUE(g.apply_throw(3).ok());
  ASSERT_TRUE(g.apply_throw(1).ok());
  ASSERT_TRUE(g.awaiting_decision());
  ASSERT_EQ(g.to_act(), kL);
  ASSERT_TRUE(g.apply_move(0, 5).ok());
  // 2 marks = 1 square, three times: a2 -> b2 -> c2 -> d2, a rosette.
  for (int from = 5; from < 8; ++from) {
    ASSERT_TRUE(g.apply_throw(2).ok());
    ASSERT_TRUE(g.apply_move(from, from + 1).ok()) << from;
  }
  EXPECT_EQ(g.stats(kL).rosettes, 1);
  EXPECT_EQ(g.kitty(), 3) << "a fine per rosette landing";
  EXPECT_EQ(g.balance(kL), -2);
  EXPECT_EQ(g.balance(kD), -1);
  // Light resigns: dark takes the kitty.
  ASSERT_TRUE(g.resign(kL).ok());
  EXPECT_EQ(g.winner(), kD);
  EXPECT_EQ(g.kitty(), 0);
  EXPECT_EQ(g.balance(kD), 2);
  EXPECT_EQ(g.balance(kL), -2);
}

TEST(Rules7b, A34BellWinnerByBearOffTakesTheKitty) {
  const Engine e = make_engine("bell");
  // Light's last counter on h1 (13): 1 to g1 (a rosette, fined), 1 more to bear off.
  Game g(std::make_shared<const Engine>(e),
         pieces(e, kL, {13, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(g.apply_throw(2).ok());
  ASSERT_TRUE(g.apply_move(13, 14).ok());
  EXPECT_EQ(g.kitty(), 1);
  EXPECT_EQ(g.balance(kL), -1);
  ASSERT_TRUE(g.apply_throw(2).ok());
  ASSERT_TRUE(g.apply_move(14, 15).ok());
  ASSERT_TRUE(g.is_over());
  EXPECT_EQ(g.winner(), kL);
  EXPECT_EQ(g.end_reason(), EndReason::kBoreOff);
  EXPECT_EQ(g.kitty(), 0);
  EXPECT_EQ(g.balance(kL), 0) << "the winner takes back his fine";
}

TEST(Rules7b, A35WinDuringAForfeitResponse) {
  const Engine e = make_engine("boxed");
  // Dark has six at H and one on g2 (11): the forfeit response bears it off and dark wins.
  Game g(std::make_shared<const Engine>(e),
         pieces(e, kL, {kOut, kOut, kOut, kOut, kOut, kOut, 0}, {11, 15, 15, 15, 15, 15, 15}));
  ASSERT_TRUE(g.apply_throw(2).ok());
  ASSERT_TRUE(g.apply_move(0, 1).ok());
  ASSERT_EQ(g.position().phase, Phase::kAwaitingForfeit);
  ASSERT_TRUE(g.apply_move(11, 15).ok());
  EXPECT_TRUE(g.is_over());
  EXPECT_EQ(g.winner(), kD);
  EXPECT_EQ(g.position().phase, Phase::kGameOver);
  EXPECT_EQ(g.stats(kD).borne_off, 1);
  EXPECT_EQ(g.stats(kD).forfeits, 1);
  // Scored over light: 6 off the board (25 each) and one on d1 (4 dots).
  EXPECT_EQ(g.win_score(), 6 * 25 + 4);
}

TEST(Rules7b, A35WinThroughADouble) {
  const Engine e = make_engine("boxed");
  // Light on a2 (5) throws 3 dots (5) onto f2 (10), a double: 5 more bears it off.
  Position p = pieces(e, kL, {5, 15, 15, 15, 15, 15, 15}, {kOut, kOut, kOut, kOut, kOut, kOut, 0});
  throw_decides(e, p, 3);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 5, 10));
  EXPECT_TRUE(fx.doubled);
  EXPECT_TRUE(fx.won);
  EXPECT_EQ(p.phase, Phase::kGameOver);
  EXPECT_EQ(p.turn, kL);
  EXPECT_EQ(e.win_score(p, kL), 6 * 25 + 10);
}

TEST(Rules7b, A35WinIsImmediateAndLeavesNothingToDo) {
  const Engine e = make_engine("boxed");
  // Light's last counter on g1 (14) bears off with 2 marks (1): the chain would go on, but the
  // game is over at once.
  Position p = pieces(e, kL, {14, 15, 15, 15, 15, 15, 15}, {kOut, kOut, kOut, kOut, kOut, kOut, 0});
  throw_decides(e, p, 2);
  const MoveEffects fx = e.apply_move(p, find_move(e, p, 14, 15));
  EXPECT_TRUE(fx.won);
  EXPECT_EQ(p.phase, Phase::kGameOver);
  EXPECT_TRUE(test::legal(e, p).empty());
  EXPECT_EQ(e.chance_outcomes(p).size, 0);
}

TEST(Rules7b, A37RollOffTiesAreThrownAgain) {
  const Engine e = make_engine("conventional");
  Position p = e.initial_position();
  ASSERT_EQ(p.phase, Phase::kStart);
  MoveList moves;
  EXPECT_FALSE(e.apply_throw(p, 1, moves));
  EXPECT_EQ(p.phase, Phase::kRollOff);
  EXPECT_EQ(p.turn, kD) << "light threw, dark throws next";
  EXPECT_FALSE(e.apply_throw(p, 1, moves));
  EXPECT_EQ(p.phase, Phase::kStart) << "a tie is thrown again";
  EXPECT_EQ(p.turn, kL);
}

TEST(Rules7b, A37RollOffWinnersThrowIsHisFirstThrow) {
  const Engine e = make_engine("conventional");
  {
    Position p = e.initial_position();
    e.apply_throw(p, 2);  // light: 2
    MoveList moves;
    EXPECT_TRUE(e.apply_throw(p, 3, moves));  // dark: 3 wins
    EXPECT_EQ(p.phase, Phase::kAwaitingMove);
    EXPECT_EQ(p.turn, kD);
    EXPECT_EQ(p.roll, 3);
    EXPECT_EQ(test::move_set(moves), (MoveSet{{0, 3}}));
  }
  {
    Position p = e.initial_position();
    e.apply_throw(p, 0);  // light: no marks = 4
    MoveList moves;
    EXPECT_TRUE(e.apply_throw(p, 3, moves));  // dark: 3 loses
    EXPECT_EQ(p.turn, kL);
    EXPECT_EQ(test::move_set(moves), (MoveSet{{0, 4}}));
    e.apply_move(p, moves[0]);
    EXPECT_EQ(p.turn, kL) << "the entry lands on a1, a rosette: light throws again";
  }
  {
    // With opening_roll=false the winner throws afresh.
    const Engine f = make_engine("conventional(opening_roll=false)");
    Position p = f.initial_position();
    f.apply_throw(p, 2);
    MoveList moves;
    EXPECT_FALSE(f.apply_throw(p, 3, moves));
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
    EXPECT_EQ(p.turn, kD);
  }
}

TEST(Rules7b, A37BellRollOffCountsOneMarkAsZero) {
  const Engine e = make_engine("bell");
  {
    // Light 1 mark (0) against dark 2 marks (1): dark wins; his 2 cannot enter, so his chain
    // goes on with another throw.
    Position p = e.initial_position();
    e.apply_throw(p, 1);
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, 2, moves));
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
    EXPECT_EQ(p.turn, kD);
  }
  {
    Position p = e.initial_position();
    e.apply_throw(p, 1);
    e.apply_throw(p, 1);
    EXPECT_EQ(p.phase, Phase::kStart) << "0 against 0 is a tie";
  }
  {
    // Light 3 marks (5) beats dark's no marks (4) and enters with it.
    Position p = e.initial_position();
    e.apply_throw(p, 3);
    MoveList moves;
    EXPECT_TRUE(e.apply_throw(p, 0, moves));
    EXPECT_EQ(p.turn, kL);
    EXPECT_EQ(test::move_set(moves), (MoveSet{{0, 5}}));
  }
  {
    // Light 1 mark (0) against dark no marks (4): dark starts with a 4, which cannot enter.
    Position p = e.initial_position();
    e.apply_throw(p, 1);
    e.apply_throw(p, 0);
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
    EXPECT_EQ(p.turn, kD);
  }
}

TEST(Rules7b, A37RollOffThroughGameCountsTheWinnersThrow) {
  Game g("british-museum");
  ASSERT_TRUE(g.apply_throw(4).ok());
  ASSERT_TRUE(g.apply_throw(0).ok());  // dark throws 0 (a null throw) and loses
  ASSERT_TRUE(g.awaiting_decision());
  EXPECT_EQ(g.to_act(), kL);
  EXPECT_EQ(g.stats(kL).throws, 1) << "the winner's roll-off throw is his first throw";
  EXPECT_EQ(g.stats(kD).throws, 0);
}

TEST(Rules7b, CoinCallDecidesWhoStarts) {
  const Engine e = make_engine("boxed");
  const Position start = e.initial_position();
  ASSERT_EQ(start.phase, Phase::kStart);
  const ChanceList c = e.chance_outcomes(start);
  ASSERT_EQ(c.size, 2);
  EXPECT_DOUBLE_EQ(c.items[0].probability, 0.5);
  EXPECT_DOUBLE_EQ(c.items[1].probability, 0.5);
  for (int outcome : {0, 1}) {
    Position p = start;
    MoveList moves;
    EXPECT_FALSE(e.apply_throw(p, outcome, moves));
    EXPECT_EQ(p.phase, Phase::kAwaitingRoll);
    EXPECT_EQ(p.turn, outcome == 0 ? kL : kD);
  }
}

}  // namespace
}  // namespace ur
