// RuleSet: one value that says everything about a variant of the Royal Game of Ur.
//
// A rule set is composed of orthogonal parts (docs/rules.md §3): a board, a path pair, a dice
// model, a piece count, per-square attributes, the entry rule, stacking, extra throws, the
// turn mode, who starts, scoring and the betting ledger. Presets (presets.h) are named values
// of it; a rule-set string such as "finkel(pieces=5,start=rolloff)" is a preset with some
// parameters overridden. The canonical string of a rule set names only the parameters that
// differ from its preset, in a fixed order, so equal rule sets print equal strings and saved
// games stay readable.
//
// The engine never reads this struct in its hot loop: Engine (engine/engine.h) flattens it
// into tables once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rules/board.h"
#include "rules/dice.h"
#include "rules/error.h"
#include "rules/paths.h"

namespace ur {

enum class Player : std::uint8_t { kLight = 0, kDark = 1 };
constexpr Player other(Player p) {
  return p == Player::kLight ? Player::kDark : Player::kLight;
}
constexpr int index_of(Player p) {
  return static_cast<int>(p);
}
const char* player_name(Player p);  // "light" / "dark"

enum class EntryTarget : std::uint8_t {
  kMoveValue,   // a throw of m enters at path index m (Finkel family)
  kFixedIndex,  // entering lands on a fixed index (RC Bell: index 5)
  kStaging,     // entering puts the piece on the staging space S = index 0 (boxed)
};
enum class TurnMode : std::uint8_t {
  kSingleThrow,  // one throw a turn, plus extra throws from rosettes / captures
  kThrowChain,   // throw until a throw that ends the turn (Bell dice)
};
enum class StartPolicy : std::uint8_t { kLight, kDark, kRollOff, kCoinCall };
enum class Special : std::uint8_t { kNone, kDoubleMove, kForfeit };

// What a square does in this rule set.
struct SquareRule {
  Cell cell = kNoCell;
  bool rosette = false;                 // marked; extra throw if rosette_extra
  bool safe = false;                    // an enemy piece here cannot be landed on
  bool capture = true;                  // a single enemy piece here can be hit
  Special special = Special::kNone;     // boxed: double-move award or forfeit
  bool rosette_enters_counter = false;  // boxed: landing may enter a counter onto S
  int score_value = 0;                  // boxed: the square's value in the scored win
};

struct RuleSet {
  std::string preset;    // the preset this rule set was built from ("finkel")
  std::string name;      // a human name ("Finkel")
  std::string citation;  // where the rules come from
  std::string summary;   // one paragraph for `ur rules show`

  BoardShape board = BoardShape::kStandard;
  PathPair path;
  DiceModel dice;
  int pieces = 7;

  // Square knobs; `squares` is derived from them and the board by derive_squares().
  bool safe_rosettes = true;         // rosettes protect the piece on them
  bool capture_centre_only = false;  // hits only on rank 2 (boxed); else on any shared square
  bool doubles = false;              // boxed: c2, f2 are double-move awards
  enum class Forfeits : std::uint8_t { kNone, kEyes, kCentreEye } forfeits = Forfeits::kNone;
  bool rosette_award = false;  // boxed: landing on a rosette may enter a counter onto S
  std::vector<SquareRule> squares;

  EntryTarget entry = EntryTarget::kMoveValue;
  int entry_index = 1;         // kFixedIndex: the index a piece enters on
  bool stacking = false;       // unlimited own pieces on a square (else one)
  bool bounce = false;         // landing on >= 2 enemy pieces sends the mover back
  bool rosette_extra = true;   // landing on a rosette grants another throw
  bool capture_extra = false;  // a capture grants another throw (Blitz)
  TurnMode turn_mode = TurnMode::kSingleThrow;
  StartPolicy start = StartPolicy::kLight;
  bool use_opening_roll = true;  // roll-off: the winner's throw is his first throw
  int forfeit_move = 4;          // boxed: how far the opponent moves on a forfeit
  bool scored_win = false;       // boxed: the win is scored over the loser's pieces
  int score_not_entered = 25;
  int score_staged = 10;
  int stake = 0;  // RC Bell: each player's stake into the kitty
  int fine = 0;   // RC Bell: fine per rosette landing

  // The canonical rule-set string: "finkel", "finkel(pieces=5,start=rolloff)".
  std::string to_string() const;
  const Board& board_layout() const;
  const SquareRule* square(Cell c) const;
  void derive_squares();  // recompute `squares` from the board and the square knobs
  int path_length() const { return path.length(); }
};

// The result of parsing a rule-set string: the rule set, or a `bad_rules` error whose `message`
// quotes the culprit (for a command line, where the text is the user's own) and whose `reason`
// names only the constraint, never the input, for answers that go to someone else (a server's client).
using RuleSetResult = Result<RuleSet>;

// Parses "id" or "id(key=value,...)". Unknown ids, unknown keys, bad values and inconsistent
// combinations are rejected with a message that names the culprit and the allowed values.
RuleSetResult parse_rule_set(std::string_view text);

// Convenience for code and tests that know the string is valid: throws std::invalid_argument.
RuleSet rule_set_or_throw(std::string_view text);

// The parameter keys a rule-set string accepts, with their allowed values, for --help.
std::vector<std::pair<std::string, std::string>> rule_set_parameters();

}  // namespace ur
