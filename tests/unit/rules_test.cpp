// Rule-set strings: presets, aliases, overrides, the canonical form and every rejection path.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../test_util.h"
#include "rules/dice.h"
#include "rules/presets.h"
#include "rules/rule_set.h"

namespace ur {
namespace {

// The parsed rule set, or a test failure naming the string.
RuleSet parse_ok(std::string_view text) {
  RuleSetResult r = parse_rule_set(text);
  if (auto* e = std::get_if<Error>(&r)) {
    ADD_FAILURE() << "'" << text << "' was rejected: " << e->message;
    return RuleSet{};
  }
  return std::get<RuleSet>(r);
}

// The error message; a test failure when the string was accepted.
std::string parse_error(std::string_view text) {
  RuleSetResult r = parse_rule_set(text);
  if (auto* e = std::get_if<Error>(&r)) return e->message;
  ADD_FAILURE() << "'" << text << "' was accepted as " << std::get<RuleSet>(r).to_string();
  return "";
}

void expect_round_trip(std::string_view text) {
  const RuleSet r = parse_ok(text);
  const std::string canonical = r.to_string();
  const RuleSet again = parse_ok(canonical);
  EXPECT_EQ(again.to_string(), canonical) << "from '" << text << "'";
}

TEST(RuleSetParse, EveryPresetIdParses) {
  ASSERT_EQ(preset_list().size(), 11u);
  for (const PresetInfo& info : preset_list()) {
    const RuleSet r = parse_ok(info.id);
    EXPECT_EQ(r.preset, info.id);
    EXPECT_EQ(r.to_string(), info.id) << "a bare preset prints as its id";
    ASSERT_NE(find_preset(info.id), nullptr);
  }
}

TEST(RuleSetParse, EveryAliasParsesToItsPreset) {
  int aliases = 0;
  for (const PresetInfo& info : preset_list())
    for (const std::string& alias : info.aliases) {
      ++aliases;
      const RuleSet r = parse_ok(alias);
      EXPECT_EQ(r.preset, info.id) << alias;
      EXPECT_EQ(r.to_string(), info.id) << alias;
    }
  EXPECT_GE(aliases, 2) << "gamepotion and basic are aliases of finkel";
  EXPECT_EQ(parse_ok("gamepotion").preset, "finkel");
  EXPECT_EQ(parse_ok("basic").preset, "finkel");
}

TEST(RuleSetParse, PresetsHaveTheirRulesMd6Settings) {
  // A few columns of the docs/rules.md §6 matrix, to catch a preset wired to the wrong part.
  struct Row {
    const char* id;
    const char* path;
    const char* dice;
    int pieces;
    bool safe;
    StartPolicy start;
    TurnMode turn;
  };
  const Row rows[] = {
      {"finkel", "bell14", "d4b", 7, true, StartPolicy::kLight, TurnMode::kSingleThrow},
      {"finkel6", "bell14", "d4b", 6, true, StartPolicy::kLight, TurnMode::kSingleThrow},
      {"conventional", "masters16", "d3b_0is4", 7, true, StartPolicy::kRollOff,
       TurnMode::kSingleThrow},
      {"murray", "murray27_own", "d3b_0is4", 7, true, StartPolicy::kRollOff,
       TurnMode::kSingleThrow},
      {"murray-royalur", "murray27_royalur", "d3b_0is4", 7, true, StartPolicy::kRollOff,
       TurnMode::kSingleThrow},
      {"british-museum", "bell14", "d4b", 5, true, StartPolicy::kRollOff, TurnMode::kSingleThrow},
      {"bell", "bell14", "d3b_bell", 7, true, StartPolicy::kRollOff, TurnMode::kThrowChain},
      {"boxed", "bell14", "d3b_bell", 7, false, StartPolicy::kCoinCall, TurnMode::kThrowChain},
      {"masters", "masters16", "d3b_0is4", 7, false, StartPolicy::kLight, TurnMode::kSingleThrow},
      {"blitz", "masters16", "d4b", 5, false, StartPolicy::kLight, TurnMode::kSingleThrow},
      {"aseb", "aseb16", "d4b", 5, true, StartPolicy::kLight, TurnMode::kSingleThrow},
  };
  for (const Row& row : rows) {
    const RuleSet r = parse_ok(row.id);
    EXPECT_EQ(r.path.id, row.path) << row.id;
    EXPECT_EQ(r.dice.id, row.dice) << row.id;
    EXPECT_EQ(r.pieces, row.pieces) << row.id;
    EXPECT_EQ(r.safe_rosettes, row.safe) << row.id;
    EXPECT_EQ(r.start, row.start) << row.id;
    EXPECT_EQ(r.turn_mode, row.turn) << row.id;
  }
  EXPECT_TRUE(parse_ok("blitz").capture_extra);
  EXPECT_FALSE(parse_ok("masters").capture_extra);
  EXPECT_EQ(parse_ok("bell").entry, EntryTarget::kFixedIndex);
  EXPECT_EQ(parse_ok("bell").entry_index, 5);
  EXPECT_EQ(parse_ok("boxed").entry, EntryTarget::kStaging);
  EXPECT_TRUE(parse_ok("boxed").stacking);
  EXPECT_TRUE(parse_ok("boxed").bounce);
  EXPECT_TRUE(parse_ok("boxed").scored_win);
}

TEST(RuleSetParse, OverridesApply) {
  const RuleSet r = parse_ok("finkel(pieces=5,start=rolloff)");
  EXPECT_EQ(r.preset, "finkel");
  EXPECT_EQ(r.pieces, 5);
  EXPECT_EQ(r.start, StartPolicy::kRollOff);
  EXPECT_EQ(parse_ok("masters(dice=d4b)").dice.id, "d4b");
  EXPECT_DOUBLE_EQ(parse_ok("finkel(p=0.25)").dice.p_marked, 0.25);
  EXPECT_EQ(parse_ok("finkel(path=masters16,safe=false)").path.id, "masters16");
  EXPECT_FALSE(parse_ok("finkel(safe=false)").safe_rosettes);
  // Spaces around the pieces of the string are tolerated.
  EXPECT_EQ(parse_ok("  finkel ( pieces = 5 , start = rolloff ) ").to_string(),
            "finkel(pieces=5,start=rolloff)");
}

// A preset's summary describes the preset; with parameters changed it says so before it.
TEST(RuleSetParse, ChangedParametersComeFirstInTheSummary) {
  const RuleSet finkel = rule_set_or_throw("finkel");
  EXPECT_EQ(rule_set_or_throw("finkel(pieces=7)").summary, finkel.summary);
  const RuleSet small = rule_set_or_throw("finkel( pieces = 2 )");
  EXPECT_EQ(small.summary.rfind("finkel(pieces=2): the finkel rules with the parameters", 0), 0u)
      << small.summary;
  EXPECT_NE(small.summary.find("The preset: " + finkel.summary), std::string::npos);
}

TEST(RuleSetParse, CanonicalStringRoundTripsForPresets) {
  for (const PresetInfo& info : preset_list()) {
    expect_round_trip(info.id);
    for (const std::string& alias : info.aliases) expect_round_trip(alias);
  }
}

TEST(RuleSetParse, CanonicalStringRoundTripsWithOverrides) {
  for (const char* text : {
           "finkel(pieces=5,start=rolloff)",
           "finkel(start=rolloff,pieces=5)",
           "finkel(pieces=5)",
           "finkel(p=0.3)",
           "finkel(p=0.123456789)",
           "masters(dice=d4b,pieces=5,capture_extra=true)",
           "conventional(opening_roll=false)",
           "bell(stake=3,fine=2)",
           "boxed(start=light,forfeits=g2)",
           "boxed(doubles=false,rosette_award=false,scored=false)",
           "finkel(path=aseb16)",
           "aseb(path=bell14)",
           "murray(path=murray27_royalur)",
           "finkel(entry=fixed,entry_index=3)",
           "finkel(turn=chain,dice=d3b_bell)",
       })
    expect_round_trip(text);
}

TEST(RuleSetParse, CanonicalStringIsOrderIndependentAndOmitsDefaults) {
  EXPECT_EQ(parse_ok("finkel(start=rolloff,pieces=5)").to_string(),
            parse_ok("finkel(pieces=5,start=rolloff)").to_string());
  EXPECT_EQ(parse_ok("finkel(pieces=7)").to_string(), "finkel") << "7 is finkel's own value";
  EXPECT_EQ(parse_ok("finkel()").to_string(), "finkel");
  // murray-royalur is murray on the RoyalUr path, but it is its own preset with its own name.
  EXPECT_EQ(parse_ok("murray(path=murray27_royalur)").to_string(), "murray(path=murray27_royalur)");
}

TEST(RuleSetParse, UnknownIdIsRejectedByName) {
  const std::string msg = parse_error("fnkel");
  EXPECT_NE(msg.find("fnkel"), std::string::npos) << msg;
  EXPECT_NE(msg.find("finkel"), std::string::npos) << "the known ids are listed: " << msg;
  EXPECT_NE(parse_error("").find("unknown rule set"), std::string::npos);
  EXPECT_NE(parse_error("Finkel").find("Finkel"), std::string::npos);
  EXPECT_NE(parse_error("nosuch(pieces=5)").find("nosuch"), std::string::npos);
}

TEST(RuleSetParse, UnknownKeyIsRejectedByName) {
  const std::string msg = parse_error("finkel(colour=red)");
  EXPECT_NE(msg.find("colour"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pieces"), std::string::npos) << "the known keys are listed: " << msg;
}

TEST(RuleSetParse, BadValuesAreRejectedByKeyAndValue) {
  struct Case {
    const char* text;
    const char* key;
    const char* value;
  };
  const Case cases[] = {
      {"finkel(pieces=0)", "pieces", "0"},
      {"finkel(pieces=x)", "pieces", "x"},
      {"finkel(pieces=-3)", "pieces", "-3"},
      {"finkel(pieces=5.5)", "pieces", "5.5"},
      {"finkel(pieces=99)", "pieces", "99"},
      {"finkel(pieces=)", "pieces", "''"},
      {"finkel(p=1.5)", "p", "1.5"},
      {"finkel(p=0)", "p", "0"},
      {"finkel(p=1)", "p", "1"},
      {"finkel(p=half)", "p", "half"},
      {"finkel(start=sideways)", "start", "sideways"},
      {"finkel(safe=maybe)", "safe", "maybe"},
      {"finkel(path=spiral)", "path", "spiral"},
      {"finkel(dice=d6)", "dice", "d6"},
      {"finkel(turn=double)", "turn", "double"},
      {"boxed(forfeits=all)", "forfeits", "all"},
      {"bell(stake=-1)", "stake", "-1"},
  };
  for (const Case& c : cases) {
    const std::string msg = parse_error(c.text);
    EXPECT_NE(msg.find(c.key), std::string::npos) << c.text << ": " << msg;
    if (std::string(c.value) != "''") {
      EXPECT_NE(msg.find(c.value), std::string::npos) << c.text << ": " << msg;
    }
  }
  // The allowed values are part of the message.
  EXPECT_NE(parse_error("finkel(start=sideways)").find("rolloff"), std::string::npos);
  EXPECT_NE(parse_error("finkel(pieces=0)").find("1 to 15"), std::string::npos);
}

TEST(RuleSetParse, DuplicatedKeyIsRejected) {
  const std::string msg = parse_error("finkel(pieces=5,pieces=6)");
  EXPECT_NE(msg.find("pieces"), std::string::npos) << msg;
  EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
  EXPECT_NE(parse_error("finkel(pieces=5,start=light,pieces=5)").find("twice"), std::string::npos);
}

TEST(RuleSetParse, MalformedParameterListsAreRejected) {
  EXPECT_NE(parse_error("finkel(pieces=5").find("')'"), std::string::npos);
  EXPECT_NE(parse_error("finkel(pieces=5,start=rolloff").find("')'"), std::string::npos);
  EXPECT_NE(parse_error("finkel(pieces)").find("pieces"), std::string::npos);
  EXPECT_NE(parse_error("finkel(pieces)").find("key=value"), std::string::npos);
  EXPECT_NE(parse_error("finkel(pieces=5,)").find("empty"), std::string::npos);
  EXPECT_NE(parse_error("finkel(,pieces=5)").find("empty"), std::string::npos);
  (void)parse_error("finkel(pieces=5))");
  (void)parse_error("finkel pieces=5");
}

TEST(RuleSetParse, InconsistentCombinationsAreRejectedWithTheReason) {
  struct Case {
    const char* text;
    const char* culprit;
  };
  const Case cases[] = {
      {"finkel(bounce=true)", "bounce"},
      {"finkel(turn=chain)", "chain"},
      {"bell(dice=d4b)", "chain"},
      {"finkel(rosette_award=true)", "rosette_award"},
      {"finkel(entry=fixed,entry_index=20)", "entry_index"},
      {"murray(stacking=true)", "stacking"},
      {"murray-royalur(stacking=true)", "stacking"},
  };
  for (const Case& c : cases) {
    const std::string msg = parse_error(c.text);
    EXPECT_NE(msg.find(c.culprit), std::string::npos) << c.text << ": " << msg;
  }
}

TEST(RuleSetParse, RuleSetOrThrowThrowsTheMessage) {
  EXPECT_NO_THROW(rule_set_or_throw("finkel(pieces=5)"));
  try {
    rule_set_or_throw("finkel(pieces=0)");
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pieces"), std::string::npos) << e.what();
  }
}

TEST(RuleSetParse, ParameterListCoversEveryKeyTheCanonicalStringUses) {
  const auto params = rule_set_parameters();
  ASSERT_FALSE(params.empty());
  for (const auto& [key, allowed] : params) {
    EXPECT_FALSE(key.empty());
    EXPECT_FALSE(allowed.empty()) << key;
  }
  // Every key of a heavily overridden canonical string is a documented parameter.
  const std::string s =
      parse_ok("finkel(pieces=5,start=coin,p=0.4,safe=false,capture_extra=true)").to_string();
  for (const char* key : {"pieces=", "start=", "p=", "safe=", "capture_extra="})
    EXPECT_NE(s.find(key), std::string::npos) << s;
}

TEST(DiceModels, ProbabilitiesSumToOneForEveryModel) {
  ASSERT_EQ(all_dice().size(), 3u);
  for (const DiceModel& d : all_dice()) {
    ASSERT_EQ(static_cast<int>(d.by_k.size()), d.dice + 1) << d.id;
    for (double p : {0.5, 0.25, 0.9}) {
      DiceModel m = d;
      m.p_marked = p;
      double sum = 0;
      for (int k = 0; k <= m.dice; ++k) {
        EXPECT_GT(m.probability(k), 0.0) << d.id << " k=" << k;
        sum += m.probability(k);
      }
      EXPECT_NEAR(sum, 1.0, 1e-12) << d.id << " p=" << p;
      EXPECT_EQ(m.probability(-1), 0.0);
      EXPECT_EQ(m.probability(m.dice + 1), 0.0);
    }
  }
}

TEST(DiceModels, TablesFollowRulesMd23) {
  const DiceModel* d4b = find_dice("d4b");
  const DiceModel* d3 = find_dice("d3b_0is4");
  const DiceModel* bell = find_dice("d3b_bell");
  ASSERT_TRUE(d4b && d3 && bell);
  EXPECT_EQ(find_dice("d6"), nullptr);
  const int d4b_moves[] = {0, 1, 2, 3, 4};
  for (int k = 0; k <= 4; ++k) EXPECT_EQ(d4b->by_k[k].move, d4b_moves[k]);
  const int d3_moves[] = {4, 1, 2, 3};
  const int bell_moves[] = {4, 0, 1, 5};
  for (int k = 0; k <= 3; ++k) {
    EXPECT_EQ(d3->by_k[k].move, d3_moves[k]);
    EXPECT_EQ(bell->by_k[k].move, bell_moves[k]);
    EXPECT_EQ(bell->by_k[k].ends_turn, k == 1);
    EXPECT_EQ(bell->by_k[k].extra_throw, k != 1);
    EXPECT_EQ(bell->by_k[k].may_enter, k == 3);
  }
  EXPECT_EQ(d4b->max_move(), 4);
  EXPECT_EQ(d3->max_move(), 4);
  EXPECT_EQ(bell->max_move(), 5);
}

}  // namespace
}  // namespace ur
