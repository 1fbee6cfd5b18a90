// The one error vocabulary (rules/error.h): each floor's codes have one wire name each, a code
// is equal only to itself (the same value of another domain is another code), and the layers
// report through it. The whole vocabulary and its HTTP statuses: tests/server/server_units_test.cpp.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>

#include "ai/agent.h"
#include "ai/agent_errc.h"
#include "engine/notation.h"
#include "rules/error.h"
#include "rules/rule_set.h"
#include "solver/table_errc.h"

namespace ur {
namespace {

TEST(ErrorCodes, EveryCodeBelowTheServerHasOneName) {
  std::set<std::string> names;
  for (const ErrorCode last :
       {ErrorCode(Errc::kInternal), ErrorCode(solver::TableErrc::kCorruptTable),
        ErrorCode(ai::AgentErrc::kBadAgent)}) {
    EXPECT_EQ(static_cast<int>(last.domain().codes.size()), last.value() + 1) << last.domain().name;
    for (int i = 0; i <= last.value(); ++i) {
      const std::string name(ErrorCode(last.domain(), i).name());
      EXPECT_FALSE(name.empty()) << last.domain().name << " " << i;
      EXPECT_TRUE(names.insert(name).second) << name << " is used twice";
    }
  }
  EXPECT_EQ(ErrorCode(Errc::kIllegalMove).name(), "illegal_move");
  EXPECT_EQ(ErrorCode(solver::TableErrc::kBadTable).name(), "bad_table");
}

// Only an enum with a domain is a code: a number, or an enum no floor declared a domain for, is
// refused at compile time, so a floor raises only the codes of the floors it includes.
enum class NotACode { kX };
static_assert(std::is_convertible_v<Errc, ErrorCode>);
static_assert(std::is_convertible_v<solver::TableErrc, ErrorCode>);
static_assert(!std::is_convertible_v<int, ErrorCode>);
static_assert(!std::is_convertible_v<NotACode, ErrorCode>);
static_assert(!std::is_constructible_v<Error, int, std::string>);

TEST(ErrorCodes, ACodeIsItsDomainAndItsValue) {
  const ErrorCode rules(Errc::kBadRules), table(solver::TableErrc::kBadTable);
  ASSERT_EQ(rules.value(), table.value());  // both the first of their domains
  EXPECT_NE(rules, table);
  EXPECT_EQ(rules, Errc::kBadRules);
  EXPECT_EQ(rules.as<Errc>(), Errc::kBadRules);
  EXPECT_FALSE(rules.as<solver::TableErrc>().has_value());
  EXPECT_EQ(table.as<solver::TableErrc>(), solver::TableErrc::kBadTable);
  EXPECT_EQ(Error().code, Errc::kInternal);
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
  EXPECT_EQ(std::get<Error>(agent).code, ai::AgentErrc::kBadAgent);
  EXPECT_EQ(std::get<Error>(agent).name(), "bad_agent");
}

}  // namespace
}  // namespace ur
