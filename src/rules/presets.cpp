#include "rules/presets.h"

#include <cassert>

namespace ur {
namespace {

RuleSet base(const char* id, const char* name, const char* path, const char* dice,
             const char* citation, const char* summary) {
  RuleSet r;
  r.preset = id;
  r.name = name;
  r.citation = citation;
  r.summary = summary;
  r.path = *find_path(path);
  r.board = r.path.board;
  r.dice = *find_dice(dice);
  return r;
}

std::vector<RuleSet> make_presets() {
  std::vector<RuleSet> out;

  RuleSet finkel = base(
      "finkel", "Finkel", "bell14", "d4b",
      "docs/rules.md §5.1: Irving Finkel's rules as played on RoyalUr.net (RoyalUr-Java "
      "GameSettings.FINKEL); also seed 000 (GamePotion) and seed 004 (retro BASIC game)",
      "7 pieces, four binary dice (0 passes), 14-square path, safe rosettes a1 d2 g1 (a3 g3) "
      "with an extra throw, captures on the shared middle row except d2, exact bear-off, light "
      "starts.");
  out.push_back(finkel);

  RuleSet six = finkel;
  six.preset = "finkel6";
  six.name = "Finkel, 6 stones";
  six.citation = "docs/rules.md §5.3: seed 001 (an online site's rules, Nestel & Zimmer GdbR 2023)";
  six.summary = "Finkel with 6 pieces a side; White (light) always starts.";
  six.pieces = 6;
  out.push_back(six);

  RuleSet conv = base(
      "conventional", "Conventional (Regency)", "masters16", "d3b_0is4",
      "docs/rules.md §5.4: seed 002 (Regency Chess Company rules sheet), the conventional form",
      "7 pieces, three binary dice (no marks counts 4), the 16-square path round the 2x3 block, "
      "safe rosettes with an extra throw, captures on every other shared square, roll-off start "
      "whose winning throw is used.");
  conv.start = StartPolicy::kRollOff;
  out.push_back(conv);

  RuleSet murray = conv;
  murray.preset = "murray";
  murray.name = "Murray (Regency)";
  murray.citation = "docs/rules.md §5.5: seed 002, the HJR Murray adaptation; own-row return (A-9)";
  murray.summary =
      "The conventional rules on Murray's 27-square path, which loops back over the middle row "
      "and the player's own row and bears off where it entered.";
  murray.path = *find_path("murray27_own");
  out.push_back(murray);

  RuleSet murray_ru = murray;
  murray_ru.preset = "murray-royalur";
  murray_ru.name = "Murray (RoyalUr path)";
  murray_ru.citation =
      "docs/rules.md §2.2 murray27_royalur: seed 002's Murray rules on RoyalUr-Java's "
      "MurrayPathPair";
  murray_ru.summary = "As murray, but the return leg crosses the opponent's row (RoyalUr).";
  murray_ru.path = *find_path("murray27_royalur");
  out.push_back(murray_ru);

  RuleSet bm = finkel;
  bm.preset = "british-museum";
  bm.name = "British Museum (Regency)";
  bm.citation = "docs/rules.md §5.6: seed 002, the British Museum adaptation";
  bm.summary = "Finkel with 5 pieces a side and a roll-off start whose winning throw is used.";
  bm.pieces = 5;
  bm.start = StartPolicy::kRollOff;
  out.push_back(bm);

  RuleSet bell = base(
      "bell", "RC Bell (Regency)", "bell14", "d3b_bell",
      "docs/rules.md §5.7: seed 002, the RC Bell adaptation",
      "Throw chains with three binary dice: no marks moves 4, one mark ends the turn, two marks "
      "move 1, three marks move 5 and are the only throw that enters, onto a2. A stake of 1 each "
      "goes into the kitty, every rosette landing is fined 1, the winner takes the kitty.");
  bell.entry = EntryTarget::kFixedIndex;
  bell.entry_index = 5;
  bell.turn_mode = TurnMode::kThrowChain;
  bell.start = StartPolicy::kRollOff;
  bell.stake = 1;
  bell.fine = 1;
  out.push_back(bell);

  RuleSet boxed = base(
      "boxed", "Boxed game (awards, forfeits, scoring)", "bell14", "d3b_bell",
      "docs/rules.md §5.8: seed 003 (a boxed edition after Bell; BGG #5646), British Museum "
      "markings",
      "Bell's throw chains; three dots enter a counter onto S or move 5. Counters stack; a hit on "
      "the centre track sends a single counter off, landing on two or more sends the mover off. "
      "Rosettes may enter a counter onto S, c2 and f2 double the move, the eye squares b1 d1 g2 "
      "make the opponent move 4. The win is scored over the loser's counters.");
  boxed.entry = EntryTarget::kStaging;
  boxed.stacking = true;
  boxed.bounce = true;
  boxed.safe_rosettes = false;
  boxed.capture_centre_only = true;
  boxed.doubles = true;
  boxed.forfeits = RuleSet::Forfeits::kEyes;
  boxed.rosette_award = true;
  boxed.rosette_extra = false;  // the chain goes on anyway; rosettes give an award instead
  boxed.turn_mode = TurnMode::kThrowChain;
  boxed.start = StartPolicy::kCoinCall;
  boxed.scored_win = true;
  out.push_back(boxed);

  RuleSet masters =
      base("masters", "Masters", "masters16", "d3b_0is4",
           "docs/rules.md §5.10: James Masters' rules as played on RoyalUr.net (RoyalUr-Java "
           "GameSettings.MASTERS)",
           "7 pieces, three binary dice (no marks counts 4), the 16-square path, rosettes give an "
           "extra throw but are not safe, captures anywhere shared, light starts.");
  masters.safe_rosettes = false;
  out.push_back(masters);

  RuleSet blitz = masters;
  blitz.preset = "blitz";
  blitz.name = "Blitz";
  blitz.citation = "docs/rules.md §5.11: RoyalUr.net Blitz (RoyalUr-Java GameSettings.BLITZ)";
  blitz.summary =
      "Masters' path with four binary dice and 5 pieces; a capture also grants a throw.";
  blitz.dice = *find_dice("d4b");
  blitz.pieces = 5;
  blitz.capture_extra = true;
  out.push_back(blitz);

  RuleSet aseb = base("aseb", "Aseb", "aseb16", "d4b",
                      "docs/rules.md §5.12: RoyalUr.net Aseb (RoyalUr-Java GameSettings.ASEB)",
                      "The Egyptian twenty-squares layout: a 3x4 block and a long middle row to "
                      "l2; 5 pieces, four binary dice, safe rosettes a1 a3 d2 h2 l2.");
  aseb.pieces = 5;
  out.push_back(aseb);

  for (RuleSet& r : out) r.derive_squares();
  return out;
}

const std::vector<RuleSet>& presets() {
  static const std::vector<RuleSet> all = make_presets();
  return all;
}

}  // namespace

const std::vector<PresetInfo>& preset_list() {
  static const std::vector<PresetInfo> list = {
      {"finkel", {"gamepotion", "basic"}},
      {"finkel6", {}},
      {"conventional", {}},
      {"murray", {}},
      {"murray-royalur", {}},
      {"british-museum", {}},
      {"bell", {}},
      {"boxed", {}},
      {"masters", {}},
      {"blitz", {}},
      {"aseb", {}},
  };
  return list;
}

const RuleSet* find_preset(std::string_view id) {
  for (const PresetInfo& info : preset_list()) {
    bool match = info.id == id;
    for (const std::string& a : info.aliases) match = match || a == id;
    if (!match) continue;
    for (const RuleSet& r : presets())
      if (r.preset == info.id) return &r;
    assert(false);
  }
  return nullptr;
}

}  // namespace ur
