// The one error vocabulary (rules/error.h): every code has one wire name (its HTTP status is the
// server's: tests/server/server_units_test.cpp), names are unique and map back to their code, and the layers report through it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ai/agent.h"
#include "engine/notation.h"
#include "rules/error.h"
#include "rules/rule_set.h"

namespace ur {
namespace {

TEST(ErrorCodes, EveryCodeHasOneNameThatMapsBack) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(Errc::kInternal); ++i) {
    const auto code = static_cast<Errc>(i);
    const std::string name(code_name(code));
    EXPECT_FALSE(name.empty()) << i;
    EXPECT_TRUE(names.insert(name).second) << name << " is used twice";
    EXPECT_EQ(code_from_name(name), code) << name;
  }
  EXPECT_FALSE(code_from_name("no_such_code").has_value());
  EXPECT_EQ(code_name(Errc::kNotYourTurn), "not_your_turn");
}

TEST(ErrorCodes, EachLayerReportsItsFailureWithItsCode) {
  auto rules = parse_rule_set("finkel(pieces=99)");
  ASSERT_TRUE(std::holds_alternative<Error>(rules));
  const Error& bad_rules = std::get<Error>(rules);
  EXPECT_EQ(bad_rules.code, Errc::kBadRules);
  // Words for the person who typed it quote the input; words for a remote client do not.
  EXPECT_NE(bad_rules.message.find("99"), std::string::npos);
  EXPECT_EQ(bad_rules.remote_message().find("99"), std::string::npos);

  const Engine engine(std::get<RuleSet>(parse_rule_set("finkel")));
  auto position = parse_position_string(engine, "not a position");
  ASSERT_TRUE(std::holds_alternative<Error>(position));
  EXPECT_EQ(std::get<Error>(position).code, Errc::kBadPosition);
  auto move = parse_move_text(engine, engine.initial_position(), "1->5");
  ASSERT_TRUE(std::holds_alternative<Error>(move));
  EXPECT_EQ(std::get<Error>(move).code, Errc::kBadMove);

  auto agent = ai::make_agent("deep_blue", engine.rules(), 1);
  ASSERT_TRUE(std::holds_alternative<Error>(agent));
  EXPECT_EQ(std::get<Error>(agent).code, Errc::kBadAgent);
  EXPECT_EQ(std::get<Error>(agent).name(), "bad_agent");
}

}  // namespace
}  // namespace ur
