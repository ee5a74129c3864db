// Training of the evaluation's network (engine/network.h): a residual on top
// of a config's linear evaluation, fitted by Adam to what a stronger engine's
// recorded scores say of each position. Float while training; the result is
// rounded to the engine's fixed point, and its loss is measured through the
// engine's own integer evaluation.
#ifndef TUNER_NETWORK_TRAINING_H_
#define TUNER_NETWORK_TRAINING_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine_config.pb.h"
#include "engine/evaluate.h"
#include "engine/network.h"
#include "engine/position.h"
#include "tuner/expected_score.h"
#include "tuner/tuning.pb.h"

namespace chess {

// Positions as the network sees them, from the side to move: its inputs, the
// linear evaluation it is added to, and the target it is fitted to.
class NetworkSamples {
 public:
  // `linear_cp`: the linear evaluation (side to move); `target`: the expected
  // score for the side to move, in [0, 1].
  void Add(const Position& pos, int linear_cp, float target);
  // A training position with its recorded score (White's side) and result:
  // target = w * result + (1 - w) * sigma(k * score), from the side to move;
  // without a score, the result alone. `linear`: none (0) when the network
  // is the whole evaluation.
  void Add(const Position& pos, const Evaluator* linear,
           const TrainingPosition& position, double result_weight, double k);

  size_t size() const { return linear_.size(); }
  const uint16_t* inputs(size_t i) const {
    return inputs_.data() + offsets_[i];
  }
  int input_count(size_t i) const { return int(offsets_[i + 1] - offsets_[i]); }
  int linear(size_t i) const { return linear_[i]; }
  float target(size_t i) const { return target_[i]; }
  // Whether position i has no castling right, so that its mirror (files a-h
  // swapped) is a position of the same value.
  bool mirrorable(size_t i) const { return mirrorable_[i]; }
  // How many samples are mirrorable.
  size_t mirrorable_count() const {
    return size_t(std::count(mirrorable_.begin(), mirrorable_.end(), true));
  }

  // The samples as bytes (SampleSpool's blocks), and back: appended to these.
  void AppendBytes(std::string* out) const;
  absl::Status AddBytes(absl::string_view bytes);
  void Clear() { *this = NetworkSamples(); }

 private:
  std::vector<uint32_t> offsets_{0};
  std::vector<uint16_t> inputs_;
  std::vector<int> linear_;
  std::vector<float> target_;
  std::vector<bool> mirrorable_;
};

// Training samples as blocks: in memory (one block), or a spool on disk read
// a block at a time, so that a set larger than memory trains.
class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual size_t blocks() const = 0;
  virtual size_t size() const = 0;  // samples in all blocks
  // Samples without castling rights (mirror_files trains them twice).
  virtual size_t mirrorable() const = 0;
  // Block `b`: in `scratch`, or the source's own memory.
  virtual absl::StatusOr<const NetworkSamples*> Block(
      size_t b, NetworkSamples* scratch) const = 0;
};

class InMemorySamples : public SampleSource {
 public:
  explicit InMemorySamples(const NetworkSamples& samples);
  size_t blocks() const override { return 1; }
  size_t size() const override { return samples_.size(); }
  size_t mirrorable() const override { return mirrorable_; }
  absl::StatusOr<const NetworkSamples*> Block(size_t,
                                              NetworkSamples*) const override {
    return &samples_;
  }

 private:
  const NetworkSamples& samples_;
  size_t mirrorable_ = 0;
};

// Blocks of samples in an unnamed temporary file (gone with the spool, or
// the process): what `tuner net` trains from when NetworkSettings
// stream_block_positions is set.
class SampleSpool : public SampleSource {
 public:
  // In directory `dir` (TMPDIR, else /tmp, when empty).
  static absl::StatusOr<std::unique_ptr<SampleSpool>> Create(
      const std::string& dir);
  ~SampleSpool() override;
  absl::Status Add(const NetworkSamples& block);

