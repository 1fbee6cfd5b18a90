// Endgame tables where tables are read: murray's table of two pieces left a side, solved here,
// makes the review exact in the endgame and estimated before it (each step labelled), the
// perfect agent plays the table's best move inside it and searches before it, and the search
// takes the table's value wherever it reaches the endgame.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "ai/agent.h"
#include "ai/expectimax.h"
#include "ai/net_agent.h"
#include "ai/network.h"
#include "analysis/review.h"
#include "engine/random.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

// A namespace of its own: the unity build may batch this file with the other analysis tests.
namespace ur::analysis::endgame_test {
namespace {

class EndgameReviewTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                     ("ur_endgame_review_" + std::to_string(::getpid())));
    std::filesystem::create_directories(*dir_ / "tables");
    const Engine engine(rule_set_or_throw("murray"));
    const solver::StateIndex index = std::get<solver::StateIndex>(
        solver::StateIndex::create(engine, solver::Encoding::kAuto, 2));
    solver::ValueIteration vi(index, solver::SolveOptions{});
    vi.solve({});
    ASSERT_EQ(solver::write_table(solver::table_path(dir_->string(), "murray", 2), vi.values(),
                                  solver::ValueType::kU16, "murray", index.encoding_id(),
                                  vi.max_residual()),
              "");
    store_ = new solver::TableStore(dir_->string());
  }
  static void TearDownTestSuite() {
    delete store_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }

  // A murray game of two greedy players (fast, and long enough to reach the endgame).
  static Game play(std::uint64_t seed) {
    Game g("murray");
    Rng dice(seed);
    auto agent = std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("greedy", g.rules(), seed));
    while (!g.is_over()) {
      if (g.awaiting_throw()) {
        g.roll(dice);
        continue;
      }
      EXPECT_TRUE(g.apply_move(agent->choose(g.engine(), g.position(), {})).ok());
    }
    return g;
  }

  static inline std::filesystem::path* dir_ = nullptr;
  static inline solver::TableStore* store_ = nullptr;
};

TEST_F(EndgameReviewTest, TheReviewIsExactInTheEndgameAndEstimatedBefore) {
  const solver::TableLookup found = store_->find(rule_set_or_throw("murray"));
  ASSERT_TRUE(found.ready()) << found.why;
  ASSERT_EQ(found.solved.endgame(), 2);
  OpenedSource src = open_source(rule_set_or_throw("murray"), store_);
  ASSERT_TRUE(src.source);
  EXPECT_EQ(src.source->name().rfind("endgame(k=2)+", 0), 0u) << src.source->name();
  const Game g = play(7);
  ReviewResult rr = review(g, *src.source);
  ASSERT_TRUE(std::holds_alternative<Review>(rr)) << std::get<Error>(rr).message;
  const Review& r = std::get<Review>(rr);
  EXPECT_TRUE(r.estimate);
  int inside = 0, before = 0;
  for (const Step& s : r.steps) {
    if (s.kind != StepKind::kDecision || s.legal < 2) continue;
    ASSERT_EQ(s.exact, found.solved.covers(s.before));
    (s.exact ? inside : before)++;
    if (!s.exact) continue;
    // Exact steps read the table: the best move's value is the table's best.
    double best = 0;
    MoveList moves;
    g.engine().legal_moves(s.before, moves);
    for (const Move& m : moves) {
      Position q = s.before;
      g.engine().apply_move(q, m);
      best = std::max(best, found.solved.value(q, s.player));
    }
    EXPECT_NEAR(s.best_value, best, 1e-9);
  }
  EXPECT_EQ(r.exact_decisions, inside);
  EXPECT_GT(inside, 0) << "the game never reached two pieces left a side";
  EXPECT_GT(before, 0);
}

// With a network in the data directory, the search before the endgame values its leaves with
// it (and still reads the table where it reaches the endgame): the same exact steps, other
// estimates before them.
TEST_F(EndgameReviewTest, BeforeTheEndgameTheNetworkValuesTheSearchsLeaves) {
  const RuleSet rules = rule_set_or_throw("murray");
  OpenedSource hand = open_source(rules, store_);
  const std::string net = ai::network_path(store_, "murray");
  std::filesystem::create_directories(std::filesystem::path(net).parent_path());
  ASSERT_EQ(ai::write_network(net, ai::make_network(Engine(rules), 8, 1)), "");
  OpenedSource learned = open_source(rules, store_);
  std::filesystem::remove(net);
  ASSERT_TRUE(hand.source && learned.source);
  EXPECT_EQ(hand.source->name(), "endgame(k=2)+expectimax(depth=2)");
  EXPECT_EQ(learned.source->name(), "endgame(k=2)+net(depth=2)");
  const Game g = play(7);
  ReviewResult a = review(g, *hand.source), b = review(g, *learned.source);
  ASSERT_TRUE(std::holds_alternative<Review>(a) && std::holds_alternative<Review>(b));
  const Review &ra = std::get<Review>(a), &rb = std::get<Review>(b);
  ASSERT_EQ(ra.steps.size(), rb.steps.size());
  EXPECT_EQ(ra.exact_decisions, rb.exact_decisions);
  EXPECT_GT(rb.exact_decisions, 0);
  int differ = 0;
  for (std::size_t i = 0; i < ra.steps.size(); ++i) {
    const Step &x = ra.steps[i], &y = rb.steps[i];
    ASSERT_EQ(x.exact, y.exact);
    if (x.kind != StepKind::kDecision || x.legal < 2) continue;
    if (x.exact)
      EXPECT_NEAR(x.best_value, y.best_value, 1e-9) << "step " << i;
    else
      differ += std::abs(x.best_value - y.best_value) > 1e-6;
  }
  EXPECT_GT(differ, 0) << "the network's estimates are the hand evaluation's";
}

