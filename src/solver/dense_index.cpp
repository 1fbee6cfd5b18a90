#include "solver/dense_index.h"

#include <algorithm>
#include <cassert>

namespace ur::solver {

DenseIndexResult DenseIndex::create(const Engine& engine) {
  const RuleSet& r = engine.rules();
  const std::string name = r.to_string();
  if (r.stacking)
    return Error{Errc::kBadRules,
                 name + ": stacking rule sets are not solvable by the dense index"};
  if (r.entry == EntryTarget::kStaging)
    return Error{Errc::kBadRules, name + ": a staging space is not supported"};
  if (r.doubles || r.forfeits != RuleSet::Forfeits::kNone || r.rosette_award)
    return Error{Errc::kBadRules, name + ": award and forfeit squares are not supported"};
  if (r.pieces > kMaxPieces)
    return Error{Errc::kBadRules,
                 name + ": at most " + std::to_string(kMaxPieces) + " pieces a side"};
  DenseIndex s(engine);
  s.pieces_ = r.pieces;
  const int n = engine.path_length();
  s.off_index_ = n + 1;
  int min_entry = 1;
  if (r.entry == EntryTarget::kFixedIndex) min_entry = r.entry_index;
  if (!paths_are_mirrored(engine))
    return Error{Errc::kBadRules, name + ": the two paths are not mirror images"};
  for (int i = 1; i <= n; ++i) {
    const Cell c = engine.cell_at(Player::kLight, i);
    for (int j = 1; j < i; ++j)
      if (engine.cell_at(Player::kLight, j) == c)
        return Error{Errc::kBadRules, name + ": the path visits square " + cell_name(c) + " twice"};
  }
  for (int i = 1; i <= n; ++i) {
    const Cell c = engine.cell_at(Player::kLight, i);
    int dark_index = 0;
    for (int j = 1; j <= n; ++j)
      if (engine.cell_at(Player::kDark, j) == c) dark_index = j;
    if (dark_index) {
      if (s.shared_ >= kMaxShared)
        return Error{Errc::kBadRules, name + ": too many shared squares"};
      s.shared_light_[s.shared_] = i;
      s.shared_dark_[s.shared_] = dark_index;
      ++s.shared_;
    } else if (i >= min_entry) {
      if (s.private_ >= kMaxPrivate)
        return Error{Errc::kBadRules, name + ": too many private squares"};
      s.private_index_[s.private_++] = i;
    }
  }
  s.hi_slots_ = s.shared_ / 2;
  s.lo_slots_ = s.shared_ - s.hi_slots_;
  s.build_tables();
  return s;
}

namespace {

// Per code of one half (base-3 digits: 0 empty, 1 mover, 2 opponent): how many mover (s1) and
// opponent (s2) pieces it holds, and the slots they hold as bit masks (m, o).
void fill_codes(int codes, std::vector<std::uint8_t>& s1, std::vector<std::uint8_t>& s2,
                std::vector<std::uint16_t>& m, std::vector<std::uint16_t>& o) {
  s1.assign(codes, 0);
  s2.assign(codes, 0);
  m.assign(codes, 0);
  o.assign(codes, 0);
  for (int c = 0; c < codes; ++c) {
    int x = c;
    for (int j = 0; x > 0; ++j, x /= 3) {
      if (x % 3 == 1) ++s1[c], m[c] |= 1u << j;
      if (x % 3 == 2) ++s2[c], o[c] |= 1u << j;
    }
  }
}

}  // namespace

void DenseIndex::build_tables() {
  pow3_[0] = 1;
  for (int i = 1; i <= kMaxShared; ++i) pow3_[i] = pow3_[i - 1] * 3;
  const int codes = pow3_[std::max(hi_slots_, lo_slots_)];
  fill_codes(codes, code_s1_, code_s2_, code_m_, code_o_);
  const int masks = 1 << private_;
  mask_rank_.assign(pieces_ + 1, {});
  for (int k = 0; k <= pieces_; ++k) {
    int count = 0;
    for (int m = 0; m < masks; ++m) {
      mask_rank_[k][m] = static_cast<std::uint16_t>(count);
      if (std::popcount(static_cast<unsigned>(m)) <= k) ++count;
    }
    mask_count_[k] = count;
  }
  for (int side = 0; side < 2; ++side)
    for (int byte = 0; byte < 4; ++byte)
      for (int v = 0; v < 256; ++v) {
        Contribution c;
        for (int bit = 0; bit < 8; ++bit) {
          if (!(v & (1 << bit))) continue;
          const int i = byte * 8 + bit;
          const auto& slots = side == 0 ? shared_light_ : shared_dark_;
          for (int j = 0; j < shared_; ++j) {
            if (slots[j] != i) continue;
            const std::uint32_t digit = side == 0 ? 1 : 2;
            if (j < hi_slots_)
              c.hi += digit * pow3_[j];
            else
              c.lo += digit * pow3_[j - hi_slots_];
            ++c.shared;
          }
          for (int j = 0; j < private_; ++j)
            if (private_index_[j] == i) c.mask |= static_cast<std::uint8_t>(1 << j);
        }
        contribution_[side][byte][v] = c;
      }
  auto weight = [&](int k1, int k2) -> std::uint64_t {
    if (k1 < 0 || k2 < 0) return 0;
    return static_cast<std::uint64_t>(mask_count_[k1]) * mask_count_[k2];
  };
  const int lo_codes = pow3_[lo_slots_], hi_codes = pow3_[hi_slots_];
  lo_prefix_.assign(pieces_ + 1, std::vector<std::vector<std::uint64_t>>(pieces_ + 1));
  hi_prefix_.assign(pieces_ + 1, std::vector<std::vector<std::uint64_t>>(pieces_ + 1));
  for (int A = 0; A <= pieces_; ++A)
    for (int B = 0; B <= pieces_; ++B) {
      auto& lo = lo_prefix_[A][B];
      lo.assign(lo_codes + 1, 0);
      for (int c = 0; c < lo_codes; ++c)
        lo[c + 1] = lo[c] + weight(A - code_s1_[c], B - code_s2_[c]);
    }
  for (int A = 0; A <= pieces_; ++A)
    for (int B = 0; B <= pieces_; ++B) {
      auto& hi = hi_prefix_[A][B];
      hi.assign(hi_codes + 1, 0);
      for (int c = 0; c < hi_codes; ++c) {
        const int A1 = A - code_s1_[c], B1 = B - code_s2_[c];
        hi[c + 1] = hi[c] + (A1 < 0 || B1 < 0 ? 0 : lo_prefix_[A1][B1][lo_codes]);
      }
    }
  layers_ = layer_order(pieces_);
  std::uint64_t cur = 0;
  for (Layer& l : layers_) {
    l.begin = cur;
    base_[l.a][l.b] = cur;
    cur += hi_prefix_[remaining(l.a)][remaining(l.b)][hi_codes];
    l.middle = cur;
    if (l.a != l.b) {
      base_[l.b][l.a] = cur;
      cur += hi_prefix_[remaining(l.b)][remaining(l.a)][hi_codes];
    }
    l.end = cur;
  }
  size_ = cur;
}

std::string DenseIndex::encoding_id() const {
  std::string id = "ur-dense-1:P" + std::to_string(pieces_) + ":S";
  for (int j = 0; j < shared_; ++j)
    id += std::to_string(shared_light_[j]) + "/" + std::to_string(shared_dark_[j]) + ",";
  id += ":Q";
  for (int j = 0; j < private_; ++j) id += std::to_string(private_index_[j]) + ",";
  return id;
}

std::uint64_t DenseIndex::rank(const Position& p) const {
  const int mover = index_of(p.turn);
  const int a = p.count[mover][off_index_], b = p.count[1 - mover][off_index_];
  assert(a < pieces_ && b < pieces_);
  std::uint32_t hi = 0, lo = 0;
  int s1 = 0, s2 = 0, m1 = 0, m2 = 0;
  const std::uint32_t om = p.occ[mover], oo = p.occ[1 - mover];
  for (int byte = 0; byte < 4; ++byte) {
    const Contribution& cm = contribution_[0][byte][(om >> (8 * byte)) & 0xff];
    const Contribution& co = contribution_[1][byte][(oo >> (8 * byte)) & 0xff];
    hi += cm.hi + co.hi;
    lo += cm.lo + co.lo;
    s1 += cm.shared;
    s2 += co.shared;
    m1 |= cm.mask;
    m2 |= co.mask;
  }
  const int A = remaining(a), B = remaining(b);
  const int A1 = A - code_s1_[hi], B1 = B - code_s2_[hi];
  const int K1 = A - s1, K2 = B - s2;
  return base_[a][b] + hi_prefix_[A][B][hi] + lo_prefix_[A1][B1][lo] +
         static_cast<std::uint64_t>(mask_rank_[K1][m1]) * mask_count_[K2] + mask_rank_[K2][m2];
}

void DenseIndex::place(Position& p, int side, int code_hi, int code_lo, int mask, int waiting,
                       int off) const {
  auto& c = p.count[side];
  const auto& slots = side == 0 ? shared_light_ : shared_dark_;
  const std::uint16_t hi_bits = side == 0 ? code_m_[code_hi] : code_o_[code_hi];
  const std::uint16_t lo_bits = side == 0 ? code_m_[code_lo] : code_o_[code_lo];
  for (int j = 0; j < hi_slots_; ++j)
    if (hi_bits & (1u << j)) c[slots[j]] = 1;
  for (int j = 0; j < lo_slots_; ++j)
    if (lo_bits & (1u << j)) c[slots[hi_slots_ + j]] = 1;
  for (int j = 0; j < private_; ++j)
    if (mask & (1 << j)) c[private_index_[j]] = 1;
  c[0] = static_cast<std::uint8_t>(waiting);
  c[off_index_] = static_cast<std::uint8_t>(off);
}

Position DenseIndex::unrank(std::uint64_t index) const {
  assert(index < size_);
  // Find the sublayer, then the high and low codes by binary search over the prefix tables.
  int a = 0, b = 0;
  std::uint64_t best = 0;
  for (int x = 0; x < pieces_; ++x)
    for (int y = 0; y < pieces_; ++y)
      if (base_[x][y] <= index && base_[x][y] >= best) {
        const std::uint64_t size = hi_prefix_[remaining(x)][remaining(y)][pow3_[hi_slots_]];
        if (index < base_[x][y] + size) a = x, b = y, best = base_[x][y];
      }
  std::uint64_t r = index - base_[a][b];
  const int A = remaining(a), B = remaining(b);
  const auto& hp = hi_prefix_[A][B];
  const int hi = static_cast<int>(std::upper_bound(hp.begin(), hp.end(), r) - hp.begin()) - 1;
  r -= hp[hi];
  const int A1 = A - code_s1_[hi], B1 = B - code_s2_[hi];
  const auto& lp = lo_prefix_[A1][B1];
  const int lo = static_cast<int>(std::upper_bound(lp.begin(), lp.end(), r) - lp.begin()) - 1;
  r -= lp[lo];
  const int K1 = A1 - code_s1_[lo], K2 = B1 - code_s2_[lo];
  const std::uint64_t r1 = r / mask_count_[K2], r2 = r % mask_count_[K2];
  int m1 = 0, m2 = 0;
  for (int m = 0; m < (1 << private_); ++m) {
    if (std::popcount(static_cast<unsigned>(m)) <= K1 && mask_rank_[K1][m] == r1) m1 = m;
    if (std::popcount(static_cast<unsigned>(m)) <= K2 && mask_rank_[K2][m] == r2) m2 = m;
  }
  Position p;
  place(p, 0, hi, lo, m1, K1 - std::popcount(static_cast<unsigned>(m1)), a);
  place(p, 1, hi, lo, m2, K2 - std::popcount(static_cast<unsigned>(m2)), b);
  p.phase = Phase::kAwaitingRoll;
  p.turn = p.next = Player::kLight;
  engine_->refresh_masks(p);
  return p;
}

}  // namespace ur::solver
