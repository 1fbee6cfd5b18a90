#include "rules/dice.h"

#include <algorithm>
#include <cmath>

namespace ur {

double DiceModel::probability(int k) const {
  if (k < 0 || k > dice) return 0.0;
  double binom = 1.0;
  for (int i = 1; i <= k; ++i) binom = binom * (dice - k + i) / i;
  return binom * std::pow(p_marked, k) * std::pow(1.0 - p_marked, dice - k);
}

int DiceModel::max_move() const {
  int m = 0;
  for (const ThrowOutcome& o : by_k) m = std::max(m, o.move);
  return m;
}

namespace {

std::vector<DiceModel> make_all() {
  DiceModel d4b{"d4b", "docs/rules.md §2.3 d4b: four binary dice, 0 passes", 4, 0.5, {}};
  d4b.by_k = {{0, false, false, false},
              {1, false, false, true},
              {2, false, false, true},
              {3, false, false, true},
              {4, false, false, true}};
  DiceModel d3{
      "d3b_0is4", "docs/rules.md §2.3 d3b_0is4: three binary dice, no marks counts 4", 3, 0.5, {}};
  d3.by_k = {{4, false, false, true},
             {1, false, false, true},
             {2, false, false, true},
             {3, false, false, true}};
  DiceModel bell{"d3b_bell",
                 "docs/rules.md §2.3 d3b_bell: 0 -> 4 and throw again, 1 ends the turn, 2 -> 1 and "
                 "throw again, 3 -> 5 (the only entering throw) and throw again",
                 3,
                 0.5,
                 {}};
  bell.by_k = {{4, false, true, false},
               {0, true, false, false},
               {1, false, true, false},
               {5, false, true, true}};
  return {d4b, d3, bell};
}

}  // namespace

const std::vector<DiceModel>& all_dice() {
  static const std::vector<DiceModel> dice = make_all();
  return dice;
}

const DiceModel* find_dice(std::string_view id) {
  for (const DiceModel& d : all_dice())
    if (d.id == id) return &d;
  return nullptr;
}

}  // namespace ur
