// A small table of static evaluations by position key. The search evaluates
// many positions more than once (transpositions, re-searches, quiescence that
// returns to a position the main search evaluated), and a lookup costs far
// less than counting the evaluation's terms. A hit returns exactly what the
// evaluation returned, so the search plays the same moves, faster.
#ifndef ENGINE_EVAL_CACHE_H_
#define ENGINE_EVAL_CACHE_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/types.h"

namespace chess {

class EvalCache {
 public:
  // `entries` is a power of two.
  explicit EvalCache(size_t entries = size_t(1) << 16)
      : slots_(entries, 0), mask_(entries - 1) {}

  std::optional<int> Probe(Key key) const {
    const uint64_t slot = slots_[key & mask_];
    // An empty slot (0) never matches: a miss is always safe.
    if (slot == 0 || ((slot ^ key) & kTagMask) != 0) return std::nullopt;
    return int(int16_t(uint16_t(slot)));
  }
  // Evaluations outside 16 bits are not kept (they are evaluated again).
  void Store(Key key, int eval) {
    if (eval < INT16_MIN || eval > INT16_MAX) return;
    slots_[key & mask_] = (key & kTagMask) | uint16_t(int16_t(eval));
  }
  // Called whenever the evaluation changes (new weights), and for a new game.
  void Clear() { std::fill(slots_.begin(), slots_.end(), 0); }

 private:
  // A slot holds the key's upper 48 bits and the evaluation in the low 16.
  static constexpr uint64_t kTagMask = ~uint64_t(0xFFFF);
  std::vector<uint64_t> slots_;
  uint64_t mask_;
};

}  // namespace chess

#endif  // ENGINE_EVAL_CACHE_H_
