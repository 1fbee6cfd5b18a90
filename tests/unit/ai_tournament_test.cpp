// Tournaments: reproducible for a seed whatever the threads, and the statistics.
#include <gtest/gtest.h>

#include <cstdlib>

#include <cmath>

#include "../test_util.h"
#include "ai/tournament.h"
#include "solver/table_store.h"

namespace ur::ai {
namespace {

TournamentResult run(const std::string& rules, const std::string& a, const std::string& b,
                     int games, int threads, std::uint64_t seed, int endgame = 0, int first = 0) {
  TournamentConfig config;
  config.endgame = endgame;
  config.first = first;
  config.rules = rule_set_or_throw(rules);
  config.agent_a = a;
  config.agent_b = b;
  config.games = games;
  config.threads = threads;
  config.seed = seed;
  auto r = run_tournament(config);
  if (auto* e = std::get_if<Error>(&r)) ADD_FAILURE() << e->message;
  return std::get<TournamentResult>(r);
}

bool same_games(const TournamentResult& x, const TournamentResult& y) {
  if (x.per_game.size() != y.per_game.size()) return false;
  for (std::size_t i = 0; i < x.per_game.size(); ++i) {
    const GameSummary &g = x.per_game[i], &h = y.per_game[i];
    if (g.a_won != h.a_won || g.a_light != h.a_light || g.throws != h.throws) return false;
  }
  return true;
}

TEST(Tournament, ReproducibleForASeedWhateverTheThreads) {
  for (const char* rules : {"finkel", "boxed"}) {
    const TournamentResult one = run(rules, "greedy", "random", 120, 1, 7);
    const TournamentResult three = run(rules, "greedy", "random", 120, 3, 7);
    EXPECT_TRUE(same_games(one, three)) << rules;
    EXPECT_EQ(one.a_wins, three.a_wins);
    EXPECT_EQ(one.throws, three.throws);
    const TournamentResult other = run(rules, "greedy", "random", 120, 2, 8);
    EXPECT_FALSE(same_games(one, other)) << rules << ": another seed, other games";
  }
  const TournamentResult x = run("finkel", "expectimax(depth=2)", "greedy", 16, 1, 3);
  const TournamentResult y = run("finkel", "expectimax(depth=2)", "greedy", 16, 2, 3);
  EXPECT_TRUE(same_games(x, y));
}

// A run split into parts (--from): each part plays its own games of the seed's sequence, and
// the parts add up to the whole run, game for game (the seats too: A is light in even games).
TEST(Tournament, PartsOfARunAddUpToTheWhole) {
  const TournamentResult whole = run("finkel", "greedy", "random", 60, 2, 7);
  const TournamentResult head = run("finkel", "greedy", "random", 25, 1, 7);
  const TournamentResult tail = run("finkel", "greedy", "random", 60, 2, 7, 0, 25);
  ASSERT_EQ(head.games, 25);
  ASSERT_EQ(tail.games, 35);
  ASSERT_EQ(tail.per_game.size(), 35u);
  for (std::size_t i = 0; i < whole.per_game.size(); ++i) {
    const GameSummary& part = i < 25 ? head.per_game[i] : tail.per_game[i - 25];
    EXPECT_EQ(part.a_won, whole.per_game[i].a_won) << "game " << i;
    EXPECT_EQ(part.a_light, whole.per_game[i].a_light) << "game " << i;
    EXPECT_EQ(part.throws, whole.per_game[i].throws) << "game " << i;
  }
  EXPECT_EQ(head.a_wins + tail.a_wins, whole.a_wins);
  EXPECT_EQ(head.throws + tail.throws, whole.throws);
  EXPECT_EQ(head.a_games_as_light + tail.a_games_as_light, whole.a_games_as_light);
  EXPECT_FALSE(tail.per_game[0].a_light);  // game 25
}

TEST(Tournament, AlternatesSeatsAndCountsEverything) {
  const TournamentResult r = run("finkel", "first", "random", 51, 2, 1);
  EXPECT_EQ(r.a_games_as_light, 26);  // games 0, 2, ..., 50
  for (std::size_t i = 0; i < r.per_game.size(); ++i) EXPECT_EQ(r.per_game[i].a_light, i % 2 == 0);
  EXPECT_EQ(r.a_wins + r.b_wins + r.abandoned, 51);
  EXPECT_GT(r.throws_per_game(), 20);
}

TEST(Tournament, GreedyBeatsRandom) {
  const TournamentResult r = run("finkel", "greedy", "random", 300, 2, 5);
  EXPECT_GT(r.score(), 0.85);
  EXPECT_GT(r.ci_low(), 0.5);
}

TEST(Tournament, WilsonIntervalAndElo) {
  TournamentResult r;
  r.games = 100;
  r.a_wins = 60;
  r.b_wins = 40;
  EXPECT_DOUBLE_EQ(r.score(), 0.6);
  // Wilson 95% interval for 60/100: 0.5020 .. 0.6906.
  EXPECT_NEAR(r.ci_low(), 0.5020, 1e-4);
  EXPECT_NEAR(r.ci_high(), 0.6906, 1e-4);
  EXPECT_NEAR(TournamentResult::elo(0.6), 70.44, 0.01);
  EXPECT_NEAR(TournamentResult::elo(0.5), 0.0, 1e-12);
  EXPECT_TRUE(std::isinf(TournamentResult::elo(1.0)));
  r.abandoned = 2;
  r.a_wins = 59;
  r.b_wins = 39;
  EXPECT_DOUBLE_EQ(r.score(), 0.6);
}

TEST(Tournament, BadInputIsAnError) {
  TournamentConfig config;
  config.rules = rule_set_or_throw("finkel");
  config.agent_a = "greedy";
  config.agent_b = "deep_blue";
  auto r = run_tournament(config);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("unknown agent 'deep_blue'"), std::string::npos);
  config.agent_b = "perfect";
  const solver::TableStore none("/nonexistent/ur-data");  // no table anywhere
  config.tables = &none;
  r = run_tournament(config);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("no table available for finkel"), std::string::npos);
  config.agent_b = "random";
  config.games = 0;
  EXPECT_TRUE(std::holds_alternative<Error>(run_tournament(config)));
  config.games = 10;
  for (int first : {-1, 10, 11}) {
    config.first = first;
    auto bad = run_tournament(config);
    ASSERT_TRUE(std::holds_alternative<Error>(bad)) << first;
    EXPECT_NE(std::get<Error>(bad).message.find("first game"), std::string::npos);
  }
}

