// Position strings: every position reached by random play in every preset survives
// to_position_string -> parse_position_string unchanged, and malformed strings are refused
// with a message that says what is wrong.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

#include "engine/engine.h"
#include "engine/notation.h"
#include "engine/random.h"
#include "rules/presets.h"

namespace ur {
namespace {

std::string describe(const Position& p) {
  std::string s = "phase " + std::to_string(static_cast<int>(p.phase)) + " turn " +
                  player_name(p.turn) + " next " + player_name(p.next) + " roll " +
                  std::to_string(p.roll) + " pool " + std::to_string(p.pool[0]) + "," +
                  std::to_string(p.pool[1]);
  for (int pl = 0; pl < 2; ++pl) {
    s += pl == 0 ? " light [" : " dark [";
    for (int i = 0; i < kMaxIndex; ++i) s += std::to_string(p.count[pl][i]) + " ";
    s += "]";
  }
  return s;
}

// Plays `games` random games and calls f on every position reached, chance and decision nodes.
template <class F>
void for_random_positions(const Engine& e, std::uint64_t seed, int games, F f) {
  Rng rng(seed);
  const bool coin = e.rules().start == StartPolicy::kCoinCall;
  MoveList moves;
  for (int g = 0; g < games; ++g) {
    Position p = e.initial_position();
    for (int step = 0; step < 100000; ++step) {
      f(p);
      if (p.is_over()) break;
      if (p.is_chance()) {
        const int k =
            p.phase == Phase::kStart && coin ? static_cast<int>(rng.below(2)) : e.sample_throw(rng);
        e.apply_throw(p, k, moves);
        continue;
      }
      e.legal_moves(p, moves);
      ASSERT_FALSE(moves.empty()) << describe(p);
      e.apply_move(p, moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    }
    ASSERT_TRUE(p.is_over()) << e.rules().preset << ": a random game did not end";
  }
}

TEST(Notation, RandomPositionsRoundTripInEveryPreset) {
  for (const PresetInfo& info : preset_list()) {
    SCOPED_TRACE(info.id);
    const Engine e(*find_preset(info.id));
    std::array<int, 7> phases{};
    int checked = 0;
    for_random_positions(e, 0x1234 + info.id.size(), 12, [&](const Position& p) {
      ++phases[static_cast<int>(p.phase)];
      ++checked;
      const std::string s = to_position_string(e, p);
      PositionResult r = parse_position_string(e, s);
      if (auto* err = std::get_if<Error>(&r)) {
        ADD_FAILURE() << s << " does not parse: " << err->message;
        return;
      }
      const Position& q = std::get<Position>(r);
      EXPECT_TRUE(q == p) << s << "\n  was    " << describe(p) << "\n  parsed " << describe(q);
      EXPECT_EQ(to_position_string(e, q), s);
      // Piece lists describe the same pieces.
      if (p.phase == Phase::kAwaitingRoll) {
        PositionResult back = position_from_pieces(e, p.turn, piece_list(e, p, Player::kLight),
                                                   piece_list(e, p, Player::kDark));
        ASSERT_TRUE(std::holds_alternative<Position>(back)) << s;
        EXPECT_TRUE(std::get<Position>(back) == p) << s;
      }
    });
    EXPECT_GT(checked, 300);
    EXPECT_GT(phases[static_cast<int>(Phase::kAwaitingRoll)], 0);
    EXPECT_GT(phases[static_cast<int>(Phase::kAwaitingMove)], 0);
    EXPECT_EQ(phases[static_cast<int>(Phase::kGameOver)], 12);
    const RuleSet& r = e.rules();
    const bool start = r.start == StartPolicy::kRollOff || r.start == StartPolicy::kCoinCall;
    EXPECT_EQ(phases[static_cast<int>(Phase::kStart)] > 0, start);
    EXPECT_EQ(phases[static_cast<int>(Phase::kRollOff)] > 0, r.start == StartPolicy::kRollOff);
    EXPECT_EQ(phases[static_cast<int>(Phase::kAwaitingAward)] > 0, r.rosette_award);
    EXPECT_EQ(phases[static_cast<int>(Phase::kAwaitingForfeit)] > 0,
              r.forfeits != RuleSet::Forfeits::kNone);
  }
}

TEST(Notation, PresetsCoverEveryPhase) {
  // The round-trip test above only proves something about the phases it meets.
  const RuleSet* boxed = find_preset("boxed");
  const RuleSet* conventional = find_preset("conventional");
  ASSERT_NE(boxed, nullptr);
  ASSERT_NE(conventional, nullptr);
  EXPECT_TRUE(boxed->rosette_award);
  EXPECT_NE(boxed->forfeits, RuleSet::Forfeits::kNone);
  EXPECT_EQ(boxed->start, StartPolicy::kCoinCall);
  EXPECT_EQ(conventional->start, StartPolicy::kRollOff);
}

TEST(Notation, KnownStrings) {
  const Engine finkel(*find_preset("finkel"));
  EXPECT_EQ(to_position_string(finkel, finkel.initial_position()), "Lr/0000000/0000000");
  const Engine boxed(*find_preset("boxed"));
  EXPECT_EQ(to_position_string(boxed, boxed.initial_position()), "Ls/-------/-------");
  const Engine conventional(*find_preset("conventional"));
  EXPECT_EQ(to_position_string(conventional, conventional.initial_position()),
            "Ls/0000000/0000000");
  // Pieces may be written in any order; the canonical string sorts them.
  PositionResult r = parse_position_string(finkel, "D3/f000500/0000001");
  ASSERT_TRUE(std::holds_alternative<Position>(r));
  EXPECT_EQ(to_position_string(finkel, std::get<Position>(r)), "D3/000005f/0000001");
  EXPECT_EQ(piece_list(finkel, std::get<Position>(r), Player::kLight),
            (std::vector<int>{0, 0, 0, 0, 0, 5, 15}));
  // Staging rule sets: '-' is not entered, 0 is on S.
  PositionResult s = parse_position_string(boxed, "Dr/-----0f/------0");
  ASSERT_TRUE(std::holds_alternative<Position>(s));
  EXPECT_EQ(piece_list(boxed, std::get<Position>(s), Player::kLight),
            (std::vector<int>{-1, -1, -1, -1, -1, 0, 15}));
}

// The message of a string that must be refused; "" if it parsed.
std::string refusal(const Engine& e, std::string_view text) {
  PositionResult r = parse_position_string(e, text);
  if (auto* err = std::get_if<Error>(&r)) return err->message;
  return "";
}

TEST(Notation, MalformedStringsAreRefused) {
  const Engine finkel(*find_preset("finkel"));
  const Engine boxed(*find_preset("boxed"));
  const Engine conventional(*find_preset("conventional"));
  struct Case {
    const Engine* e;
    const char* text;
    const char* expect;  // a part of the message
  };
  const Case cases[] = {
      {&finkel, "", "expected <actor><state>/<light>/<dark>"},
      {&finkel, "Lr/0000000", "expected <actor><state>/<light>/<dark>"},
      {&finkel, "Lr/0000000/0000000/0", "expected <actor><state>/<light>/<dark>"},
      {&finkel, "Lr/000000/0000000", "light has 6 pieces"},
      {&finkel, "Lr/0000000/00000000", "dark has 8 pieces"},
      {&finkel, "Lr/000000X/0000000", "'X' is not a path index"},
      {&finkel, "Lr/000000 /0000000", "' ' is not a path index"},
      {&finkel, "Lr/000000g/0000000", "path indices run 0..15"},
      {&finkel, "Lr/000000-/0000000", "piece at index -1"},
      {&finkel, "Lr/0000033/0000000", "two pieces of one colour on one square"},
      {&finkel, "Lr/0000005/0000005", "light and dark share square a2"},
      {&finkel, "Lr/ffffff5/0000005", "light and dark share square a2"},
      {&finkel, "Lx/0000000/0000000", "unknown state 'x'"},
      {&finkel, "Lrr/0000000/0000000", "unknown state 'rr'"},
      {&finkel, "Xr/0000000/0000000", "must start with L or D"},
      {&finkel, "L/0000000/0000000", "must start with L or D"},
      {&finkel, "L5/0000000/0000000", "throw 5 is outside the dice"},
      {&finkel, "L0/0000000/0000000", "throw 0 leaves no move to decide"},
      {&finkel, "Ls/0000000/0000000", "only exists with a roll-off or coin-call start"},
      {&finkel, "DaL/0000000/0000000", "award decision needs a counter waiting"},
      {&finkel, "Lw/0000000/0000000", "'w' needs the actor to have borne off all"},
      {&finkel, "Dw/fffffff/0000000", "'w' needs the actor to have borne off all"},
      {&finkel, "Lr/fffffff/0000000", "the state must be 'w'"},
      {&finkel, "Lw/fffffff/fffffff", "both players have borne off every piece"},
      {&conventional, "Lo2/0000000/0000000", "'oK' needs a roll-off start, D to throw"},
      {&conventional, "Do9/0000000/0000000", "'oK' needs a roll-off start, D to throw"},
      {&boxed, "LfD/-------/-------", "a forfeit response needs a legal move"},
      {&boxed, "LaX/------0/-------", "unknown state 'aX'"},
      {&boxed, "LaD/0000000/-------", "award decision needs a counter waiting"},
  };
  for (const Case& c : cases) {
    const std::string msg = refusal(*c.e, c.text);
    EXPECT_NE(msg.find(c.expect), std::string::npos)
        << c.e->rules().preset << " '" << c.text << "' gave \"" << msg << "\", expected \""
        << c.expect << "\"";
    if (!msg.empty()) {
      EXPECT_EQ(msg.rfind("position '" + std::string(c.text) + "'", 0), 0u) << msg;
    }
  }
  // Stacking rule sets allow several pieces of one colour on a square, and a shared S.
  EXPECT_EQ(refusal(boxed, "Lr/----555/---0000"), "");
  EXPECT_NE(refusal(boxed, "Lr/----555/-----55").find("share square a2"), std::string::npos);
}

TEST(Notation, RandomBytesNeverCrash) {
  const Engine finkel(*find_preset("finkel"));
  const Engine boxed(*find_preset("boxed"));
  Rng rng(99);
  const std::string alphabet = "LDrswoaf0123456789abcdefg-/ X\n";
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    const int len = static_cast<int>(rng.below(24));
    for (int j = 0; j < len; ++j)
      s += alphabet[rng.below(static_cast<std::uint32_t>(alphabet.size()))];
    for (const Engine* e : {&finkel, &boxed}) {
      PositionResult r = parse_position_string(*e, s);
      if (auto* p = std::get_if<Position>(&r)) {
        ++parsed;
        EXPECT_EQ(e->check(*p), "") << s;
      } else {
        EXPECT_FALSE(std::get<Error>(r).message.empty());
      }
    }
  }
  (void)parsed;
}

}  // namespace
}  // namespace ur
