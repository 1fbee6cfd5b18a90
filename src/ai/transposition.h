// Position hashing and the search's transposition table.
//
// The hash covers exactly the Markov state of a Position: the piece counts, the staging pools,
// who acts, who throws next, the phase and the roll (64 bytes, read as eight words and mixed).
// The occupancy masks are derived from the counts, so they are left out.
//
// The table is a fixed array of 2^bits entries, allocated once per search object, indexed by
// the low bits of the hash and verified by the full 64-bit key. An entry stores a lower and an
// upper bound on the value of a (position, depth) pair and the index of the best move; it is
// used only for the same depth, so a pruned search returns exactly the value of the plain
// expectiminimax of that depth (tests/unit/ai_expectimax_test.cpp checks it). Entries of
// earlier searches are invalidated in O(1) by a generation counter: results never depend on
// what an agent searched before, which keeps tournaments reproducible.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/position.h"

namespace ur::ai {

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t position_hash(const Position& p) {
  static_assert(sizeof(p.count) + sizeof(p.pool) + 4 == 64, "hash layout: 64 bytes of state");
  unsigned char bytes[64];
  std::memcpy(bytes, p.count.data(), sizeof(p.count));
  std::memcpy(bytes + sizeof(p.count), p.pool.data(), sizeof(p.pool));
  bytes[60] = static_cast<unsigned char>(p.turn);
  bytes[61] = static_cast<unsigned char>(p.next);
  bytes[62] = static_cast<unsigned char>(p.phase);
  bytes[63] = static_cast<unsigned char>(p.roll);
  std::uint64_t h = 0x243f6a8885a308d3ULL;
  for (int w = 0; w < 8; ++w) {
    std::uint64_t word;
    std::memcpy(&word, bytes + 8 * w, 8);
    h = mix64(h ^ word) + static_cast<std::uint64_t>(w);
  }
  return h;
}

struct TtEntry {
  std::uint64_t key = 0;
  double lower = 0;  // the value is >= lower
  double upper = 1;  // the value is <= upper
  std::int8_t depth = -1;
  std::uint8_t best = 0;  // index of the best move in legal_moves order (decision nodes)
  std::uint8_t generation = 0;
};
static_assert(sizeof(TtEntry) == 32);

class TranspositionTable {
 public:
  explicit TranspositionTable(int bits = 16) : mask_((std::uint64_t{1} << bits) - 1) {
    table_.resize(mask_ + 1);
  }

  // Starts a new search: every stored entry becomes stale.
  void new_search() {
    if (++generation_ == 0) {  // wrapped: really clear, so generation 0 entries are stale
      std::fill(table_.begin(), table_.end(), TtEntry{});
      generation_ = 1;
    }
  }

  // The entry for `key`, or nullptr.
  const TtEntry* probe(std::uint64_t key) const {
    const TtEntry& e = table_[key & mask_];
    return e.key == key && e.generation == generation_ ? &e : nullptr;
  }

  void store(std::uint64_t key, int depth, double lower, double upper, int best) {
    TtEntry& e = table_[key & mask_];
    // Keep the deeper (more expensive) result of this search in a collision.
    if (e.generation == generation_ && e.key != key && e.depth > depth) return;
    e.key = key;
    e.lower = lower;
    e.upper = upper;
    e.depth = static_cast<std::int8_t>(depth);
    e.best = static_cast<std::uint8_t>(best);
    e.generation = generation_;
  }

 private:
  std::uint64_t mask_;
  std::uint8_t generation_ = 1;
  std::vector<TtEntry> table_;
};

}  // namespace ur::ai
