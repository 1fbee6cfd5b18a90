// Agents and the registry: specs, levels, errors, and every agent over every preset.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../test_util.h"
#include "ai/agent.h"
#include "ai/tournament.h"
#include "engine/game.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::ai {
namespace {

const RuleSet& finkel() {
  static const RuleSet r = rule_set_or_throw("finkel");
  return r;
}

std::string error_of(std::string_view spec, const solver::TableStore* tables = nullptr) {
  AgentResult r = make_agent(spec, finkel(), 1, tables);
  if (auto* e = std::get_if<Error>(&r)) return e->message;
  return "";
}

TEST(AgentRegistry, BuildsEveryAgentWithItsCanonicalName) {
  const std::pair<const char*, const char*> cases[] = {
      {"random", "random"},
      {"first", "first"},
      {"greedy", "greedy"},
      {" expectimax ", "expectimax(depth=3)"},
      {"expectimax(depth=2)", "expectimax(depth=2)"},
      {"expectimax( depth = 4 , time_ms = 50 )", "expectimax(depth=4,time_ms=50)"},
      {"expectimax(time_ms=50)", "expectimax(depth=60,time_ms=50)"},
      {"beginner", "random"},
      {"easy", "greedy"},
      {"medium", "expectimax(depth=2)"},
      {"hard", "expectimax(depth=4)"},
  };
  for (const auto& [spec, name] : cases) {
    AgentResult r = make_agent(spec, finkel(), 1);
    ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(r))
        << spec << ": " << std::get<Error>(r).message;
    EXPECT_EQ(std::get<std::unique_ptr<Agent>>(r)->name(), name) << spec;
  }
}

TEST(AgentRegistry, RejectsBadSpecsWithAClearMessage) {
  EXPECT_NE(error_of("minimax").find("unknown agent 'minimax'"), std::string::npos);
  EXPECT_NE(error_of("expectimax(depth=0)").find("depth must be an integer from 1"),
            std::string::npos);
  EXPECT_NE(error_of("expectimax(depth=x)").find("not 'x'"), std::string::npos);
  EXPECT_NE(error_of("expectimax(depth=99)").find("from 1 to 60"), std::string::npos);
  EXPECT_NE(error_of("expectimax(depth=2").find("missing ')'"), std::string::npos);
  EXPECT_NE(error_of("expectimax(depth)").find("needs a value"), std::string::npos);
  EXPECT_NE(error_of("expectimax(depth=2,depth=3)").find("given twice"), std::string::npos);
  EXPECT_NE(error_of("expectimax(speed=2)").find("unknown parameter 'speed'"), std::string::npos);
  EXPECT_NE(error_of("random(depth=2)").find("takes no parameters"), std::string::npos);
  EXPECT_NE(error_of("greedy(danger=lots)").find("weight danger"), std::string::npos);
  EXPECT_NE(error_of("greedy(scale=0)").find("above 0"), std::string::npos);
  EXPECT_EQ(error_of(""), "empty agent name");
  EXPECT_EQ(error_of("greedy(danger=1.2,tempo=0.3)"), "");
}

// A fresh temporary data directory for the life of the object, and the table store of it
// (listed at the first call of tables(): write the tables first).
class ScopedDataDir {
 public:
  ScopedDataDir() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ur_ai_data_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_ / "tables");
  }
  ~ScopedDataDir() { std::filesystem::remove_all(dir_); }
  const std::filesystem::path& path() const { return dir_; }
  const solver::TableStore* tables() {
    if (!store_) store_ = std::make_unique<solver::TableStore>(dir_.string());
    return store_.get();
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  std::unique_ptr<solver::TableStore> store_;
};

