#include "engine/evaluate.h"

namespace chess {

Evaluator::Evaluator(const EvalWeights& weights)
    : tempo_{weights.weight[kMg][kTempoFeature],
             weights.weight[kEg][kTempoFeature]} {
  for (int phase : {kMg, kEg}) {
    for (int t = 0; t < kNumEvalTerms; ++t) {
      terms_[phase][t] = weights.weight[phase][kTermFeatures + t];
      has_terms_ = has_terms_ || terms_[phase][t] != 0;
    }
    for (Color c : {kWhite, kBlack}) {
      for (int type = kPawn; type <= kKing; ++type) {
        const Piece p = MakePiece(c, PieceType(type));
        phase_of_[p] = weights.phase_weight[type];
        for (Square s = 0; s < 64; ++s) {
          const int value =
              weights.weight[phase][kValueFeatures + type] +
              weights.weight[phase][kPstFeatures + type * 64 + PstIndex(c, s)];
          table_[phase][p][s] = c == kWhite ? value : -value;
        }
      }
    }
  }
}

PawnEntry Evaluator::PawnTerms(const Position& pos, PawnCache* cache) const {
  const Bitboard white = pos.pieces(kWhite, kPawn);
  const Bitboard black = pos.pieces(kBlack, kPawn);
  if (cache) {
    if (const PawnEntry* hit = cache->Probe(white, black)) return *hit;
  }
  PawnEntry entry;
  entry.white_pawns = white;
  entry.black_pawns = black;
  PawnTermCounts counts;
  entry.structure = AnalysePawns(white, black, counts);
  for (int i = 0; i < kNumPawnTerms; ++i) {
    entry.mg += counts[i] * terms_[kMg][kPawnTerms[i]];
    entry.eg += counts[i] * terms_[kEg][kPawnTerms[i]];
  }
  if (cache) cache->Store(entry);
  return entry;
}

int ReferenceEvaluate(const Position& pos, const EvalWeights& weights) {
  int mg = 0, eg = 0;
  for (const FeatureCount& fc : CountFeatures(pos)) {
    mg += fc.count * weights.weight[kMg][fc.feature];
    eg += fc.count * weights.weight[kEg][fc.feature];
  }
  const int phase = GamePhase(pos, weights.phase_weight);
  const int white_score = (mg * phase + eg * (kMaxPhase - phase)) / kMaxPhase;
  return pos.side_to_move() == kWhite ? white_score : -white_score;
}

}  // namespace chess
