// MultisetIndex: the state encoding for every rule set the dense index cannot express: paths
// that visit a square twice (Murray's 27-square paths), counters stacked on a square and the
// staging space S (the boxed game).
//
// A state is still a position awaiting a throw seen from the side to move, with the mover's
// pieces read along light's path and the opponent's along dark's (the rule sets it accepts are
// mirror-symmetric, so one table serves both colours). Each side's pieces are a multiset of
// path indices; the board is cut into slots:
//
//   a square slot  one square of the board, with the path indices of each side that land on it
//                  (two for a square a path visits twice). Its digit is what stands there: empty,
//                  or one side's counts at its indices (at most one piece unless stacking; never
//                  both colours on one square, as the engine's invariants say)
//   a staging slot the boxed game's S, one per side: a count
//
// and the pieces of a side that are in no slot and not borne off are waiting (not entered).
// Layers are the borne-off counts (a, b) exactly as in the dense index, so a layer depends only
// on itself and on layers solved before it. Within sublayer (a, b) the rank is the mixed-radix
// combinatorial rank over the slots in order:
//
//   rank = sum over slots j of cum[j][x_j][y_j][d_j]
//
// where d_j is slot j's digit, x_j, y_j the mover's and the opponent's pieces not yet placed in
// slots before j (x_0 = P - a, y_0 = P - b), and cum[j][x][y][d] the number of ways to fill
// slots j+1.. with x', y' pieces over the digits before d (the remainder waits). The sublayer's
// size is completions[0][P-a][P-b]; `ur solve --count` prints the sum.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "rules/error.h"
#include "solver/layer.h"

namespace ur::solver {

class MultisetIndex;
using MultisetIndexResult = Result<MultisetIndex>;

class MultisetIndex {
 public:
  static constexpr int kMaxOptions = 4;         // (side, path index) pairs that land on one square
  static constexpr std::size_t kMaxSlots = 64;  // rank() keeps the occupied ones in 64 bits
  static constexpr int kMaxLayerStates = 1 << 30;  // in-layer offsets of the solver's streams

  // Refuses rule sets whose paths are not mirror images, more than kMaxPieces pieces, a square
  // more than two path indices of one side land on, or a layer too large to solve.
  //
  // endgame = k > 0: the endgame index, only the states where each side has at most k pieces
  // left to bear off (layers a, b >= P - k). Moves never lower a borne-off count, so these
  // layers are closed under play and solve on their own; k must be 1..P-1.
  static MultisetIndexResult create(const Engine& engine, int endgame = 0);

  std::uint64_t size() const { return size_; }
  const std::vector<Layer>& layers() const { return layers_; }
  std::string encoding_id() const;
  std::uint64_t rank(const Position& p) const;
  Position unrank(std::uint64_t index) const;
  const Engine& engine() const { return *engine_; }
  int slots() const { return static_cast<int>(slots_.size()); }
  // Whether a side's path visits a square twice (Murray's): then the slots, which follow
  // light's path, do not follow a piece's progress.
  bool revisits() const { return revisits_; }
  // 0 for the whole game, else k: the pieces each side may have left in an endgame index.
  int endgame() const { return endgame_; }
  // Whether rank() may be asked about p: both sides have borne off at least P - k pieces
  // (always true for the whole game's index).
  bool contains(const Position& p) const {
    return p.count[0][off_index_] >= pieces_ - endgame_left() &&
           p.count[1][off_index_] >= pieces_ - endgame_left();
  }

 private:
  struct Option {
    std::uint8_t side = 0;   // 0 the mover (light's path index), 1 the opponent (dark's)
    std::uint8_t index = 0;  // path index
  };
  struct Slot {
    std::array<Option, kMaxOptions> options{};
    int n = 0;
    // Digit d: counts per option; m, o = the mover's / opponent's pieces it holds.
    std::vector<std::array<std::uint8_t, kMaxOptions>> digits;
    std::vector<std::uint8_t> m, o;
    std::vector<std::uint8_t> digit_of;  // by key = sum count_k << 3k; 255 = not a digit
    // cum[(x * (P+1) + y) * (digits+1) + d]: states of the slots after this one over digits < d
    std::vector<std::uint64_t> cum;
  };

  explicit MultisetIndex(const Engine& engine) : engine_(&engine) {}
  int endgame_left() const { return endgame_ > 0 ? endgame_ : pieces_; }
  void add_digits(Slot& s) const;
  void build_tables();
  const std::uint64_t* cum(int j, int x, int y) const {
    const Slot& s = slots_[j];
    return s.cum.data() + static_cast<std::size_t>(x * (pieces_ + 1) + y) * (s.digits.size() + 1);
  }

  const Engine* engine_;
  int pieces_ = 7;
  int off_index_ = 15;
  bool stacking_ = false;
  bool staging_ = false;
  int endgame_ = 0;
  bool revisits_ = false;
  std::vector<Slot> slots_;
  // The slot of each side's path index (-1: none, such as the waiting pieces' index 0): rank()
  // visits only the slots the occupancy masks mark, since an empty slot adds nothing.
  std::array<std::array<std::int8_t, kMaxIndex>, 2> slot_of_{};
  std::array<std::array<std::uint64_t, kMaxPieces + 1>, kMaxPieces + 1> base_{};
  std::vector<Layer> layers_;
  std::uint64_t size_ = 0;
};

}  // namespace ur::solver
