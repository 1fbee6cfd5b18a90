// Game: the checked layer. Rejections, undo, resignation, statistics and the kitty.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../test_util.h"
#include "engine/game.h"

namespace ur {
namespace {

using test::make_engine;
using test::pieces;

using test::kD;
using test::kL;

Game game_at(const char* rules, Player turn, const std::vector<int>& light,
             const std::vector<int>& dark) {
  auto e = std::make_shared<const Engine>(rule_set_or_throw(rules));
  return Game(e, pieces(*e, turn, light, dark));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(GameChecked, RejectsAThrowAtADecisionNode) {
  Game g("finkel");
  ASSERT_TRUE(g.apply_throw(2).ok());
  ASSERT_TRUE(g.awaiting_decision());
  const Position before = g.position();
  const Status s = g.apply_throw(3);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error, "decide")) << s.error;
  EXPECT_EQ(g.position(), before) << "nothing applied";
  EXPECT_EQ(g.events().size(), 1u);
}

TEST(GameChecked, RejectsAThrowTheDiceCannotShow) {
  Game g("finkel");
  for (int k : {-1, 5, 100}) {
    const Status s = g.apply_throw(k);
    EXPECT_FALSE(s.ok()) << k;
    EXPECT_TRUE(contains(s.error, std::to_string(k))) << s.error;
  }
  Game m("masters");
  EXPECT_FALSE(m.apply_throw(4).ok()) << "three dice show 0..3";
  Game coin("boxed");
  EXPECT_FALSE(coin.apply_throw(2).ok()) << "the coin call is 0 or 1";
  EXPECT_TRUE(coin.apply_throw(1).ok());
  EXPECT_EQ(coin.to_act(), kD);
  EXPECT_TRUE(g.events().empty());
}

TEST(GameChecked, RejectsAMoveAtAChanceNode) {
  Game g("finkel");
  const Status s = g.apply_move(0, 1);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.error, "throw")) << s.error;
  EXPECT_TRUE(g.legal_moves().empty());
}

