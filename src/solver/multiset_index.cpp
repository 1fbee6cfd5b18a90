#include "solver/multiset_index.h"

#include <bit>
#include <cassert>
#include <cstdio>
#include <map>

namespace ur::solver {

MultisetIndexResult MultisetIndex::create(const Engine& engine, int endgame) {
  const RuleSet& r = engine.rules();
  const std::string name = r.to_string();
  if (r.pieces > kMaxPieces)
    return Error{Errc::kBadRules,
                 name + ": at most " + std::to_string(kMaxPieces) + " pieces a side"};
  if (endgame < 0 || endgame >= r.pieces)
    return Error{Errc::kBadRules, name + ": an endgame table holds 1 to " +
                                      std::to_string(r.pieces - 1) + " pieces left a side, not " +
                                      std::to_string(endgame)};
  MultisetIndex s(engine);
  s.pieces_ = r.pieces;
  s.endgame_ = endgame;
  s.stacking_ = r.stacking;
  s.staging_ = engine.has_staging();
  const int n = engine.path_length();
  s.off_index_ = n + 1;
  if (!paths_are_mirrored(engine))
    return Error{Errc::kBadRules, name + ": the two paths are not mirror images"};
  // Pieces never stand below the entry index of a fixed-index entry (Bell's a2).
  const int min_entry = r.entry == EntryTarget::kFixedIndex ? r.entry_index : 1;
  std::map<int, int> slot_of_cell;
  for (int side = 0; side < 2; ++side)
    for (int i = min_entry; i <= n; ++i) {
      const int cell = static_cast<int>(engine.cell_at(static_cast<Player>(side), i));
      auto [it, fresh] = slot_of_cell.emplace(cell, static_cast<int>(s.slots_.size()));
      if (fresh) s.slots_.emplace_back();
      Slot& slot = s.slots_[it->second];
      if (slot.n == kMaxOptions)
        return Error{Errc::kBadRules, name + ": more than " + std::to_string(kMaxOptions) +
                                          " path indices land on square " +
                                          cell_name(static_cast<Cell>(cell))};
      slot.options[slot.n++] = {static_cast<std::uint8_t>(side), static_cast<std::uint8_t>(i)};
    }
  if (s.staging_)
    for (int side = 0; side < 2; ++side) {
      Slot slot;
      slot.options[0] = {static_cast<std::uint8_t>(side), 0};
      slot.n = 1;
      s.slots_.push_back(slot);
    }
  if (s.slots_.size() > kMaxSlots) return Error{Errc::kBadRules, name + ": too many squares"};
  for (auto& side : s.slot_of_) side.fill(-1);
  for (std::size_t j = 0; j < s.slots_.size(); ++j)
    for (int k = 0; k < s.slots_[j].n; ++k) {
      const Option o = s.slots_[j].options[k];
      s.slot_of_[o.side][o.index] = static_cast<std::int8_t>(j);
      for (int l = 0; l < k; ++l) s.revisits_ |= s.slots_[j].options[l].side == o.side;
    }
  s.build_tables();
  return s;
}

// Every content of a slot the engine allows: one colour only; one piece unless the rule set
// stacks (the staging space S always holds any number).
void MultisetIndex::add_digits(Slot& s) const {
  const bool many = stacking_ || s.options[0].index == 0;
  const int cap = many ? pieces_ : 1;
  std::array<std::uint8_t, kMaxOptions> c{};
  s.digit_of.assign(1 << (3 * kMaxOptions), 255);
  // Odometer over counts 0..cap per option.
  while (true) {
    int mover = 0, opp = 0;
    for (int k = 0; k < s.n; ++k) (s.options[k].side == 0 ? mover : opp) += c[k];
    if (!(mover && opp) && mover <= cap && opp <= cap) {
      int key = 0;
      for (int k = 0; k < s.n; ++k) key |= c[k] << (3 * k);
      s.digit_of[key] = static_cast<std::uint8_t>(s.digits.size());
      s.digits.push_back(c);
      s.m.push_back(static_cast<std::uint8_t>(mover));
      s.o.push_back(static_cast<std::uint8_t>(opp));
    }
    int k = 0;
    while (k < s.n && c[k] == cap) c[k++] = 0;
    if (k == s.n) break;
    ++c[k];
  }
  assert(s.digits.size() < 255);
}

void MultisetIndex::build_tables() {
  const int P = pieces_, J = static_cast<int>(slots_.size());
  // completions[x][y] of the slots after the current one; 1 past the last (the rest waits).
  std::vector<std::uint64_t> after((P + 1) * (P + 1), 1), here((P + 1) * (P + 1));
  for (int j = J - 1; j >= 0; --j) {
    Slot& s = slots_[j];
    add_digits(s);
    const std::size_t D = s.digits.size();
    s.cum.assign((P + 1) * (P + 1) * (D + 1), 0);
    for (int x = 0; x <= P; ++x)
      for (int y = 0; y <= P; ++y) {
        std::uint64_t* c = s.cum.data() + static_cast<std::size_t>(x * (P + 1) + y) * (D + 1);
        for (std::size_t d = 0; d < D; ++d) {
          const bool fits = s.m[d] <= x && s.o[d] <= y;
          c[d + 1] = c[d] + (fits ? after[(x - s.m[d]) * (P + 1) + (y - s.o[d])] : 0);
        }
        here[x * (P + 1) + y] = c[D];
      }
    after.swap(here);
  }
  layers_ = layer_order(P);
  // An endgame index keeps the layers where both sides have at most k pieces left.
  std::erase_if(layers_, [&](const Layer& l) { return P - l.a > endgame_left(); });
  std::uint64_t cur = 0;
  for (Layer& l : layers_) {
    l.begin = cur;
    base_[l.a][l.b] = cur;
    cur += after[(P - l.a) * (P + 1) + (P - l.b)];
    l.middle = cur;
    if (l.a != l.b) {
      base_[l.b][l.a] = cur;
      cur += after[(P - l.b) * (P + 1) + (P - l.a)];
    }
    l.end = cur;
  }
  size_ = cur;
}

std::string MultisetIndex::encoding_id() const {
  // The slots' layout, digested so that Murray's 54 (side, index) pairs fit the header's field.
  std::string layout;
  for (const Slot& s : slots_) {
    for (int k = 0; k < s.n; ++k)
      layout += (s.options[k].side == 0 ? "m" : "o") + std::to_string(s.options[k].index);
    layout += ",";
  }
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : layout) h = (h ^ c) * 0x100000001b3ull;
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(h));
  return "ur-multiset-1:P" + std::to_string(pieces_) + (stacking_ ? ":stack" : "") +
         (staging_ ? ":staging" : "") + ":slots" + std::to_string(slots_.size()) + ":" + digest +
         (endgame_ > 0 ? ":endgame" + std::to_string(endgame_) : "");
}

