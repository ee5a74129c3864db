// The logistic model Texel and the network's training share: the expected
// score a centipawn score predicts, and the target a position is fitted to.
#ifndef TUNER_EXPECTED_SCORE_H_
#define TUNER_EXPECTED_SCORE_H_

#include <cmath>

namespace chess {

inline const double kLn10Over400 = std::log(10.0) / 400.0;

// sigma(k q) for a score q in centipawns: 1 / (1 + 10^(-k q / 400)).
inline double ExpectedScore(double k, double cp) {
  return 1.0 / (1.0 + std::exp(-k * kLn10Over400 * cp));
}

// w * result + (1 - w) * sigma(k * score): the game's result supplemented by
// a search's judgement of the position.
inline double BlendedTarget(double result, double score_cp,
                            double result_weight, double k) {
  return result_weight * result +
         (1 - result_weight) * ExpectedScore(k, score_cp);
}

}  // namespace chess

#endif  // TUNER_EXPECTED_SCORE_H_
