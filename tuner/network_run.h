// What `tuner net` and the network generations of `tuner loop` share: the
// samples of data sets as a network sees them, and a config with a network
// trained on them, in either layout, with its provenance.
#ifndef TUNER_NETWORK_RUN_H_
#define TUNER_NETWORK_RUN_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "tuner/network_training.h"
#include "tuner/tuning.pb.h"

namespace chess {

// The positions of the data sets at `paths` as a network trained with
// `settings` sees them: on top of `start`'s linear evaluation, or alone when
// settings.whole_evaluation(). Each set's sources go to `provenance`, the
// first malformed lines of a text set to `report` (either may be null). No
// valid position at all is an error.
absl::StatusOr<NetworkSamples> LoadNetworkSamples(
    const std::vector<std::string>& paths, const EngineConfig& start,
    const NetworkSettings& settings,
    std::vector<DatasetProvenance>* provenance = nullptr,
    std::ostream* report = nullptr);

// The same as a source of samples: in memory, or (NetworkSettings
// stream_block_positions) spooled to a temporary file in blocks of that many
// positions, so that a set larger than memory trains.
absl::StatusOr<std::unique_ptr<SampleSource>> LoadSampleSource(
    const std::vector<std::string>& paths, const EngineConfig& start,
    const NetworkSettings& settings,
    std::vector<DatasetProvenance>* provenance = nullptr,
    std::ostream* report = nullptr);

// The loss of `config`'s own static evaluation (linear, network, or both as
// it has them) on the data sets at `paths`, with settings' k and
// result_weight.
absl::StatusOr<double> EvaluationLoss(const EngineConfig& config,
                                      const std::vector<std::string>& paths,
                                      const NetworkSettings& settings);

// Whether `start` (read from `start_path`) has a network that `settings` can
// go on training; the error names both.
absl::Status CheckContinuable(const EngineConfig& start,
                              const std::string& start_path,
                              const NetworkSettings& settings);

struct TrainedConfig {
  EngineConfig config;  // `start` with the trained network
  NetworkTraining training;
};

// `start` with a network trained on `train` as `settings` ask (from `start`'s
// network when settings.continue_from_start(), which CheckContinuable must
// have accepted), its provenance naming `datasets` and `start_path`. An error
// when the rounded network cannot be evaluated exactly.
absl::StatusOr<TrainedConfig> TrainNetworkConfig(
    const EngineConfig& start, const std::string& start_path,
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::vector<DatasetProvenance>& datasets,
    const std::function<void(int, const NetworkParams&)>& on_epoch = {});
absl::StatusOr<TrainedConfig> TrainNetworkConfig(
    const EngineConfig& start, const std::string& start_path,
    const SampleSource& train, const NetworkSettings& settings,
    const std::vector<DatasetProvenance>& datasets,
    const std::function<void(int, const NetworkParams&)>& on_epoch = {});

}  // namespace chess

#endif  // TUNER_NETWORK_RUN_H_