std::uint64_t MultisetIndex::rank(const Position& p) const {
  const int mover = index_of(p.turn);
  const auto& mine = p.count[mover];
  const auto& theirs = p.count[1 - mover];
  const int a = mine[off_index_], b = theirs[off_index_];
  assert(a < pieces_ && b < pieces_ && contains(p));
  int x = pieces_ - a, y = pieces_ - b;
  std::uint64_t r = base_[a][b];
  // An empty slot adds cum[...][0] = 0 and places nothing: only the occupied ones, in order.
  std::uint64_t occupied = 0;
  for (std::uint32_t m = p.occ[mover]; m != 0; m &= m - 1)
    if (const int j = slot_of_[0][std::countr_zero(m)]; j >= 0) occupied |= 1ull << j;
  for (std::uint32_t m = p.occ[1 - mover]; m != 0; m &= m - 1)
    if (const int j = slot_of_[1][std::countr_zero(m)]; j >= 0) occupied |= 1ull << j;
  for (; occupied != 0; occupied &= occupied - 1) {
    const int j = std::countr_zero(occupied);
    const Slot& s = slots_[j];
    int key = 0;
    for (int k = 0; k < s.n; ++k) {
      const Option o = s.options[k];
      key |= (o.side == 0 ? mine[o.index] : theirs[o.index]) << (3 * k);
    }
    const int d = s.digit_of[key];
    assert(d != 255);
    r += cum(j, x, y)[d];
    x -= s.m[d];
    y -= s.o[d];
  }
  return r;
}

Position MultisetIndex::unrank(std::uint64_t index) const {
  assert(index < size_);
  int a = 0, b = 0;
  for (const Layer& l : layers_)
    if (index >= l.begin && index < l.end) {
      a = index < l.middle ? l.a : l.b;
      b = index < l.middle ? l.b : l.a;
    }
  std::uint64_t r = index - base_[a][b];
  int x = pieces_ - a, y = pieces_ - b;
  Position p;
  for (int j = 0; j < static_cast<int>(slots_.size()); ++j) {
    const Slot& s = slots_[j];
    const std::uint64_t* c = cum(j, x, y);
    std::size_t d = 0;
    while (c[d + 1] <= r) ++d;  // the first digit whose run holds r (its weight is positive)
    r -= c[d];
    for (int k = 0; k < s.n; ++k) p.count[s.options[k].side][s.options[k].index] = s.digits[d][k];
    x -= s.m[d];
    y -= s.o[d];
  }
  assert(r == 0);
  if (staging_) {
    p.pool[0] = static_cast<std::uint8_t>(x);
    p.pool[1] = static_cast<std::uint8_t>(y);
  } else {
    p.count[0][0] = static_cast<std::uint8_t>(x);
    p.count[1][0] = static_cast<std::uint8_t>(y);
  }
  p.count[0][off_index_] = static_cast<std::uint8_t>(a);
  p.count[1][off_index_] = static_cast<std::uint8_t>(b);
  p.phase = Phase::kAwaitingRoll;
  p.turn = p.next = Player::kLight;
  engine_->refresh_masks(p);
  return p;
}

}  // namespace ur::solver
