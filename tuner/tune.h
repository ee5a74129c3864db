// From a training set and a starting config to a tuned config, and the readable
// diff.
#ifndef TUNER_TUNE_H_
#define TUNER_TUNE_H_

#include <functional>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "tuner/texel.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct TunedConfig {
  EngineConfig config;
  TexelResult texel;
  size_t positions = 0;
};

// Where Texel tuning's positions come from: calls the visitor with each
// position in order, so that a set on disk streams in chunk by chunk.
using PositionVisitor = std::function<absl::Status(const TrainingPosition&)>;
using PositionSource = std::function<absl::Status(const PositionVisitor&)>;

// Builds the coefficients of each position as it comes, shuffles them by the
// settings' seed, runs Texel tuning.
absl::StatusOr<TunedConfig> TuneEvaluation(const PositionSource& positions,
                                           const EngineConfig& start,
                                           const TexelSettings& settings,
                                           std::ostream* log);
// The same on a set in memory.
absl::StatusOr<TunedConfig> TuneEvaluation(const TrainingSet& data,
                                           const EngineConfig& start,
                                           const TexelSettings& settings,
                                           std::ostream* log);

// Piece values before and after, then the largest piece-square changes.
std::string DescribeChanges(const EvalParams& before, const EvalParams& after,
                            int top = 12);

}  // namespace chess

#endif  // TUNER_TUNE_H_