TEST(AgentRegistry, PerfectSaysNoTableAndTheLevelFallsBackToSearch) {
  ScopedDataDir data;
  const solver::TableStore* tables = data.tables();
  EXPECT_EQ(error_of("perfect", tables).rfind("perfect: no table available for finkel", 0), 0u)
      << error_of("perfect", tables);
  const RuleSet masters5 = rule_set_or_throw("masters(pieces=5)");
  AgentResult r = make_agent("perfect", masters5, 1, tables);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_EQ(std::get<Error>(r).message.rfind(
                "perfect: no table available for " + masters5.to_string(), 0),
            0u);
  // Rule sets the dense index cannot hold say so.
  AgentResult boxed = make_agent("perfect", rule_set_or_throw("boxed"), 1, tables);
  ASSERT_TRUE(std::holds_alternative<Error>(boxed));
  EXPECT_NE(std::get<Error>(boxed).message.find("cannot be solved whole"), std::string::npos);
  EXPECT_NE(error_of("perfect(depth=3)").find("unknown parameter 'depth'"), std::string::npos);
  // Without a table the perfect level plays as hard, and says so.
  EXPECT_EQ(level_spec("perfect", finkel(), tables), level_spec("hard", finkel(), tables));
  const std::string note = level_note("perfect", finkel(), tables);
  EXPECT_EQ(note.rfind("perfect: no table available for finkel", 0), 0u) << note;
  EXPECT_NE(note.find("the perfect level plays as hard (expectimax(depth=4))"), std::string::npos)
      << note;
  EXPECT_EQ(level_note("hard", finkel(), tables), "");
  // --table FILE names the perfect player's table; other specs are left alone.
  EXPECT_EQ(with_perfect_table("perfect", "t.urt"), "perfect(table=t.urt)");
  EXPECT_EQ(with_perfect_table("perfect", ""), "perfect");
  EXPECT_EQ(with_perfect_table("greedy", "t.urt"), "greedy");
  EXPECT_EQ(level_spec("beginner", finkel(), tables), "random");
  EXPECT_EQ(level_spec("grandmaster", finkel(), tables), "");
  EXPECT_TRUE(is_level("perfect"));
  EXPECT_FALSE(is_level("grandmaster"));
}

TEST(AgentRegistry, EveryLevelOfTheOneListIsItsAgent) {
  // ai::levels() is what GET /api/levels and the web lobby offer: each one must build.
  std::vector<std::string> names;
  for (const Level& l : levels()) {
    names.emplace_back(l.name);
    if (l.name != "perfect") {
      EXPECT_EQ(level_spec(l.name, finkel(), nullptr), l.agent);
    }
    // As the server seats a level: its spec for the rule set (perfect without a table: hard).
    const std::string spec = level_spec(l.name, finkel(), nullptr);
    EXPECT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(make_agent(spec, finkel(), 1)))
        << l.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"beginner", "easy", "medium", "hard", "perfect"}));
}

TEST(AgentRegistry, PerfectPlaysTheBestMoveOfItsTable) {
  ScopedDataDir data;
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  const Engine engine(rules);
  solver::StateIndex index = std::get<solver::StateIndex>(solver::StateIndex::create(engine));
  solver::ValueIteration vi(index, solver::SolveOptions{});
  vi.solve({});
  const std::string path = solver::table_path(data.path().string(), rules.to_string());
  ASSERT_EQ(solver::write_table(path, vi.values(), solver::ValueType::kF32, rules.to_string(),
                                index.encoding_id(), vi.max_residual()),
            "");
  const solver::TableStore* tables = data.tables();
  EXPECT_EQ(level_spec("perfect", rules, tables), "perfect");
  EXPECT_EQ(level_note("perfect", rules, tables), "");
  AgentResult made = make_agent("perfect", rules, 1, tables);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made))
      << std::get<Error>(made).message;
  Agent& perfect = *std::get<std::unique_ptr<Agent>>(made);
  // At every decision of some random games its choice has the best solved value.
  Rng rng(3);
  int decisions = 0;
  for (int g = 0; g < 40; ++g) {
    Position p = engine.initial_position();
    MoveList moves;
    while (!p.is_over()) {
      if (p.is_chance()) {
        engine.apply_throw(p, engine.sample_throw(rng), moves);
        continue;
      }
      engine.legal_moves(p, moves);
      auto value = [&](const Move& m) {
        Position q = p;
        engine.apply_move(q, m);
        if (q.is_over()) return 1.0;
        const double v = vi.values()[index.rank(q)];
        return q.turn == p.turn ? v : 1.0 - v;
      };
      double best = 0;
      for (const Move& m : moves) best = std::max(best, value(m));
      const Move chosen = perfect.choose(engine, p, std::stop_token{});
      ASSERT_GE(index_of_move(moves, chosen), 0);
      EXPECT_NEAR(value(chosen), best, 1e-9);
      ++decisions;
      engine.apply_move(p, moves[static_cast<int>(rng.below(moves.size))]);
    }
  }
  EXPECT_GT(decisions, 200);
  // A table for another rule set, a missing file and a corrupt file are refused.
  EXPECT_NE(std::get<Error>(
                make_agent("perfect(table=" + path + ")", rule_set_or_throw("finkel(pieces=3)"), 1))
                .message.find("solved for rule set"),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<Error>(
      make_agent("perfect(table=" + (data.path() / "none.urt").string() + ")", rules, 1)));
  const std::string copy = (data.path() / "corrupt.urt").string();
  std::filesystem::copy_file(path, copy);
  {
    std::fstream f(copy, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('\x7f');
  }
  AgentResult corrupt = make_agent("perfect(table=" + copy + ")", rules, 1);
  ASSERT_TRUE(std::holds_alternative<Error>(corrupt));
  EXPECT_NE(std::get<Error>(corrupt).message.find("checksum"), std::string::npos);
}

