// Correction history: what the search has learned, in this game, about where
// the static evaluation is wrong. For every pawn structure (and side to move)
// it learns how far the searched scores lay from the evaluation, and adds that
// to later evaluations of positions with the same pawns. An evaluation that
// misjudges, say, a pawn majority is corrected for the rest of the game
// instead of misleading every pruning decision made on it.
#ifndef ENGINE_CORRECTION_HISTORY_H_
#define ENGINE_CORRECTION_HISTORY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/position.h"
#include "engine/tt.h"

namespace chess {

class CorrectionHistory {
 public:
  void Clear();
  // `eval` from the side to move's view, plus what was learned for its pawns.
  int Correct(const Position& pos, int eval) const;
  // Moves the correction by part of what is left, `searched` minus the
  // corrected evaluation, the more the deeper the search that found
  // `searched`. What is left, not `searched` minus the raw evaluation: the
  // search's scores already include the corrections (its leaves are
  // corrected), so learning from the raw evaluation would feed a correction
  // back into itself. Only a score that says where the position truly lies
  // teaches: an exact one, or a bound beyond the corrected evaluation.
  void Update(const Position& pos, int corrected_eval, int searched,
              Bound bound, int depth);

  // Positions with the same pawns share a key (exposed for tests).
  static uint64_t PawnKey(const Position& pos);

 private:
  static constexpr int kEntries = 1 << 14;  // per side to move
  // Entries are in 1/kGrain centipawns, so that small steps accumulate.
  static constexpr int kGrain = 256;
  static constexpr int kMaxCorrectionCp = 64;
  // A search of depth d moves an entry by min(d + 1, kMaxWeight) / kWeightScale
  // of what is left.
  static constexpr int kWeightScale = 256;
  static constexpr int kMaxWeight = 16;

  size_t Index(const Position& pos) const {
    return size_t(pos.side_to_move()) * kEntries + PawnKey(pos) % kEntries;
  }

  // On the heap: the engine that owns it may live on a thread's stack.
  std::vector<int16_t> entries_ = std::vector<int16_t>(2 * kEntries);
};

}  // namespace chess

#endif  // ENGINE_CORRECTION_HISTORY_H_
