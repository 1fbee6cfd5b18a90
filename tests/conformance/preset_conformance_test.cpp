// Conformance over every preset (OpenSpiel's RandomSimTest, per rule set): chance nodes are
// distributions, seeded random games end with a winner, every step keeps the engine's
// invariants, every decision node has a move, and Game::undo restores every event exactly.
//
// Random play samples throws from chance_outcomes() itself, so a wrong probability table shows
// up as a failed sum, and every move is chosen uniformly among legal_moves().
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "../test_util.h"
#include "engine/game.h"

namespace ur {
namespace {

// Far beyond any real game (Murray on RoyalUr's path averages ~1,600 throws between random
// players): a game that gets here is stuck in a loop.
constexpr int kThrowLimit = 200000;

class PresetConformance : public ::testing::TestWithParam<std::string> {
 protected:
  PresetConformance() : engine_(rule_set_or_throw(GetParam())) {}
  const Engine engine_;
};

TEST_P(PresetConformance, ChanceOutcomesSumToOneAtEveryChanceNode) {
  const Engine& e = engine_;
  Rng rng(0xC0FFEE);
  int nodes = 0;
  for (int game = 0; game < 300; ++game) {
    Position p = e.initial_position();
    MoveList moves;
    for (int step = 0; step < kThrowLimit && !p.is_over(); ++step) {
      if (p.is_chance()) {
        const ChanceList c = e.chance_outcomes(p);
        ++nodes;
        ASSERT_GT(c.size, 0) << test::describe(e, p);
        for (const ChanceOutcome& o : c) {
          ASSERT_GT(o.probability, 0.0) << test::describe(e, p) << " outcome " << o.outcome;
          ASSERT_LE(o.probability, 1.0) << test::describe(e, p);
        }
        ASSERT_NEAR(test::probability_sum(c), 1.0, 1e-12) << test::describe(e, p);
        if (!e.apply_throw(p, test::sample_outcome(e, p, rng), moves)) continue;
      } else {
        e.legal_moves(p, moves);
      }
      e.apply_move(p, moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    }
    ASSERT_TRUE(p.is_over());
  }
  EXPECT_GT(nodes, 300 * 10);
}

// Engine::check() is thorough rather than fast (it rebuilds the masks and compares every pair
// of squares), so it runs after every step of the first kCheckedSteps steps and at the end of
// every game; the rest of the 10,000 games check the cheap properties at every step.
constexpr std::uint64_t kCheckedSteps = 500000;

TEST_P(PresetConformance, RandomGamesEndWithAWinnerAndKeepTheInvariants) {
  const Engine& e = engine_;
  constexpr int kGames = 10000;
  Rng rng(20240601);
  std::uint64_t steps = 0, checked_games = 0;
  int wins[2] = {0, 0};
  MoveList moves, listed;
  for (int game = 0; game < kGames; ++game) {
    Position p = e.initial_position();
    const bool check_every_step = steps < kCheckedSteps;
    checked_games += check_every_step;
    int throws = 0;
    while (!p.is_over()) {
      ++steps;
      if (p.is_chance()) {
        if (++throws > kThrowLimit)
          FAIL() << "game " << game << " has no winner after " << kThrowLimit
                 << " throws: " << test::describe(e, p);
        const int k = test::sample_outcome(e, p, rng);
        const bool decide = e.apply_throw(p, k, moves);
        if (check_every_step) {
          if (const std::string err = e.check(p); !err.empty())
            FAIL() << "game " << game << " after throw " << k << ": " << err << " in "
                   << test::describe(e, p);
        }
        if (decide != p.is_decision())
          FAIL() << "game " << game << ": apply_throw returned " << decide << " at "
                 << test::describe(e, p);
        if (!decide) continue;
        if (check_every_step) {
          e.legal_moves(p, listed);
          if (test::move_set(listed) != test::move_set(moves))
            FAIL() << "game " << game << ": apply_throw and legal_moves disagree at "
                   << test::describe(e, p);
        }
      } else {
        e.legal_moves(p, moves);
      }
      if (moves.empty())
        FAIL() << "game " << game << ": a decision without moves at " << test::describe(e, p);
      const Position before = p;
      const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))];
      e.apply_move(p, m);
      if (check_every_step) {
        if (const std::string err = e.check(p); !err.empty())
          FAIL() << "game " << game << " after move " << int{m.from} << "->" << int{m.to} << " at "
                 << test::describe(e, before) << ": " << err << " in " << test::describe(e, p);
      }
    }
    if (const std::string err = e.check(p); !err.empty())
      FAIL() << "game " << game << " ends in a broken position: " << err;
    const Player w = p.turn;
    if (e.borne_off(p, w) != e.pieces() || e.borne_off(p, other(w)) >= e.pieces())
      FAIL() << "game " << game << " ended without one clear winner: " << test::describe(e, p);
    ++wins[index_of(w)];
  }
  // Random play is close to fair; a side that never wins means a broken turn order.
  EXPECT_GT(wins[0], kGames / 5) << "light wins";
  EXPECT_GT(wins[1], kGames / 5) << "dark wins";
  EXPECT_GE(checked_games, 100u) << "check() ran after every step of these games";
  RecordProperty("steps", static_cast<int>(steps));
  RecordProperty("games_checked_every_step", static_cast<int>(checked_games));
}

// Plays games through Game; after every event, undo must give back the position (and stats,
// ledger, history) from before it, and redoing the event must give back the position after it.
TEST_P(PresetConformance, UndoAfterEveryEventRestoresThePreviousPosition) {
  auto engine = std::make_shared<const Engine>(engine_);
  const int games = GetParam().rfind("murray", 0) == 0 ? 60 : 300;
  Rng rng(77);
  for (int game = 0; game < games; ++game) {
    Game g(engine);
    for (int step = 0; step < kThrowLimit && !g.is_over(); ++step) {
      const Position before = g.position();
      const int kitty = g.kitty();
      const PlayerStats light = g.stats(Player::kLight);
      const std::size_t events = g.events().size();
      bool is_throw = g.awaiting_throw();
      int k = 0;
      Move m{};
      if (is_throw) {
        k = g.roll(rng);
      } else {
        const MoveList moves = g.legal_moves();
        ASSERT_GT(moves.size, 0) << test::describe(*engine, before);
        m = moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))];
        ASSERT_TRUE(g.apply_move(m).ok());
      }
      ASSERT_EQ(g.events().size(), events + 1);
      const Position after = g.position();
      ASSERT_TRUE(g.undo());
      ASSERT_EQ(g.position(), before) << "game " << game << " step " << step << ": undo gives "
                                      << test::describe(*engine, g.position()) << ", expected "
                                      << test::describe(*engine, before);
      ASSERT_EQ(g.kitty(), kitty);
      ASSERT_EQ(g.stats(Player::kLight).throws, light.throws);
      ASSERT_EQ(g.stats(Player::kLight).moves, light.moves);
      ASSERT_EQ(g.events().size(), events);
      ASSERT_FALSE(g.is_over());
      ASSERT_TRUE(is_throw ? g.apply_throw(k).ok() : g.apply_move(m).ok());
      ASSERT_EQ(g.position(), after) << "redo differs";
    }
    ASSERT_TRUE(g.is_over());
    // And the whole game unwinds to the start.
    while (g.undo()) {
    }
    ASSERT_EQ(g.position(), engine->initial_position());
    ASSERT_TRUE(g.events().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetConformance, ::testing::ValuesIn(test::preset_ids()),
                         test::param_name);

}  // namespace
}  // namespace ur