TEST(GameChecked, RejectsIllegalMovesAndListsTheLegalOnes) {
  Game g = game_at("finkel", kL, {0, 0, 0, 0, 0, 0, 5}, {0, 0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(g.apply_throw(2).ok());
  const Position before = g.position();
  for (auto [from, to] : std::vector<std::pair<int, int>>{{5, 8}, {0, 3}, {6, 8}, {5, 7 + 15}}) {
    const Status s = g.apply_move(from, to);
    EXPECT_FALSE(s.ok()) << from << "->" << to;
    EXPECT_TRUE(contains(s.error, "illegal")) << s.error;
    EXPECT_TRUE(contains(s.error, "5->7")) << "the legal moves are listed: " << s.error;
  }
  // A move of the wrong kind (an award answer outside the boxed game) is illegal too.
  EXPECT_FALSE(g.apply_move(Move{kPool, 0, 0, MoveKind::kAwardYes}).ok());
  EXPECT_EQ(g.position(), before);
  EXPECT_TRUE(g.apply_move(5, 7).ok());
  EXPECT_EQ(g.events().size(), 2u);
}

TEST(GameChecked, RejectsEverythingAfterTheEnd) {
  Game g = game_at("finkel", kL, {14, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(g.apply_throw(1).ok());
  ASSERT_TRUE(g.apply_move(14, 15).ok());
  ASSERT_TRUE(g.is_over());
  EXPECT_EQ(g.winner(), kL);
  EXPECT_EQ(g.end_reason(), EndReason::kBoreOff);
  EXPECT_FALSE(g.awaiting_throw());
  EXPECT_FALSE(g.awaiting_decision());
  for (const Status& s : {g.apply_throw(1), g.apply_move(0, 1), g.resign(kD), g.resign(kL),
                          g.end_by(kD, EndReason::kTimeout)}) {
    EXPECT_FALSE(s.ok());
    EXPECT_TRUE(contains(s.error, "over")) << s.error;
  }
  EXPECT_EQ(g.winner(), kL);
  EXPECT_TRUE(g.chance_outcomes().size == 0);
}

TEST(GameChecked, AGameStartingFinishedIsOver) {
  Game g = game_at("finkel", kD, {0, 0, 0, 0, 0, 0, 0}, {15, 15, 15, 15, 15, 15, 15});
  EXPECT_TRUE(g.is_over());
  EXPECT_EQ(g.winner(), kD);
}

TEST(GameResign, TheOtherPlayerWins) {
  for (Player loser : {kL, kD}) {
    Game g("finkel");
    ASSERT_TRUE(g.apply_throw(3).ok());
    ASSERT_TRUE(g.resign(loser).ok());
    EXPECT_TRUE(g.is_over());
    EXPECT_EQ(g.winner(), other(loser));
    EXPECT_EQ(g.end_reason(), EndReason::kResign);
    EXPECT_EQ(g.events().back().type, GameEvent::Type::kResign);
    EXPECT_EQ(g.events().back().player, loser);
    EXPECT_FALSE(g.apply_move(0, 3).ok());
  }
}

TEST(GameResign, EndByRejectsReasonsThatAreNotEarlyEnds) {
  Game g("finkel");
  EXPECT_FALSE(g.end_by(kL, EndReason::kBoreOff).ok());
  EXPECT_FALSE(g.end_by(kL, EndReason::kNone).ok());
  EXPECT_FALSE(g.is_over());
  EXPECT_TRUE(g.end_by(kL, EndReason::kTimeout).ok());
  EXPECT_EQ(g.winner(), kD);
  EXPECT_EQ(g.end_reason(), EndReason::kTimeout);
}

TEST(GameResign, UndoTakesTheResignationBack) {
  Game g("bell");
  ASSERT_TRUE(g.resign(kD).ok());
  EXPECT_EQ(g.balance(kL), 1) << "the winner takes the kitty of 2 stakes";
  ASSERT_TRUE(g.undo());
  EXPECT_FALSE(g.is_over());
  EXPECT_EQ(g.winner(), std::nullopt);
  EXPECT_EQ(g.kitty(), 2);
  EXPECT_EQ(g.balance(kL), -1);
  EXPECT_TRUE(g.events().empty());
}

struct Snapshot {
  Position pos;
  std::array<PlayerStats, 2> stats;
  int kitty;
  std::array<int, 2> balance;
  std::size_t events;
  int turns;
  bool over;
};

Snapshot snap(const Game& g) {
  return {g.position(),      {g.stats(kL), g.stats(kD)},
          g.kitty(),         {g.balance(kL), g.balance(kD)},
          g.events().size(), g.turn_number(),
          g.is_over()};
}

void expect_same(const Snapshot& a, const Snapshot& b, const std::string& where) {
  EXPECT_EQ(a.pos, b.pos) << where;
  for (int pl = 0; pl < 2; ++pl) {
    const PlayerStats &x = a.stats[pl], &y = b.stats[pl];
    EXPECT_EQ(x.throws, y.throws) << where;
    EXPECT_EQ(x.moves, y.moves) << where;
    EXPECT_EQ(x.passes, y.passes) << where;
    EXPECT_EQ(x.captures, y.captures) << where;
    EXPECT_EQ(x.rosettes, y.rosettes) << where;
    EXPECT_EQ(x.borne_off, y.borne_off) << where;
    EXPECT_EQ(x.bounces, y.bounces) << where;
    EXPECT_EQ(x.forfeits, y.forfeits) << where;
  }
  EXPECT_EQ(a.kitty, b.kitty) << where;
  EXPECT_EQ(a.balance, b.balance) << where;
  EXPECT_EQ(a.events, b.events) << where;
  EXPECT_EQ(a.turns, b.turns) << where;
  EXPECT_EQ(a.over, b.over) << where;
}

// Plays a seeded random game, then undoes it event by event back to the start.
void undo_whole_game(const char* rules, std::uint64_t seed) {
  Game g(rules);
  Rng rng(seed);
  std::vector<Snapshot> history{snap(g)};
  for (int step = 0; step < 100000 && !g.is_over(); ++step) {
    if (g.awaiting_throw()) {
      g.roll(rng);
    } else {
      const MoveList moves = g.legal_moves();
      ASSERT_GT(moves.size, 0);
      const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))];
      ASSERT_TRUE(g.apply_move(m).ok());
    }
    history.push_back(snap(g));
  }
  ASSERT_TRUE(g.is_over()) << rules;
  ASSERT_EQ(g.events().size() + 1, history.size());
  for (std::size_t i = history.size() - 1; i > 0; --i) {
    ASSERT_TRUE(g.undo());
    expect_same(snap(g), history[i - 1],
                std::string(rules) + " undo to event " + std::to_string(i - 1));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_FALSE(g.undo()) << "nothing left to undo";
  EXPECT_EQ(g.position(), g.start_position());
}

TEST(GameUndo, RestoresPositionStatsAndLedgerExactly) {
  undo_whole_game("finkel", 1);
  undo_whole_game("bell", 2);
  undo_whole_game("boxed", 3);
  undo_whole_game("blitz", 4);
  undo_whole_game("conventional", 5);
}

TEST(GameUndo, UndoThenRedoGivesTheSameGame) {
  Game g("masters");
  Rng rng(99);
  for (int i = 0; i < 60 && !g.is_over(); ++i) {
    if (g.awaiting_throw()) {
      const int k = g.roll(rng);
      const Snapshot after = snap(g);
      ASSERT_TRUE(g.undo());
      ASSERT_TRUE(g.apply_throw(k).ok());
      expect_same(snap(g), after, "redo throw");
    } else {
      const Move m = g.legal_moves()[0];
      ASSERT_TRUE(g.apply_move(m).ok());
      const Snapshot after = snap(g);
      ASSERT_TRUE(g.undo());
      ASSERT_TRUE(g.apply_move(m).ok());
      expect_same(snap(g), after, "redo move");
    }
  }
}

TEST(GameUndo, NothingToUndoAtTheStart) {
  Game g("finkel");
  EXPECT_FALSE(g.undo());
  EXPECT_EQ(g.position(), g.start_position());
}

TEST(GameStats, CountsThrowsMovesAndPasses) {
  Game g("finkel");
  ASSERT_TRUE(g.apply_throw(0).ok());  // light passes
  ASSERT_TRUE(g.apply_throw(2).ok());  // dark enters c3
  ASSERT_TRUE(g.apply_move(0, 2).ok());
  EXPECT_EQ(g.stats(kL).throws, 1);
  EXPECT_EQ(g.stats(kL).passes, 1);
  EXPECT_EQ(g.stats(kL).moves, 0);
  EXPECT_EQ(g.stats(kD).throws, 1);
  EXPECT_EQ(g.stats(kD).moves, 1);
  EXPECT_EQ(g.stats(kD).passes, 0);
  ASSERT_EQ(g.events().size(), 3u);
  EXPECT_TRUE(g.events()[0].passed);
  EXPECT_EQ(g.events()[1].outcome, 2);
  EXPECT_EQ(g.events()[2].type, GameEvent::Type::kMove);
  EXPECT_EQ(g.events()[2].move.to, 2);
  EXPECT_EQ(g.turn_number(), 3) << "light's turn, dark's turn, light's again";
}

TEST(GameStats, CountsCapturesRosettesAndBorneOff) {
  // Light: a2 (5) can capture on c2 with 2; g1 (14) bears off with 1; a1 reachable with 4.
  Game g = game_at("finkel", kL, {0, 0, 0, 0, 5, 14, 15}, {0, 0, 0, 0, 0, 0, 7});
  ASSERT_TRUE(g.apply_throw(2).ok());
  ASSERT_TRUE(g.apply_move(5, 7).ok());
  EXPECT_EQ(g.stats(kL).captures, 1);
  ASSERT_TRUE(g.apply_throw(0).ok());  // dark passes
  ASSERT_TRUE(g.apply_throw(4).ok());
  ASSERT_TRUE(g.apply_move(0, 4).ok());  // a1: a rosette, throw again
  EXPECT_EQ(g.stats(kL).rosettes, 1);
  ASSERT_TRUE(g.awaiting_throw());
  EXPECT_EQ(g.to_act(), kL);
  ASSERT_TRUE(g.apply_throw(1).ok());
  ASSERT_TRUE(g.apply_move(14, 15).ok());
  EXPECT_EQ(g.stats(kL).borne_off, 1) << "counts bear-offs made in this game";
  EXPECT_EQ(g.stats(kL).captures, 1);
  EXPECT_EQ(g.stats(kD).captures, 0);
  EXPECT_EQ(g.stats(kD).passes, 1);
}

TEST(GameStats, AWholeRandomGameAddsUp) {
  for (const std::string& id : test::preset_ids()) {
    Game g(id);
    Rng rng(2024);
    while (!g.is_over()) {
      if (g.awaiting_throw()) {
        g.roll(rng);
      } else {
        const MoveList moves = g.legal_moves();
        ASSERT_TRUE(
            g.apply_move(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))])
                .ok());
      }
    }
    const Player w = *g.winner();
    EXPECT_EQ(g.stats(w).borne_off, g.engine().pieces()) << id;
    EXPECT_LT(g.stats(other(w)).borne_off, g.engine().pieces()) << id;
    EXPECT_EQ(g.engine().borne_off(g.position(), w), g.engine().pieces()) << id;
    int throws = 0, moves = 0, awards = 0;
    for (const GameEvent& ev : g.events()) {
      throws += ev.type == GameEvent::Type::kThrow;
      moves += ev.type == GameEvent::Type::kMove && ev.move.kind == MoveKind::kMove;
      awards += ev.type == GameEvent::Type::kMove && ev.move.kind != MoveKind::kMove;
    }
    // Roll-off and coin throws are events but no player's throws.
    EXPECT_LE(g.stats(kL).throws + g.stats(kD).throws, throws) << id;
    EXPECT_EQ(g.stats(kL).moves + g.stats(kD).moves, moves) << id;
    if (!g.rules().rosette_award) {
      EXPECT_EQ(awards, 0) << id;
    }
    // The ledger balances: every unit is in the kitty or a balance.
    EXPECT_EQ(g.kitty() + g.balance(kL) + g.balance(kD), 0) << id;
    EXPECT_EQ(g.kitty(), 0) << id << ": the winner took the kitty";
  }
}

}  // namespace
}  // namespace ur