// The endgame count (ur tournament --endgame K, docs/solver.md): with K the rule set's own
// pieces every decision past the start is inside; a smaller K holds fewer decisions, each game
// enters no earlier, and the counts do not depend on the threads.
TEST(Tournament, CountsTheDecisionsInsideAnEndgameTable) {
  const TournamentResult whole = run("finkel(pieces=3)", "greedy", "random", 40, 2, 5, 3);
  for (const GameSummary& g : whole.per_game) {
    EXPECT_GT(g.endgame.choices, 0);
    EXPECT_EQ(g.endgame.choices_inside, g.endgame.choices);
    EXPECT_EQ(g.endgame.first_inside, 0);
  }
  const TournamentResult two = run("finkel(pieces=3)", "greedy", "random", 40, 1, 5, 2);
  const TournamentResult one = run("finkel(pieces=3)", "greedy", "random", 40, 2, 5, 1);
  int some_outside = 0;
  for (std::size_t i = 0; i < whole.per_game.size(); ++i) {
    const EndgameCount &k3 = whole.per_game[i].endgame, &k2 = two.per_game[i].endgame,
                       &k1 = one.per_game[i].endgame;
    EXPECT_EQ(k1.choices, k3.choices);  // the same games
    EXPECT_LE(k1.choices_inside, k2.choices_inside);
    EXPECT_LE(k2.choices_inside, k3.choices_inside);
    if (k1.first_inside >= 0) {
      EXPECT_GE(k1.first_inside, k2.first_inside);
    }
    some_outside += k1.choices_inside < k1.choices;
  }
  EXPECT_GT(some_outside, 0);
  const TournamentResult again = run("finkel(pieces=3)", "greedy", "random", 40, 3, 5, 1);
  for (std::size_t i = 0; i < one.per_game.size(); ++i) {
    EXPECT_EQ(again.per_game[i].endgame.choices_inside, one.per_game[i].endgame.choices_inside);
    EXPECT_EQ(again.per_game[i].endgame.first_inside, one.per_game[i].endgame.first_inside);
  }
}

}  // namespace
}  // namespace ur::ai