  size_t blocks() const override { return blocks_.size(); }
  size_t size() const override { return size_; }
  size_t mirrorable() const override { return mirrorable_; }
  absl::StatusOr<const NetworkSamples*> Block(
      size_t b, NetworkSamples* scratch) const override;

 private:
  struct Extent {
    uint64_t offset, bytes;
  };
  SampleSpool(int fd, std::string dir) : fd_(fd), dir_(std::move(dir)) {}
  int fd_;
  std::string dir_;
  std::vector<Extent> blocks_;
  uint64_t end_ = 0;
  size_t size_ = 0, mirrorable_ = 0;
};

// NetworkLoss over every block of `source`.
absl::StatusOr<double> SourceLoss(const SampleSource& source,
                                  const Network& network, double k);

// The float networks' output is in pawns.
inline constexpr double kCentipawnsPerOutput = 100;

// A network's weights as floats, an activation of 1.0 and an output of 1
// pawn: what the trainers fit.
struct FloatNetwork {
  int hidden = 0;
  std::vector<float> input_weights;  // [king bucket][input][hidden]
  std::vector<float> hidden_biases;  // [hidden]
  // [hidden], or [output bucket][2][hidden] (PERSPECTIVE)
  std::vector<float> output_weights;
  float output_bias = 0;  // one output bucket
  // PERSPECTIVE's buckets, as NetworkParams': the king bucket layout (empty:
  // none), and the output buckets with their biases (when more than one).
  std::vector<int> king_buckets;
  int output_buckets = 1;
  std::vector<float> output_biases;
};
// How many king buckets `net` has (1 without a layout).
int InputBuckets(const FloatNetwork& net);

// `net` in the engine's integers for `layout` (each weight clipped to what
// the layout allows; a PERSPECTIVE network in quantisation `q`), and the
// float network that rounds to `params`.
NetworkParams Rounded(const FloatNetwork& net, NetworkParams::Layout layout,
                      const Quantisation& q = kPawnQuantisation);
FloatNetwork Unrounded(const NetworkParams& params);
// The largest float output weight (an output of 1 a pawn) that rounds within
// kMaxPerspectiveOutputWeight in quantisation `q`.
float MaxPerspectiveOutputWeight(const Quantisation& q);

// Mean squared error of sigma(k (linear + network)) against the targets, with
// the network evaluated exactly as the engine does; an empty network measures
// the linear evaluation alone.
double NetworkLoss(const NetworkSamples& samples, const Network& network,
                   double k);

struct NetworkTraining {
  NetworkParams params;
  std::vector<double> epoch_loss;  // training loss of the float network
};

// Whether TrainNetwork (or TrainPerspectiveNetwork, as settings.layout()
// asks) can train with `settings` a network the engine can load; the error
// names the field.
absl::Status ValidateNetworkSettings(const NetworkSettings& settings);

// The learning rate `settings` ask for `progress` epochs into training (2.5:
// halfway through the third epoch).
double LearningRateAt(const NetworkSettings& settings, double progress);

// A data set a network is trained on, and the sources its chunks name.
struct DatasetProvenance {
  std::string path;
  std::vector<std::string> sources;
};

// The provenance lines of a network trained on `datasets` with `settings`
// from `start` (the start config's network when training goes on from it,
// else null: seeded random weights); `start_path` names the start config.
std::vector<std::string> NetworkProvenance(
    const std::vector<DatasetProvenance>& datasets,
    const NetworkSettings& settings, const std::string& start_path,
    const NetworkParams* start);

// Trains a network from a seeded random start (output weights zero, so that
// it starts as the linear evaluation), or from `initial` when given (one that
// Network::FromProto accepts; its hidden_size is the one trained, unless
// settings ask for more units: then the new ones are added, output weights
// zero, so training starts from `initial`'s evaluation);
// `on_epoch(epoch, params)` sees the rounded network after each epoch.
NetworkTraining TrainNetwork(
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch = {},
    const NetworkParams* initial = nullptr);

}  // namespace chess

#endif  // TUNER_NETWORK_TRAINING_H_
