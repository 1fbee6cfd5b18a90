// The review's outputs and its other sources: the JSON keeps the replay screen's fields and
// adds the rest, the SVG graph is standalone and small, the explorer lists every throw and
// move, a roll-off start decomposes like any other, and rule sets without a table (boxed,
// murray) are reviewed by search with every value marked as an estimate.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "ai/agent.h"
#include "analysis/explore.h"
#include "analysis/review.h"
#include "analysis/review_json.h"
#include "analysis/review_svg.h"
#include "engine/notation.h"
#include "rules/presets.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

namespace ur::analysis {
namespace {

// Solves `rules` into a temporary table and returns a table source for it.
std::unique_ptr<ValueSource> solved_source(const std::string& rules) {
  auto engine = std::make_shared<const Engine>(rule_set_or_throw(rules));
  auto index = std::make_shared<const solver::StateIndex>(
      std::get<solver::StateIndex>(solver::StateIndex::create(*engine)));
  solver::ValueIteration vi(*index, solver::SolveOptions{});
  vi.solve({});
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ur_output_" + std::to_string(::getpid()) + ".urt"))
                               .string();
  EXPECT_EQ(
      solver::write_table(path, vi.values(), solver::ValueType::kU16, engine->rules().to_string(),
                          index->encoding_id(), vi.max_residual()),
      "");
  auto table = std::get<std::shared_ptr<const solver::Table>>(
      solver::Table::open(path, engine->rules().to_string()));
  std::filesystem::remove(path);  // the mapping stays valid
  return table_source(engine, table, index);
}

Game random_game(std::shared_ptr<const Engine> engine, std::uint64_t seed) {
  auto light =
      std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("greedy", engine->rules(), seed));
  auto dark = std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("random", engine->rules(), seed));
  Game g(std::move(engine));
  Rng dice(seed);
  while (!g.is_over()) {
    if (g.awaiting_throw()) {
      g.roll(dice);
      continue;
    }
    ai::Agent& a = g.to_act() == Player::kLight ? *light : *dark;
    EXPECT_TRUE(g.apply_move(a.choose(g.engine(), g.position(), {})).ok());
  }
  return g;
}

Review reviewed(const Game& g, ValueSource& src) {
  ReviewResult r = review(g, src);
  EXPECT_TRUE(std::holds_alternative<Review>(r)) << std::get<Error>(r).message;
  return std::get<Review>(std::move(r));
}

