//===- Random.h - The one pseudo-random generator of tilec ------*- C++ -*-===//
//
// SplitMix64 (Steele, Lea and Flood, 2014): small, fast and the same on every
// platform, so a seed names the same data everywhere. The interpreter's and
// tile-run's `rand` buffers, tile-bench's inputs and tile-gen's programs all
// draw from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_RANDOM_H
#define TILEC_SUPPORT_RANDOM_H

#include <cstdint>

namespace tilec {

/// The SplitMix64 step (the golden-ratio increment).
constexpr std::uint64_t kSplitMixIncrement = 0x9E3779B97F4A7C15ull;

/// SplitMix64's output function: a bijective mix of 64 bits.
constexpr std::uint64_t mixBits(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A sequence of pseudo-random 64-bit numbers from a seed.
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state(seed) {}
  std::uint64_t next() { return mixBits(state += kSplitMixIncrement); }

private:
  std::uint64_t state;
};

/// Element `index` of the sequence of `seed`, without walking it: for
/// filling large inputs from several threads.
constexpr std::uint64_t randomAt(std::uint64_t seed, std::uint64_t index) {
  return mixBits(seed * kSplitMixIncrement + index + 1);
}

} // namespace tilec

#endif // TILEC_SUPPORT_RANDOM_H
