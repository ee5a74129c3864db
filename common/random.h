// Seeded randomness that is the same on every standard library: a 64-bit
// mixer (SplitMix64's finaliser) and a Fisher-Yates shuffle on it. std::shuffle
// and the std distributions are implementation-defined, so a schedule or a
// sample drawn with them could differ between machines of one cluster.
#ifndef COMMON_RANDOM_H_
#define COMMON_RANDOM_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace chess {

inline uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The permutation depends on `seed` and the size only. (The arena's opening
// order uses it: changing it changes every shuffled schedule.)
template <typename T>
void SeededShuffle(std::vector<T>& items, uint64_t seed) {
  for (size_t i = items.size(); i-- > 1;) {
    std::swap(items[i],
              items[Mix64(seed ^ (uint64_t(i) * 0x100000001B3ull)) % (i + 1)]);
  }
}

}  // namespace chess

#endif  // COMMON_RANDOM_H_
