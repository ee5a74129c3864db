// Training of the PERSPECTIVE network (engine/network.h): bullet's reference
// architecture, (768 -> N) x 2 -> 1 with squared clipped ReLU, the same input
// weights seen from the side to move and from the other side. Float weights,
// AdamW on batches split over threads, every weight kept within +-1.98 so
// that the rounded network fits the engine's 16-bit sums and products.
#ifndef TUNER_PERSPECTIVE_TRAINING_H_
#define TUNER_PERSPECTIVE_TRAINING_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "tuner/network_training.h"
#include "tuner/tuning.pb.h"

namespace chess {

// Float weights are kept within this: rounded, 32 inputs and a bias stay
// within 16 bits, and an output weight within kMaxPerspectiveOutputWeight.
inline constexpr float kMaxPerspectiveWeight = 1.98f;

// What an epoch trains on before it is shuffled: 2i for sample i, and 2i + 1
// for its mirror when settings.mirror_files() and the sample is mirrorable.
std::vector<size_t> PerspectiveTrainingItems(const NetworkSamples& samples,
                                             const NetworkSettings& settings);
// How many items that is, counted without listing them.
size_t PerspectiveTrainingItemCount(const NetworkSamples& samples,
                                    const NetworkSettings& settings);

// Trains a PERSPECTIVE network of settings.hidden_size() units on `train`
// (each sample's linear evaluation added to its output, 0 for a whole
// evaluation) from seeded random weights, or from `initial` (a PERSPECTIVE
// network of the same size); `on_epoch(epoch, params)` sees the rounded
// network after each epoch. The same seed and threads give the same network.
NetworkTraining TrainPerspectiveNetwork(
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch = {},
    const NetworkParams* initial = nullptr);
// The same from blocks of samples (a spool: a set larger than memory), read
// in a shuffled order each epoch, the next while the current one trains; an
// error when a block cannot be read.
absl::StatusOr<NetworkTraining> TrainPerspectiveNetwork(
    const SampleSource& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch = {},
    const NetworkParams* initial = nullptr);

}  // namespace chess

#endif  // TUNER_PERSPECTIVE_TRAINING_H_
