// The layers every state encoding of the solver shares: states grouped by the pieces each side
// has borne off. Moves keep the borne-off counts or raise one of them, so a layer {a, b} (both
// orientations, one contiguous index range) depends only on itself and on layers with more
// pieces borne off, which the solver finishes first.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/engine.h"

namespace ur::solver {

inline constexpr int kMaxPieces = 7;

// Whether dark's path is light's mirrored across the middle row, square rule for square rule:
// what lets one table serve both colours (a state is seen from the side to move), which every
// state encoding relies on.
inline bool paths_are_mirrored(const Engine& engine) {
  for (int i = 1; i <= engine.path_length(); ++i) {
    const Cell c = engine.cell_at(Player::kLight, i);
    const Cell d = engine.cell_at(Player::kDark, i);
    if (cell_file(d) != cell_file(c) || cell_rank(d) != 4 - cell_rank(c) ||
        engine.landing(Player::kLight, i) != engine.landing(Player::kDark, i))
      return false;
  }
  return true;
}

// One solve layer: the states whose borne-off counts are {a, b} in either orientation.
struct Layer {
  int a = 0, b = 0;          // a <= b
  std::uint64_t begin = 0;   // first index of sublayer (a, b)
  std::uint64_t middle = 0;  // first index of sublayer (b, a); == end when a == b
  std::uint64_t end = 0;
};

// Layers {a, b}, most pieces borne off first: a layer's moves stay inside it or bear off into a
// layer solved before it. Their offsets are set by the encoding.
inline std::vector<Layer> layer_order(int pieces) {
  std::vector<Layer> layers;
  for (int sum = 2 * (pieces - 1); sum >= 0; --sum)
    for (int a = 0; 2 * a <= sum; ++a) {
      const int b = sum - a;
      if (b > pieces - 1) continue;
      Layer l;
      l.a = a;
      l.b = b;
      layers.push_back(l);
    }
  return layers;
}

}  // namespace ur::solver
