// The named presets of docs/rules.md §6, each with a stable id and a citation (the sections
// are those of docs/rules.md).
//
// | id             | section | source                            | notes                      |
// |----------------|---------|-----------------------------------|----------------------------|
// | finkel         | §5.1    | RoyalUr-Java GameSettings.FINKEL  | aliases gamepotion, basic  |
// | finkel6        | §5.3    | seed 001 (6-stone site)           | 6 pieces                   |
// | conventional   | §5.4    | seed 002, original form           | masters16, safe, roll-off  |
// | murray         | §5.5    | seed 002, HJR Murray              | murray27_own         |
// | murray-royalur | §5.5    | seed 002 on RoyalUr's Murray path | murray27_royalur           |
// | british-museum | §5.6    | seed 002, British Museum          | finkel, 5 pieces, roll-off |
// | bell           | §5.7    | seed 002, RC Bell                 | throw chains, kitty        |
// | boxed          | §5.8    | seed 003                          | stacking, awards, forfeits |
// | masters        | §5.10   | RoyalUr-Java GameSettings.MASTERS | unsafe rosettes, 3 dice    |
// | blitz          | §5.11   | RoyalUr-Java GameSettings.BLITZ   | capture grants a throw     |
// | aseb           | §5.12   | RoyalUr-Java GameSettings.ASEB    | ASEB20 board               |
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"

namespace ur {

struct PresetInfo {
  std::string id;
  std::vector<std::string> aliases;
};

// Every preset id in display order, with its aliases.
const std::vector<PresetInfo>& preset_list();

// The preset's rule set; nullptr when the id (or alias) is unknown.
const RuleSet* find_preset(std::string_view id);

}  // namespace ur
