// Tapered evaluation: material, piece-square tables, tempo and the positional
// terms of eval_terms.h, from the side to move's point of view.
#ifndef ENGINE_EVALUATE_H_
#define ENGINE_EVALUATE_H_

#include <algorithm>

#include "engine/eval_weights.h"
#include "engine/pawn_cache.h"
#include "engine/position.h"

namespace chess {

class Evaluator {
 public:
  explicit Evaluator(const EvalWeights& weights);

  int Evaluate(const Position& pos) const { return Evaluate(pos, nullptr); }
  // The same, with the pawn structure's part from `pawns` when it has it
  // (stored there when not); `pawns` holds this evaluator's weights only.
  int Evaluate(const Position& pos, PawnCache* pawns) const {
    int mg = 0, eg = 0, phase = 0;
    for (Bitboard b = pos.occupied(); b;) {
      const Square s = PopLowest(b);
      const Piece p = pos.piece_on(s);
      mg += table_[kMg][p][s];
      eg += table_[kEg][p][s];
      phase += phase_of_[p];  // summed here rather than by popcounts: one pass
    }
    phase = std::min(phase, kMaxPhase);  // as GamePhase
    const int sign = pos.side_to_move() == kWhite ? 1 : -1;
    mg += sign * tempo_[kMg];
    eg += sign * tempo_[kEg];
    if (has_terms_) {
      const PawnEntry pawn_entry = PawnTerms(pos, pawns);
      mg += pawn_entry.mg;
      eg += pawn_entry.eg;
      const std::array<int, kNumEvalTerms> counts =
          CountPieceTerms(pos, pawn_entry.structure);
      for (int t = 0; t < kNumEvalTerms; ++t) {
        mg += counts[t] * terms_[kMg][t];
        eg += counts[t] * terms_[kEg][t];
      }
    }
    return sign * ((mg * phase + eg * (kMaxPhase - phase)) / kMaxPhase);
  }

 private:
  // Value plus square bonus, positive for White's pieces and negative for
  // Black's.
  int table_[2][16][64] = {};
  int tempo_[2];
  int phase_of_[16] = {};
  // The pawn structure of `pos` and its terms weighed, from `cache` if there.
  PawnEntry PawnTerms(const Position& pos, PawnCache* cache) const;

  bool has_terms_ = false;  // skips counting terms that all weigh 0
  int terms_[2][kNumEvalTerms] = {};
};

// The same evaluation computed slowly as a dot product of feature counts and
// weights: the definition the fast one must match exactly, and the form the
// tuner differentiates.
int ReferenceEvaluate(const Position& pos, const EvalWeights& weights);

}  // namespace chess

#endif  // ENGINE_EVALUATE_H_
