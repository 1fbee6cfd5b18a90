// DenseIndex: a dense bijection between the positions of a rule set and 0..S-1.
//
// A state is a position awaiting a throw, seen from the side to move (the "mover"): by the
// mirror symmetry of every solvable rule set, a position with dark to move is the same state as
// the colour-swapped position with light to move, so one table serves both colours.
//
// Layout, computed by combinatorial ranking (no hash map, no stored keys):
//
//   index = sublayer_base(a, b) + rank within the sublayer
//   a, b  = pieces borne off by the mover and by the opponent (0..P-1 each; P pieces a side)
//
// Within a sublayer A = P - a and B = P - b pieces remain per side. The squares are split into
//   shared slots   squares on both paths: each is empty, mover's or opponent's (base 3)
//   private masks  reachable squares only one side visits: a bitmask per side
// and the waiting (not entered) pieces are what remains: A - (mover pieces on the board).
// The shared code is split into a high and a low half so that prefix tables stay small:
//
//   rank = hi_prefix[A][B][hi] + lo_prefix[A - s1(hi)][B - s2(hi)][lo]
//        + mask_rank[A - s1][m1] * mask_count[B - s2] + mask_rank[B - s2][m2]
//
// where s1, s2 count the mover's / opponent's pieces in the shared slots, mask_count[K] is the
// number of private masks with at most K bits and mask_rank[K][m] the rank of m among them in
// numeric order. The count formula S = sum over (a, b, shared code) of mask_count[A - s1] *
// mask_count[B - s2] is what `ur solve --count` prints; Finkel: 137,870,097.
//
// Sublayers are ordered so that each solve layer {a, b} (both orientations) is one contiguous
// range, the layers in the order the solver finishes them (most pieces borne off first).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "rules/error.h"
#include "solver/layer.h"

namespace ur::solver {

inline constexpr int kMaxShared = 16;
inline constexpr int kMaxPrivate = 8;

class DenseIndex;
using DenseIndexResult = Result<DenseIndex>;

class DenseIndex {
 public:
  // Refuses rule sets it cannot index, with the reason: stacking, a staging space, a path
  // that revisits a square, more than kMaxPieces pieces, paths that are not mirror images.
  static DenseIndexResult create(const Engine& engine);

  std::uint64_t size() const { return size_; }
  const std::vector<Layer>& layers() const { return layers_; }  // in solve order
  // Identifies the encoding (for the table file): changes whenever the layout would.
  std::string encoding_id() const;

  // The index of a position awaiting a throw (Phase::kAwaitingRoll, game not over).
  std::uint64_t rank(const Position& p) const;
  // The position of an index, light to move (the mover is light).
  Position unrank(std::uint64_t index) const;

  // Calls f(index, position) for every state of sublayer (a, b) in index order, positions
  // with light to move; [from_hi, to_hi) restricts the high shared codes (for threads).
  template <typename F>
  void for_each(int a, int b, int from_hi, int to_hi, F&& f) const;
  int hi_codes() const { return pow3_[hi_slots_]; }
  std::uint64_t sublayer_base(int a, int b) const { return base_[a][b]; }
  std::uint64_t hi_offset(int a, int b, int hi) const {
    return base_[a][b] + hi_prefix_[remaining(a)][remaining(b)][hi];
  }
  const Engine& engine() const { return *engine_; }

 private:
  explicit DenseIndex(const Engine& engine) : engine_(&engine) {}
  int remaining(int off) const { return pieces_ - off; }
  void build_tables();
  // Writes the pieces of one side described by (shared code digits, private mask) into p.
  void place(Position& p, int side, int code_hi, int code_lo, int mask, int waiting, int off) const;

  const Engine* engine_;
  int pieces_ = 7;
  int off_index_ = 15;
  int shared_ = 0, hi_slots_ = 0, lo_slots_ = 0;
  int private_ = 0;
  std::array<int, kMaxShared> shared_light_{};    // light's path index of shared slot j
  std::array<int, kMaxShared> shared_dark_{};     // dark's path index of the same square
  std::array<int, kMaxPrivate> private_index_{};  // path index of private bit j
  std::array<int, kMaxShared + 1> pow3_{};
  // rank() reads the occupancy masks a byte at a time: what each byte value of the mover's
  // (side 0) or the opponent's (side 1) mask adds to the shared codes and the private mask.
  struct Contribution {
    std::uint32_t hi = 0, lo = 0;
    std::uint8_t mask = 0, shared = 0;
  };
  std::array<std::array<std::array<Contribution, 256>, 4>, 2> contribution_{};
  // Per code of one half: how many mover / opponent pieces it holds, and in which slots.
  std::vector<std::uint8_t> code_s1_, code_s2_;
  std::vector<std::uint16_t> code_m_, code_o_;
  std::array<int, kMaxPieces + 1> mask_count_{};
  std::vector<std::array<std::uint16_t, 1 << kMaxPrivate>> mask_rank_;  // [K][mask]
  // lo_prefix_[A][B][lo], hi_prefix_[A][B][hi] (A, B = pieces remaining; may be <= 0 inside)
  std::vector<std::vector<std::vector<std::uint64_t>>> lo_prefix_, hi_prefix_;
  std::array<std::array<std::uint64_t, kMaxPieces + 1>, kMaxPieces + 1> base_{};
  std::vector<Layer> layers_;
  std::uint64_t size_ = 0;
  friend class DenseIndexFriend;
};

template <typename F>
void DenseIndex::for_each(int a, int b, int from_hi, int to_hi, F&& f) const {
  const int A = remaining(a), B = remaining(b);
  std::uint64_t index = hi_offset(a, b, from_hi);
  const int lo_codes = pow3_[lo_slots_];
  const int masks = 1 << private_;
  Position p;
  for (int hi = from_hi; hi < to_hi; ++hi) {
    const int A1 = A - code_s1_[hi], B1 = B - code_s2_[hi];
    if (A1 < 0 || B1 < 0) continue;
    for (int lo = 0; lo < lo_codes; ++lo) {
      const int K1 = A1 - code_s1_[lo], K2 = B1 - code_s2_[lo];
      if (K1 < 0 || K2 < 0) continue;
      for (int m1 = 0; m1 < masks; ++m1) {
        const int n1 = std::popcount(static_cast<unsigned>(m1));
        if (n1 > K1) continue;
        for (int m2 = 0; m2 < masks; ++m2) {
          const int n2 = std::popcount(static_cast<unsigned>(m2));
          if (n2 > K2) continue;
          p = Position{};
          place(p, 0, hi, lo, m1, K1 - n1, a);
          place(p, 1, hi, lo, m2, K2 - n2, b);
          p.phase = Phase::kAwaitingRoll;
          p.turn = p.next = Player::kLight;
          engine_->refresh_masks(p);
          f(index, p);
          ++index;
        }
      }
    }
  }
}

}  // namespace ur::solver
