// Golden perft: ur::perft from each preset's start against tests/golden/perft.json, a
// deterministic checksum of the whole rule logic (movegen, extra throws, roll-offs, awards).
// The golden numbers were generated with `ur perft --rules R --depth 4` and checked against an
// independent model of docs/rules.md for the single-throw presets; they change only when a rule
// changes on purpose.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../test_util.h"
#include "engine/perft.h"

namespace ur {
namespace {

using json = nlohmann::json;

const json& golden() {
  static const json doc = json::parse(test::read_text(test::data_path("golden/perft.json")));
  return doc;
}

class PerftGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PerftGolden, MatchesTheGoldenCounts) {
  const json& counts = golden().at("counts");
  ASSERT_TRUE(counts.contains(GetParam())) << "tests/golden/perft.json lacks " << GetParam();
  const std::vector<std::uint64_t> expected =
      counts.at(GetParam()).get<std::vector<std::uint64_t>>();
  const std::vector<int> depths = golden().at("depths").get<std::vector<int>>();
  ASSERT_EQ(expected.size(), depths.size());
  const Engine e(rule_set_or_throw(GetParam()));
  for (std::size_t i = 0; i < depths.size(); ++i)
    EXPECT_EQ(perft(e, e.initial_position(), depths[i]), expected[i])
        << GetParam() << " depth " << depths[i];
}

INSTANTIATE_TEST_SUITE_P(Presets, PerftGolden, ::testing::ValuesIn(test::preset_ids()),
                         test::param_name);

TEST(PerftGoldenFile, CoversEveryPresetAndNothingElse) {
  const json& counts = golden().at("counts");
  EXPECT_EQ(counts.size(), test::preset_ids().size());
  for (const auto& [id, list] : counts.items()) {
    EXPECT_NE(find_preset(id), nullptr) << id << " is not a preset";
    EXPECT_EQ(list.size(), golden().at("depths").size()) << id;
  }
}

TEST(PerftHandChecked, FinkelFirstTwoPlies) {
  // Depth 1: the five throws k=0..4; k=0 passes, k=1..4 each have the one entering move.
  // Depth 2: after k=0 dark throws 5 ways (5 leaves); after k=1..3 dark likewise (15); after
  // k=4 light is on a1 and throws again: k=0 pass, k=1..3 enter or move on (2 each), k=4 only
  // a1->d2 because a1 is taken (1): 8. Total 5 + 15 + 8 = 28.
  const Engine e(rule_set_or_throw("finkel"));
  EXPECT_EQ(perft(e, e.initial_position(), 0), 1u);
  EXPECT_EQ(perft(e, e.initial_position(), 1), 5u);
  EXPECT_EQ(perft(e, e.initial_position(), 2), 28u);
}

TEST(PerftHandChecked, BoxedCoinThenOneThrow) {
  // Depth 1: the coin call (2). Depth 2: the starter's four throws; only 3 dots has a move (an
  // entry onto S), the others pass or go on: one continuation each, 2 * 4 = 8.
  const Engine e(rule_set_or_throw("boxed"));
  EXPECT_EQ(perft(e, e.initial_position(), 1), 2u);
  EXPECT_EQ(perft(e, e.initial_position(), 2), 8u);
}

TEST(PerftHandChecked, FinishedGameIsOneLeaf) {
  const Engine e(rule_set_or_throw("finkel"));
  const Position over =
      test::pieces(e, Player::kLight, {15, 15, 15, 15, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(perft(e, over, 5), 1u);
}

}  // namespace
}  // namespace ur
