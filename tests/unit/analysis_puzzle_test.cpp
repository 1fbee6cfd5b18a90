// Puzzles (analysis/puzzle*.h) on finkel(pieces=3), solved here: the margin rule, the themes
// (one position for each rule of docs/puzzles.md), deduplication, the trivial filter and the
// puzzles of a played game.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>

#include "analysis/explore.h"
#include "analysis/puzzle_generate.h"
#include "engine/notation.h"
#include "engine/random.h"
#include "rules/presets.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

namespace ur::analysis {
namespace {

class PuzzleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const auto dir =
        std::filesystem::temp_directory_path() / ("ur_puzzle_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    engine_ = new std::shared_ptr<const Engine>(
        std::make_shared<const Engine>(rule_set_or_throw("finkel(pieces=3)")));
    auto index = std::make_shared<const solver::StateIndex>(
        std::get<solver::StateIndex>(solver::StateIndex::create(**engine_)));
    solver::ValueIteration vi(*index, solver::SolveOptions{});
    vi.solve({});
    const std::string rules = (*engine_)->rules().to_string();
    const std::string path = (dir / "p3.urt").string();
    ASSERT_EQ(solver::write_table(path, vi.values(), solver::ValueType::kF32, rules,
                                  index->encoding_id(), vi.max_residual()),
              "");
    auto table = std::get<std::shared_ptr<const solver::Table>>(solver::Table::open(path, rules));
    source_ = table_source(*engine_, table, index).release();
    std::filesystem::remove_all(dir);
  }
  static void TearDownTestSuite() {
    delete source_;
    delete engine_;
  }

  static const Engine& engine() { return **engine_; }
  static Position at(const std::string& text) {
    return std::get<Position>(parse_position_string(engine(), text));
  }
  // The legal move FROM->TO of p.
  static Move move(const Position& p, int from, int to) {
    MoveList legal;
    engine().legal_moves(p, legal);
    for (const Move& m : legal)
      if (m.from == from && m.to == to) return m;
    ADD_FAILURE() << "no move " << from << "->" << to;
    return {};
  }
  static bool has(ThemeSet set, Theme t) { return (set & theme_bit(t)) != 0; }
  static ThemeSet themes(const std::string& text, int from, int to) {
    const Position p = at(text);
    return puzzle_themes(engine(), p, move(p, from, to));
  }

  static inline std::shared_ptr<const Engine>* engine_ = nullptr;
  static inline ValueSource* source_ = nullptr;
};

TEST_F(PuzzleTest, ThePuzzleHoldsEveryMoveWithItsExactChanceAndTheMargin) {
  const Position p = at("L4/006/005");
  const std::optional<Puzzle> z = grade_puzzle(*source_, p, 0.0);
  ASSERT_TRUE(z.has_value());
  const Exploration x = explore(*source_, p);
  ASSERT_EQ(z->moves.size(), x.moves.size());
  double second = -1;
  for (std::size_t i = 0; i < x.moves.size(); ++i) {
    EXPECT_TRUE(z->moves[i].move == x.moves[i].move);
    EXPECT_DOUBLE_EQ(z->moves[i].value, x.moves[i].value);
    EXPECT_EQ(x.moves[i].best, static_cast<int>(i) == z->best);
    if (static_cast<int>(i) != z->best) second = std::max(second, x.moves[i].value);
  }
  EXPECT_DOUBLE_EQ(z->margin, z->moves[z->best].value - second);
  EXPECT_GT(z->margin, 0);
  // The margin is a threshold: met exactly it keeps the puzzle, a hair more refuses it.
  EXPECT_TRUE(grade_puzzle(*source_, p, z->margin).has_value());
  EXPECT_FALSE(grade_puzzle(*source_, p, z->margin + 1e-9).has_value());
  EXPECT_DOUBLE_EQ(z->misses.beginner, 1.0 - 1.0 / static_cast<double>(z->moves.size()));
}

TEST_F(PuzzleTest, APositionWithOneLegalMoveOrNoDecisionIsNoPuzzle) {
  EXPECT_FALSE(grade_puzzle(*source_, at("L1/000/000"), 0.0).has_value());  // one entry
  EXPECT_FALSE(grade_puzzle(*source_, at("Lr/000/000"), 0.0).has_value());  // awaits a throw
}

TEST_F(PuzzleTest, EachThemeFollowsItsRule) {
  // capture: 5->7 hits dark's piece on the shared square 7; entering does not.
  EXPECT_TRUE(has(themes("L2/005/007", 5, 7), Theme::kCapture));
  EXPECT_FALSE(has(themes("L2/005/007", 0, 2), Theme::kCapture));
  // entering and rosette: 0->4 enters onto the private rosette.
  EXPECT_TRUE(has(themes("L4/006/005", 0, 4), Theme::kEntering));
  EXPECT_TRUE(has(themes("L4/006/005", 0, 4), Theme::kRosette));
  EXPECT_FALSE(has(themes("L4/006/005", 6, 10), Theme::kRosette));
  // escape: the piece on 6 (dark on 5 hits it with a 1) runs to 10, out of every throw's
  // reach; the entry leaves it there. Safety: after 6->10 nothing can be hit, after 0->4 the
  // piece on 6 can.
  EXPECT_TRUE(has(themes("L4/006/005", 6, 10), Theme::kEscape));
  EXPECT_TRUE(has(themes("L4/006/005", 6, 10), Theme::kSafety));
  EXPECT_FALSE(has(themes("L4/006/005", 0, 4), Theme::kEscape));
  EXPECT_FALSE(has(themes("L4/006/005", 0, 4), Theme::kSafety));
  // escape onto 9 is none: dark's 4 from 5 reaches 9.
  EXPECT_FALSE(has(themes("L3/006/005", 6, 9), Theme::kEscape));
  // blockade: landing on the centre rosette 8, or keeping the piece there when it could move.
  EXPECT_TRUE(has(themes("L2/006/005", 6, 8), Theme::kBlockade));
  EXPECT_TRUE(has(themes("L2/008/005", 0, 2), Theme::kBlockade));
  EXPECT_FALSE(has(themes("L2/008/005", 8, 10), Theme::kBlockade));
  // bear-off: 13 needs exactly 2.
  EXPECT_TRUE(has(themes("L2/0de/000", 13, 15), Theme::kBearOff));
  EXPECT_FALSE(has(themes("L2/0de/000", 0, 2), Theme::kBearOff));
}

