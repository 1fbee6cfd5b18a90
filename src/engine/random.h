// Rng: a small, fast, seedable generator (xoshiro256**, seeded through splitmix64).
//
// Games, tournaments and benchmarks must be reproducible from a seed on every machine, so we
// do not use std::mt19937 with library-specific distributions: every draw is defined here.
// Not for secrets: the server rolls its dice with a CSPRNG.
#pragma once

#include <cstdint>

namespace ur {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0x5eed) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& s : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      s = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n) by Lemire's multiply-shift (bias below 2^-32 for the small n we use).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Fair coin bits, drawn 64 at a time: the hot path of random playouts.
  std::uint32_t bits(int n) {
    if (bits_left_ < n) {
      bit_buffer_ = next();
      bits_left_ = 64;
    }
    std::uint32_t r = static_cast<std::uint32_t>(bit_buffer_ & ((1ULL << n) - 1));
    bit_buffer_ >>= n;
    bits_left_ -= n;
    return r;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  std::uint64_t bit_buffer_ = 0;
  int bits_left_ = 0;
};

}  // namespace ur