TEST(AgentRegistry, SameSeedSameChoices) {
  const Engine engine(finkel());
  Rng rng(5);
  auto a = std::move(std::get<0>(make_agent("random", finkel(), 42)));
  auto b = std::move(std::get<0>(make_agent("random", finkel(), 42)));
  Game game(std::make_shared<const Engine>(finkel()));
  const std::stop_token never;
  while (!game.is_over()) {
    if (game.awaiting_throw()) {
      game.roll(rng);
      continue;
    }
    const Move m = a->choose(engine, game.position(), never);
    EXPECT_EQ(m, b->choose(engine, game.position(), never));
    ASSERT_TRUE(game.apply_move(m).ok());
  }
}

// Every agent plays whole games of every preset through the checked Game: an illegal decision
// fails the tournament. random, first and greedy: 200 games each per preset; expectimax
// depth 1: 20 games, depth 2: 6 games per preset (kept small for the sanitizer build).
class AgentsPlayEveryPreset : public ::testing::TestWithParam<std::string> {};

void expect_legal(const std::string& rules, const char* a, const char* b, int games) {
  TournamentConfig config;
  config.rules = rule_set_or_throw(rules);
  config.agent_a = a;
  config.agent_b = b;
  config.games = games;
  config.threads = 2;
  config.seed = 11;
  auto r = run_tournament(config);
  ASSERT_TRUE(std::holds_alternative<TournamentResult>(r)) << std::get<Error>(r).message;
  const TournamentResult& t = std::get<TournamentResult>(r);
  EXPECT_EQ(t.games, games);
  EXPECT_EQ(t.a_wins + t.b_wins, games) << "every game ends";
}

TEST_P(AgentsPlayEveryPreset, RandomAgainstFirst200Games) {
  expect_legal(GetParam(), "random", "first", 200);
}
TEST_P(AgentsPlayEveryPreset, GreedyAgainstRandom200Games) {
  expect_legal(GetParam(), "greedy", "random", 200);
}
TEST_P(AgentsPlayEveryPreset, Expectimax1AgainstGreedy20Games) {
  expect_legal(GetParam(), "expectimax(depth=1)", "greedy", 20);
}
TEST_P(AgentsPlayEveryPreset, Expectimax2AgainstRandom6Games) {
  expect_legal(GetParam(), "expectimax(depth=2)", "random", 6);
}

INSTANTIATE_TEST_SUITE_P(Presets, AgentsPlayEveryPreset, ::testing::ValuesIn(test::preset_ids()),
                         test::param_name);

// The decision kinds beyond an ordinary move reach the agents: boxed awards and forfeit
// responses, and Bell's throw chains (one player deciding several times in a row).
TEST(AgentsDecide, EveryDecisionKindOccurs) {
  for (const char* rules : {"boxed", "bell"}) {
    auto engine = std::make_shared<const Engine>(rule_set_or_throw(rules));
    auto agent = std::move(std::get<0>(make_agent("expectimax(depth=2)", engine->rules(), 3)));
    Rng rng(9);
    int awards = 0, forfeits = 0, repeats = 0;
    const std::stop_token never;
    for (int g = 0; g < 4; ++g) {
      Game game(engine);
      std::optional<Player> last;
      while (!game.is_over()) {
        if (game.awaiting_throw()) {
          game.roll(rng);
          continue;
        }
        awards += game.position().phase == Phase::kAwaitingAward;
        forfeits += game.position().phase == Phase::kAwaitingForfeit;
        repeats += last == game.to_act();
        last = game.to_act();
        ASSERT_TRUE(game.apply_move(agent->choose(*engine, game.position(), never)).ok());
      }
    }
    EXPECT_GT(repeats, 0) << rules;
    if (std::string(rules) == "boxed") {
      EXPECT_GT(awards, 0);
      EXPECT_GT(forfeits, 0);
    }
  }
}

}  // namespace
}  // namespace ur::ai
