// UEP, the engine side (ai/uep_engine.h), driven line by line without a process: the
// handshake, options, every preset's start, go and eval in decision and throw positions, a
// search answered while isready and stop arrive, and malformed lines each answered with one
// error line. tests/cli/engine_protocol.sh drives `ur engine` through a real pipe.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "../test_util.h"
#include "ai/uep_engine.h"
#include "engine/notation.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::ai {
namespace {

// An engine whose output lines are collected; take() returns and clears them.
class Session {
 public:
  explicit Session(const solver::TableStore* tables = nullptr)
      : engine_([this](const std::string& l) { lines_.push_back(l); }, "ur", "test", tables) {}
  std::vector<std::string> send(std::string_view line) {
    EXPECT_TRUE(engine_.handle(line)) << "the engine quit on: " << line;
    engine_.wait_search();
    return take();
  }
  std::vector<std::string> take() {
    std::vector<std::string> out;
    out.swap(lines_);
    return out;
  }
  UepEngine& engine() { return engine_; }

 private:
  std::vector<std::string> lines_;  // written under the engine's output mutex
  UepEngine engine_;
};

bool starts(const std::string& s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST(UepEngine, HandshakeListsTheOptionsThenUepok) {
  Session s;
  const auto lines = s.send("uep");
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[0], "id name ur");
  EXPECT_EQ(lines[1], "id version test");
  EXPECT_EQ(lines.back(), "uepok");
  for (const char* option : {"Rules", "Agent", "Table", "Seed", "EvalDepth"}) {
    const std::string want = std::string("option name ") + option + " type ";
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](auto& l) { return starts(l, want); }))
        << option;
  }
  EXPECT_EQ(s.send("isready"), std::vector<std::string>{"readyok"});
  EXPECT_TRUE(s.send("").empty());
  EXPECT_TRUE(s.send("   \t ").empty());
}

TEST(UepEngine, EveryPresetStartsAwaitingAThrowAndPlaysOn) {
  for (const std::string& id : test::preset_ids()) {
    Session s;
    EXPECT_TRUE(s.send("setoption name Rules value " + id).empty()) << id;
    EXPECT_TRUE(s.send("setoption name Agent value greedy").empty()) << id;
    const auto go = s.send("go");
    ASSERT_EQ(go.size(), 2u) << id;
    EXPECT_TRUE(starts(go[0], "info string awaiting a throw")) << id << ": " << go[0];
    EXPECT_EQ(go[1], "bestmove (none)") << id;
    // Throw and move until a decision was made a few times: every bestmove is legal.
    const Engine engine = test::make_engine(id);
    Position pos = engine.initial_position();
    Rng rng(7);
    for (int decisions = 0, steps = 0; decisions < 6 && steps < 200 && !pos.is_over(); ++steps) {
      if (pos.is_chance()) {
        const int outcome = test::sample_outcome(engine, pos, rng);
        ASSERT_TRUE(s.send("throw " + std::to_string(outcome)).empty()) << id;
        engine.apply_throw(pos, outcome);
        continue;
      }
      const auto best = s.send("go");
      ASSERT_FALSE(best.empty()) << id;
      ASSERT_TRUE(starts(best.back(), "bestmove ")) << id << ": " << best.back();
      const std::string word = best.back().substr(9);
      MoveResult m = parse_move_text(engine, pos, word);
      ASSERT_TRUE(std::holds_alternative<Move>(m)) << id << ": " << word;
      ASSERT_TRUE(s.send("move " + word).empty()) << id;
      engine.apply_move(pos, std::get<Move>(m));
      ++decisions;
    }
    // The engine's position followed ours.
    const auto eval = s.send("eval");
    ASSERT_FALSE(eval.empty());
    EXPECT_EQ(eval.back(), "evalok") << id;
  }
}

