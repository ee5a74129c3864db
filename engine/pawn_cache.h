// A table of what the pawns alone decide in the evaluation, by the pawns of
// both sides: the search meets few pawn structures, each in many positions,
// and a lookup costs far less than analysing them again. A hit holds exactly
// what the analysis computed, so the evaluation is the same, faster.
#ifndef ENGINE_PAWN_CACHE_H_
#define ENGINE_PAWN_CACHE_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/eval_terms.h"

namespace chess {

// The structure of one pair of pawn sets and its kPawnTerms weighed by an
// Evaluator's weights (middle game and end game, White's point of view).
struct PawnEntry {
  Bitboard white_pawns = ~Bitboard(0);  // no position has 64 white pawns
  Bitboard black_pawns = 0;
  PawnStructure structure;
  int mg = 0, eg = 0;
};

class PawnCache {
 public:
  // `entries` is a power of two.
  explicit PawnCache(size_t entries = size_t(1) << 12)
      : slots_(entries), mask_(entries - 1) {}

  // The entry of these pawns, or null.
  const PawnEntry* Probe(Bitboard white_pawns, Bitboard black_pawns) const {
    const PawnEntry& slot = slots_[Index(white_pawns, black_pawns)];
    return slot.white_pawns == white_pawns && slot.black_pawns == black_pawns
               ? &slot
               : nullptr;
  }
  void Store(const PawnEntry& entry) {
    slots_[Index(entry.white_pawns, entry.black_pawns)] = entry;
  }
  // Called whenever the weights change: entries hold weighed terms.
  void Clear() { std::fill(slots_.begin(), slots_.end(), PawnEntry()); }

 private:
  size_t Index(Bitboard white_pawns, Bitboard black_pawns) const {
    const uint64_t h = (white_pawns * 0x9E3779B97F4A7C15ULL) ^
                       (black_pawns * 0xC2B2AE3D27D4EB4FULL);
    return size_t(h >> 32) & mask_;
  }
  std::vector<PawnEntry> slots_;
  size_t mask_;
};

}  // namespace chess

#endif  // ENGINE_PAWN_CACHE_H_