TEST_F(EndgameReviewTest, ThePerfectAgentPlaysTheTableInsideAndSearchesBefore) {
  const solver::TableLookup found = store_->find(rule_set_or_throw("murray"));
  ASSERT_TRUE(found.ready()) << found.why;
  auto made = ai::make_agent("perfect", rule_set_or_throw("murray"), 1, store_);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<ai::Agent>>(made))
      << std::get<Error>(made).message;
  ai::Agent& perfect = *std::get<std::unique_ptr<ai::Agent>>(made);
  const Game g = play(11);
  const Engine& e = g.engine();
  int checked_inside = 0;
  Game replay("murray");
  for (const GameEvent& ev : g.events()) {
    const Position p = replay.position();
    if (ev.type == GameEvent::Type::kMove && p.is_decision()) {
      MoveList moves;
      e.legal_moves(p, moves);
      const Move chosen = perfect.choose(e, p, {});
      ASSERT_GE(ai::index_of_move(moves, chosen), 0);
      if (found.solved.covers(p)) {
        double best = 0, got = 0;
        for (const Move& m : moves) {
          Position q = p;
          e.apply_move(q, m);
          const double v = found.solved.value(q, p.turn);
          best = std::max(best, v);
          if (m == chosen) got = v;
        }
        EXPECT_NEAR(got, best, 1e-9);
        ++checked_inside;
      }
    }
    const Status applied = ev.type == GameEvent::Type::kThrow  ? replay.apply_throw(ev.outcome)
                           : ev.type == GameEvent::Type::kMove ? replay.apply_move(ev.move)
                                                               : Status{};
    ASSERT_TRUE(applied.ok()) << applied.error;
  }
  EXPECT_GT(checked_inside, 0);
}

// Before the endgame the perfect agent plays what the perfect level plays without any table:
// the data directory's network at depth 3 where one loads, else hard's search (depth 4), each
// with the table at its leaves; the level's note says which.
TEST_F(EndgameReviewTest, BeforeTheEndgameThePerfectAgentPlaysTheStrongestSearch) {
  const RuleSet rules = rule_set_or_throw("murray");
  const solver::TableLookup found = store_->find(rules);
  ASSERT_TRUE(found.ready()) << found.why;
  auto table = std::make_shared<const solver::SolvedTable>(found.solved);
  const Game g = play(13);
  const Engine& e = g.engine();
  // The decision positions of the game outside the table with a choice (the first 40).
  std::vector<Position> before;
  Game replay("murray");
  for (const GameEvent& ev : g.events()) {
    const Position p = replay.position();
    MoveList moves;
    if (p.is_decision() && before.size() < 40 && !found.solved.covers(p)) {
      e.legal_moves(p, moves);
      if (moves.size > 1) before.push_back(p);
    }
    const Status applied = ev.type == GameEvent::Type::kThrow  ? replay.apply_throw(ev.outcome)
                           : ev.type == GameEvent::Type::kMove ? replay.apply_move(ev.move)
                                                               : Status{};
    ASSERT_TRUE(applied.ok()) << applied.error;
  }
  ASSERT_EQ(before.size(), 40u);
  auto same_choices = [&](ai::ExpectimaxOptions options) {
    auto made = ai::make_agent("perfect", rules, 1, store_);
    ai::Agent& perfect = *std::get<std::unique_ptr<ai::Agent>>(made);
    ai::ExpectimaxAgent reference(std::move(options));
    int same = 0;
    for (const Position& p : before) same += perfect.choose(e, p, {}) == reference.choose(e, p, {});
    return same;
  };
  EXPECT_EQ(same_choices({.depth = 4, .table = table}), 40);
  EXPECT_NE(ai::level_note("perfect", rules, store_).find("as hard before"), std::string::npos);

  const std::string net = ai::network_path(store_, "murray");
  std::filesystem::create_directories(std::filesystem::path(net).parent_path());
  ASSERT_EQ(ai::write_network(net, ai::make_network(e, 8, 1)), "");
  auto network = ai::data_network(store_, e);
  ASSERT_TRUE(network);
  const int with_network = same_choices({.depth = 3, .network = network, .table = table});
  const std::string note = ai::level_note("perfect", rules, store_);
  std::filesystem::remove(net);
  EXPECT_EQ(with_network, 40);
  EXPECT_NE(note.find("the learned network (net(depth=3)) before"), std::string::npos) << note;
}

TEST_F(EndgameReviewTest, TheSearchReadsTheTableWhereItReachesTheEndgame) {
  const solver::TableLookup found = store_->find(rule_set_or_throw("murray"));
  ASSERT_TRUE(found.ready()) << found.why;
  const Engine& e = *found.solved.engine;
  ai::ExpectimaxAgent search(ai::ExpectimaxOptions{
      .depth = 2, .table = std::make_shared<const solver::SolvedTable>(found.solved)});
  const solver::StateIndex& index = *found.solved.index;
  for (std::uint64_t i = 0; i < index.size(); i += index.size() / 50) {
    const Position p = index.unrank(i);
    EXPECT_NEAR(*search.value(e, p, 2, p.turn), found.solved.value(p, p.turn), 1e-12);
  }
}

}  // namespace
}  // namespace ur::analysis::endgame_test