TEST(UepEngine, EvalEstimatesEachMoveWithoutATable) {
  Session s;
  s.send("setoption name Table value <empty>");
  EXPECT_TRUE(s.send("position D3/000005f/0000001").empty());
  const auto lines = s.send("eval");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(starts(lines[0], "eval win ")) << lines[0];
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    EXPECT_TRUE(starts(lines[i], "move ")) << lines[i];
    EXPECT_NE(lines[i].find(" win 0."), std::string::npos) << lines[i];
    EXPECT_TRUE(lines[i].ends_with(" estimate")) << lines[i];
  }
  EXPECT_EQ(lines.back(), "evalok");
}

TEST(UepEngine, EvalIsExactWithASolvedTable) {
  const RuleSet rules = rule_set_or_throw("finkel(pieces=2)");
  const Engine engine(rules);
  solver::StateIndex index = std::get<solver::StateIndex>(solver::StateIndex::create(engine));
  solver::ValueIteration vi(index, solver::SolveOptions{});
  vi.solve({});
  const std::string path =
      (std::filesystem::temp_directory_path() / ("ur_uep_" + std::to_string(::getpid()) + ".urt"))
          .string();
  ASSERT_EQ(solver::write_table(path, vi.values(), solver::ValueType::kF32, rules.to_string(),
                                index.encoding_id(), vi.max_residual()),
            "");
  Session s;
  EXPECT_TRUE(s.send("setoption name Rules value finkel(pieces=2)").empty());
  EXPECT_TRUE(s.send("setoption name Table value " + path).empty());
  EXPECT_TRUE(s.send("setoption name Agent value perfect").empty());
  EXPECT_TRUE(s.send("position L3/05/01").empty());
  const auto lines = s.send("eval");
  ASSERT_EQ(lines.size(), 4u);  // eval, two moves (enter, 5->8), evalok
  const Position p = std::get<Position>(parse_position_string(engine, "L3/05/01"));
  MoveList moves;
  engine.legal_moves(p, moves);
  double best = 0;
  for (int i = 0; i < moves.size; ++i) {
    Position q = p;
    engine.apply_move(q, moves[i]);
    const double v = vi.values()[index.rank(q)];
    const double mine = q.turn == p.turn ? v : 1 - v;
    best = std::max(best, mine);
    EXPECT_EQ(lines[static_cast<std::size_t>(i) + 1],
              fmt::format("move {} win {:.6f}", move_text(moves[i]), mine));
  }
  EXPECT_EQ(lines[0], fmt::format("eval win {:.6f}", best));
  const auto go = s.send("go");
  ASSERT_EQ(go.size(), 1u);
  EXPECT_EQ(go[0], "bestmove 5->8");  // the rosette, as `ur table query` says (solve_small.sh)
  std::filesystem::remove(path);
}

TEST(UepEngine, PerfectWithoutATableSaysItPlaysAsHard) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ur_uep_none_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const solver::TableStore tables(dir.string());
  Session s(&tables);
  const auto lines = s.send("setoption name Agent value perfect");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(starts(lines[0], "info string perfect: no table available")) << lines[0];
  EXPECT_NE(lines[0].find("plays as hard"), std::string::npos) << lines[0];
}

TEST(UepEngine, AnswersIsreadyWhileSearchingAndStopEndsTheSearch) {
  Session s;
  s.send("setoption name Agent value expectimax(time_ms=3600000)");
  s.send("position L2/0000005/0000000");  // two moves: the search does not end at once
  ASSERT_TRUE(s.engine().handle("go"));
  ASSERT_TRUE(s.engine().handle("isready"));
  ASSERT_TRUE(s.engine().handle("position start"));
  ASSERT_TRUE(s.engine().handle("stop"));
  s.engine().wait_search();
  const auto lines = s.take();
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "readyok");
  EXPECT_TRUE(starts(lines[1], "info string error: position: busy searching")) << lines[1];
  EXPECT_TRUE(lines.back() == "bestmove 0->2" || lines.back() == "bestmove 5->7") << lines.back();
  EXPECT_FALSE(s.engine().searching());
  EXPECT_FALSE(s.engine().handle("quit"));
}

}  // namespace
}  // namespace ur::ai
