// Dice models: n binary dice, each showing a mark with probability p; the raw throw k is the
// number of marks up, and a table maps k to what the throw does (docs/rules.md §2.3).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace ur {

inline constexpr int kMaxDice = 4;

struct ThrowOutcome {
  int move = 0;              // squares to move; 0 = a null throw (no move)
  bool ends_turn = false;    // throw-chain mode: this throw ends the chain
  bool extra_throw = false;  // the throw itself grants another throw (Bell chains)
  bool may_enter = true;     // a piece may be entered with this throw
};

struct DiceModel {
  std::string id;  // "d4b", "d3b_0is4", "d3b_bell"
  std::string citation;
  int dice = 4;
  double p_marked = 0.5;
  std::vector<ThrowOutcome> by_k;  // size dice + 1

  double probability(int k) const;  // binomial P(k)
  int max_move() const;
};

const std::vector<DiceModel>& all_dice();
const DiceModel* find_dice(std::string_view id);

}  // namespace ur