TEST(ReviewOutput, JsonKeepsTheReplayFieldsAndAddsTheRest) {
  auto src = solved_source("finkel(pieces=2)");
  auto engine = std::make_shared<const Engine>(src->engine().rules());
  const Review r = reviewed(random_game(engine, 3), *src);
  const nlohmann::json j = review_json(r);
  ASSERT_TRUE(j["moves"].is_array());
  for (const char* key :
       {"event", "seat", "legal", "from", "to", "best", "value", "best_value", "cost", "grade"})
    EXPECT_TRUE(j["moves"][0].contains(key)) << key;
  for (const char* key : {"seat", "decisions", "best", "total_cost", "worst_cost", "accuracy",
                          "luck", "luckiest", "unluckiest"})
    EXPECT_TRUE(j["players"][0].contains(key)) << key;
  for (const char* key : {"estimate", "summary", "throws", "decomposition", "key_moves", "graph"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_FALSE(j["estimate"].get<bool>());
  // docs/analysis.md: a whole table grades every decision with a choice exactly.
  EXPECT_EQ(j["source"], "table");
  EXPECT_EQ(j["exact_decisions"].get<int>(),
            j["players"][0]["decisions"].get<int>() + j["players"][1]["decisions"].get<int>());
  EXPECT_EQ(j["graph"].size(), r.steps.size() + 1);
  const nlohmann::json& d = j["decomposition"];
  EXPECT_NEAR(d["result"].get<double>() - d["start"].get<double>(),
              d["light_luck"].get<double>() - d["dark_luck"].get<double>() -
                  d["light_lost"].get<double>() + d["dark_lost"].get<double>() +
                  d["residual"].get<double>(),
              1e-12);
}

TEST(ReviewOutput, TheSvgGraphIsStandaloneAndSmall) {
  auto src = solved_source("finkel(pieces=3)");
  auto engine = std::make_shared<const Engine>(src->engine().rules());
  const Review r = reviewed(random_game(engine, 5), *src);
  const std::string svg = review_svg(r, {.title = "a <title> & more"});
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("a &lt;title&gt; &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("href"), std::string::npos) << "no external reference";
  EXPECT_LT(svg.size(), 30u * 1024u);
}

TEST(ReviewOutput, TheExplorerListsEveryThrowAndMove) {
  auto src = solved_source("finkel(pieces=3)");
  const Engine& e = src->engine();
  const Position start = std::get<Position>(parse_position_string(e, "Lr/000/000"));
  const Exploration x = explore(*src, start);
  EXPECT_EQ(x.throws.size(), 5u);  // 0..4 marked faces
  double sum = 0, avg = 0;
  for (const ExploredThrow& t : x.throws) sum += t.probability, avg += t.probability * t.value;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(avg, x.value, 1e-4) << "a position's value is the average over its throws";
  EXPECT_TRUE(x.throws[0].moves.empty()) << "a 0 passes";
  const Position decide = std::get<Position>(parse_position_string(e, "L3/005/001"));
  const Exploration y = explore(*src, decide);
  ASSERT_EQ(y.moves.size(), 2u);
  EXPECT_EQ(y.moves[0].best + y.moves[1].best, 1);
  EXPECT_EQ(exploration_json(e, y)["moves"].size(), 2u);
}

TEST(ReviewOutput, ARollOffStartDecomposesLikeAnyOther) {
  auto src = solved_source("finkel(pieces=2,start=rolloff,opening_roll=true)");
  auto engine = std::make_shared<const Engine>(src->engine().rules());
  for (int seed = 1; seed <= 40; ++seed) {
    const Review r = reviewed(random_game(engine, seed), *src);
    ASSERT_EQ(r.steps[0].before.phase, Phase::kStart);
    EXPECT_NEAR(r.start_value, 0.5, 0.1);
    // u16 values: each throw's average and the table may differ by 1/65535 and the residual.
    EXPECT_LT(std::abs(r.residual), 2e-5 * r.steps.size()) << "seed " << seed;
  }
}

// Bell (a table solved here): throw chains, a roll-off start, a chain that goes on after a throw
// with no move (the same position throws again). Every throw is a chance point like any other.
TEST(ReviewOutput, ThrowChainsDecomposeToo) {
  auto src = solved_source("bell(pieces=2)");
  auto engine = std::make_shared<const Engine>(src->engine().rules());
  for (int seed = 1; seed <= 40; ++seed) {
    const Game g = random_game(engine, seed);
    const Review r = reviewed(g, *src);
    int throws = 0;
    for (const GameEvent& e : g.events()) throws += e.type == GameEvent::Type::kThrow;
    EXPECT_EQ(r.players[0].throws + r.players[1].throws, throws);
    EXPECT_LT(std::abs(r.residual), 2e-5 * throws) << "seed " << seed;
    for (const PlayerReview& p : r.players) {
      EXPECT_EQ(p.accuracy.has_value(), p.decisions > 0);
      if (p.accuracy) {
        EXPECT_LE(*p.accuracy, 100.0);
      }
    }
  }
}

// A resignation gives up everything the resigner still had; it counts as his lost chance, so
// the decomposition still holds, and the result is the resigner's loss.
TEST(ReviewOutput, AResignationIsLostChance) {
  auto src = solved_source("finkel(pieces=2)");
  auto engine = std::make_shared<const Engine>(src->engine().rules());
  Game g(engine);
  Rng dice(4);
  auto agent = std::get<std::unique_ptr<ai::Agent>>(ai::make_agent("greedy", engine->rules(), 1));
  for (int i = 0; i < 12; ++i) {
    if (g.awaiting_throw())
      g.roll(dice);
    else
      ASSERT_TRUE(g.apply_move(agent->choose(*engine, g.position(), {})).ok());
  }
  const double light_had = src->value(g.position(), Player::kLight);
  ASSERT_TRUE(g.resign(Player::kLight).ok());
  const Review r = reviewed(g, *src);
  ASSERT_EQ(r.steps.back().kind, StepKind::kResign);
  EXPECT_NEAR(r.steps.back().lost, light_had, 1e-12);
  EXPECT_EQ(r.result, 0.0);
  EXPECT_LT(std::abs(r.residual), 1e-3);
  EXPECT_EQ(review_json(r)["moves"].back()["grade"], "resigned");
}

TEST(ReviewOutput, RuleSetsWithoutATableAreEstimated) {
  for (const char* rules : {"boxed", "murray"}) {
    auto engine = std::make_shared<const Engine>(rule_set_or_throw(rules));
    auto src = search_source(engine, 1);
    EXPECT_FALSE(src->exact());
    const Review r = reviewed(random_game(engine, 11), *src);
    EXPECT_TRUE(r.estimate);
    EXPECT_GT(r.steps.size(), 10u);
    for (const Step& s : r.steps) {
      EXPECT_GE(s.light_after, 0.0);
      EXPECT_LE(s.light_after, 1.0);
    }
    const nlohmann::json j = review_json(r);
    EXPECT_TRUE(j["estimate"].get<bool>());
    EXPECT_EQ(j["exact_decisions"], 0) << "search alone grades nothing exactly";
    EXPECT_EQ(j["source"].get<std::string>().rfind("expectimax(depth=", 0), 0u) << j["source"];
    EXPECT_TRUE(j["moves"][0]["estimate"].get<bool>());
    EXPECT_NE(summary_line(r).find("(estimate)"), std::string::npos);
  }
}

}  // namespace
}  // namespace ur::analysis