TEST_F(PuzzleTest, ARaceIsWhenNoPieceCanEverHitAnother) {
  // Light's pieces are all on its private end squares: neither side can meet the other.
  EXPECT_TRUE(is_race(engine(), at("L1/def/000")));
  EXPECT_TRUE(has(themes("L1/def/000", 14, 15), Theme::kRace));
  // Dark's waiting pieces can still reach light's piece on the shared square 9.
  EXPECT_FALSE(is_race(engine(), at("L1/09f/000")));
  // Dark's piece on 6 is ahead of light's waiting pieces: light can still hit it.
  EXPECT_FALSE(is_race(engine(), at("L1/00f/6ff")));
}

TEST_F(PuzzleTest, ThreatsFollowTheSafeRosette) {
  // Light's piece on the centre rosette cannot be hit; on 7 it can (dark on 5 throws 2).
  EXPECT_EQ(threatened(engine(), at("Dr/008/005"), Player::kLight), 0u);
  EXPECT_EQ(threatened(engine(), at("Dr/007/005"), Player::kLight), 1u << 7);
}

TEST_F(PuzzleTest, GenerationKeepsClearNewNonTrivialPuzzlesOnly) {
  GenerateOptions options;
  options.seed = 7;
  PuzzleGenerator gen(*source_, options);
  gen.self_play(60, 2000);
  ASSERT_EQ(gen.puzzles().size(), 60u);
  std::unordered_set<std::string> keys;
  for (const Puzzle& z : gen.puzzles()) {
    EXPECT_GE(z.margin, kDefaultPuzzleMargin);
    for (int i = 0; i < static_cast<int>(z.moves.size()); ++i)
      if (i != z.best) {
        EXPECT_GE(z.moves[z.best].value - z.moves[i].value, kDefaultPuzzleMargin);
      }
    EXPECT_GE(z.moves.size(), 2u);
    EXPECT_TRUE(z.misses.easy || z.misses.medium);
    EXPECT_DOUBLE_EQ(z.difficulty, puzzle_difficulty(z.misses));
    EXPECT_EQ(z.themes, puzzle_themes(engine(), z.position, z.moves[z.best].move));
    EXPECT_TRUE(keys.insert(to_position_string(engine(), z.position)).second) << "a duplicate";
    // Offered again, a puzzle is a duplicate.
    EXPECT_FALSE(gen.offer(z.position, "self-play"));
  }
  const GenerateStats& s = gen.stats();
  EXPECT_GE(s.duplicates, 60u);
  EXPECT_GT(s.trivial, 0u);
  EXPECT_GT(s.no_margin, 0u);
}

TEST_F(PuzzleTest, AFinishedGameGivesItsDecisionsAsRecordPuzzles) {
  PuzzleGenerator gen(*source_, {});
  Game g(*engine_);
  Rng dice(3);
  Rng pick(4);
  while (!g.is_over()) {
    if (g.awaiting_throw()) {
      g.roll(dice);
      continue;
    }
    const MoveList legal = g.legal_moves();
    ASSERT_TRUE(g.apply_move(legal[static_cast<int>(pick.below(legal.size))]).ok());
  }
  gen.offer_game(g);
  for (const Puzzle& z : gen.puzzles()) EXPECT_EQ(z.origin, "record");
  EXPECT_GT(gen.stats().decisions, 0u);
  const std::size_t kept = gen.puzzles().size();
  gen.offer_game(g);  // the same game again adds nothing
  EXPECT_EQ(gen.puzzles().size(), kept);
}

TEST_F(PuzzleTest, TheStoredFormNamesNoMoreThanThePuzzle) {
  const Position p = at("L4/006/005");
  Puzzle z = *grade_puzzle(*source_, p, 0.0);
  const nlohmann::json j = puzzle_json(engine(), z);
  EXPECT_EQ(j["position"], "L4/006/005");
  EXPECT_EQ(j["throw"], 4);
  EXPECT_EQ(j["moves"].size(), z.moves.size());
  EXPECT_EQ(j["best"], move_text(z.moves[z.best].move));
  EXPECT_EQ(j["id"], puzzle_id(engine().rules().to_string(), "L4/006/005"));
  EXPECT_NE(puzzle_id("finkel", "L4/006/005"), puzzle_id("masters", "L4/006/005"));
}

}  // namespace
}  // namespace ur::analysis
