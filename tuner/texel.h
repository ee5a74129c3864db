// Texel tuning of the evaluation's weights. The evaluation is linear in its
// weights, so each position is turned once into sparse coefficients
// (white-minus-black feature counts and its phase); an epoch then never calls
// the evaluator.
#ifndef TUNER_TEXEL_H_
#define TUNER_TEXEL_H_

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "engine/eval_weights.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct Coefficient {
  uint16_t feature;
  int16_t count;
};

class CoefficientSet {
 public:
  // `score_cp`: a search score from White's side to blend into the target, if
  // any. `player_sign`: +1 or -1 when a known player had White or Black
  // (TrainingPosition.player_sign), else 0.
  // `fixed_cp`: a part of the evaluation the fit holds (White's side): the
  // network's output, when the config has one.
  void Add(const Position& pos, float result,
           const std::array<int, 6>& phase_weight,
           std::optional<int> score_cp = std::nullopt, int player_sign = 0,
           int fixed_cp = 0);
  // Targets become w * result + (1 - w) * sigma(k * score) where a score is
  // known.
  void BlendTargets(double result_weight, double k);
  size_t size() const { return result_.size(); }
  // The positions in another order: entry i of the result is entry order[i].
  CoefficientSet Permuted(const std::vector<size_t>& order) const;
  // Entries of position i: [begin(i), end(i)).
  const Coefficient* begin(size_t i) const {
    return entries_.data() + offsets_[i];
  }
  const Coefficient* end(size_t i) const {
    return entries_.data() + offsets_[i + 1];
  }
  float mg_share(size_t i) const { return mg_share_[i]; }  // phase / 24
  float result(size_t i) const {
    return target_.empty() ? result_[i] : target_[i];
  }
  int player_sign(size_t i) const { return player_sign_[i]; }
  float fixed_cp(size_t i) const { return fixed_cp_[i]; }
  // Whether any position knows its player's colour: Texel then fits the
  // player's offset.
  bool has_player() const { return has_player_; }

 private:
  std::vector<uint32_t> offsets_{0};
  std::vector<Coefficient> entries_;
  std::vector<float> mg_share_;
  std::vector<float> result_;
  std::vector<float> score_;  // NaN: none
  std::vector<float> target_;
  std::vector<int8_t> player_sign_;
  std::vector<float> fixed_cp_;
  bool has_player_ = false;
};

// weights[phase * kNumFeatures + feature], real-valued while tuning. One more
// entry, at kPlayerOffset, when the set knows a player's colour: that
// player's edge in centipawns, added from its side to every position of its
// games. It is not part of the evaluation.
using Weights = std::vector<double>;
inline constexpr size_t kPlayerOffset = 2 * kNumFeatures;
Weights ToWeights(const EvalWeights& w);
EvalWeights ToEvalWeights(const Weights& w,
                          const std::array<int, 6>& phase_weight);

// The White-view evaluation of position i, linear in the weights (with the
// player's offset, if `w` has one).
double LinearEval(const CoefficientSet& set, size_t i, const Weights& w);

// Mean squared error of sigma(K q) against the results; with `gradient` (same
// layout as the weights) also its exact gradient. Positions [first, last) (all
// by default), split over `threads` in a fixed way, so results do not depend on
// scheduling.
double Loss(const CoefficientSet& set, const Weights& w, double k, int threads,
            Weights* gradient = nullptr, size_t first = 0,
            size_t last = SIZE_MAX);

// The K minimising the loss for fixed weights (golden-section search); each
// (K, loss) it evaluated goes to `samples` if given.
double FitK(const CoefficientSet& set, const Weights& w, int threads,
            std::vector<std::pair<double, double>>* samples = nullptr);

struct TexelResult {
  Weights weights;
  double k = 0;
  double start_loss = 0;
  double final_loss = 0;
  std::vector<double> epoch_loss;  // mean loss of each epoch
  // (K, loss) tried; empty: K given.
  std::vector<std::pair<double, double>> k_fit;
  // The player's fitted edge in centipawns, when the set knows its colour.
  std::optional<double> player_offset;
};

// Fits K on the results (unless given), blends the targets (see result_weight),
// then runs Adam on the loss; `on_epoch(epoch, loss)` reports progress.
TexelResult TuneTexel(CoefficientSet& set, const Weights& start,
                      const TexelSettings& s,
                      const std::function<void(int, double)>& on_epoch = {});

// Which weights the settings tune (a mask over the weight vector).
std::vector<bool> TunableMask(const TexelSettings& s);

}  // namespace chess

#endif  // TUNER_TEXEL_H_
