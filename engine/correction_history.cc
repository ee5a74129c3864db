#include "engine/correction_history.h"

#include <algorithm>

#include "common/random.h"

namespace chess {

void CorrectionHistory::Clear() {
  std::fill(entries_.begin(), entries_.end(), 0);
}

uint64_t CorrectionHistory::PawnKey(const Position& pos) {
  return Mix64(pos.pieces(kWhite, kPawn) ^
               Mix64(pos.pieces(kBlack, kPawn) + 1));
}

int CorrectionHistory::Correct(const Position& pos, int eval) const {
  return eval + entries_[Index(pos)] / kGrain;
}

void CorrectionHistory::Update(const Position& pos, int corrected_eval,
                               int searched, Bound bound, int depth) {
  if (bound != kBoundExact &&
      (bound == kBoundLower) != (searched > corrected_eval)) {
    return;
  }
  const int left = std::clamp(searched - corrected_eval, -kMaxCorrectionCp,
                              kMaxCorrectionCp);
  const int step =
      left * kGrain * std::min(depth + 1, kMaxWeight) / kWeightScale;
  int16_t& entry = entries_[Index(pos)];
  entry = int16_t(std::clamp(entry + step, -kMaxCorrectionCp * kGrain,
                             kMaxCorrectionCp * kGrain));
}

}  // namespace chess
