// The evaluation as a linear model: named features, each with a middle-game and
// an end-game weight. The engine evaluates with tables built from these
// weights; the tuner learns them, and UCI "setoption" reaches any of them by
// name.
#ifndef ENGINE_EVAL_WEIGHTS_H_
#define ENGINE_EVAL_WEIGHTS_H_

#include <array>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine_config.pb.h"
#include "engine/eval_terms.h"
#include "engine/position.h"

namespace chess {

// Feature layout. A later term (pawn structure, mobility, ...) appends its
// block here and to FeatureName; code that treats weights generically (tuner,
// setoption) needs no change.
inline constexpr int kValueFeatures = 0;  // 6: pawn..king
inline constexpr int kPstFeatures = 6;    // 6 x 64, by table index
inline constexpr int kTempoFeature = kPstFeatures + 384;  // 1
inline constexpr int kTermFeatures = kTempoFeature + 1;   // kNumEvalTerms
inline constexpr int kNumFeatures = kTermFeatures + kNumEvalTerms;

enum Phase { kMg = 0, kEg = 1 };

// Table index (0 = a8 ... 63 = h1, as printed from White's side) for a piece of
// `c` on `s`.
constexpr int PstIndex(Color c, Square s) { return c == kWhite ? Flip(s) : s; }

struct EvalWeights {
  // weight[phase][feature], centipawns.
  std::array<std::array<int, kNumFeatures>, 2> weight{};
  std::array<int, 6> phase_weight = {0, 1, 1, 2, 4, 0};

  static absl::StatusOr<EvalWeights> FromProto(const EvalParams& params);
  EvalParams ToProto() const;

  // "value.pawn", "pst.knight.e4" (the square from White's side), "tempo",
  // "mobility.knight" (the terms of engine/eval_terms.h).
  static std::string FeatureName(int feature);
  // Finds "value.knight.mg"-style names: a feature name plus ".mg" or ".eg".
  static bool FindWeight(absl::string_view name, int* feature, Phase* phase);
};

// Sparse white-minus-black feature counts of a position, for linear evaluation
// and tuning.
struct FeatureCount {
  int feature;
  int count;
};
std::vector<FeatureCount> CountFeatures(const Position& pos);

// Game phase in [0, kMaxPhase]: kMaxPhase with all pieces on the board (the
// middle-game weights in full), 0 with pawns and kings only (the end-game
// weights).
inline constexpr int kMaxPhase = 24;
int GamePhase(const Position& pos, const std::array<int, 6>& phase_weight);

}  // namespace chess

#endif  // ENGINE_EVAL_WEIGHTS_H_
