#include "tuner/network_run.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/eval_weights.h"
#include "engine/evaluate.h"
#include "engine/network.h"
#include "tuner/perspective_training.h"
#include "tuner/training_data.h"

namespace chess {

namespace {

// The samples of the data sets, handed to `full_block` each time `block`
// holds `block_size` of them (0: never) and once more at the end.
absl::Status ForEachSampleBlock(
    const std::vector<std::string>& paths, const EngineConfig& start,
    const NetworkSettings& settings, std::vector<DatasetProvenance>* provenance,
    std::ostream* report, size_t block_size, NetworkSamples& samples,
    const std::function<absl::Status()>& full_block) {
  absl::StatusOr<EvalWeights> weights = EvalWeights::FromProto(start.eval());
  if (!weights.ok()) return weights.status();
  const Evaluator linear(*weights);
  const Evaluator* on_top_of = settings.whole_evaluation() ? nullptr : &linear;
  size_t total = 0;
  for (const std::string& path : paths) {
    DatasetProvenance* sources = nullptr;
    if (provenance != nullptr) {
      provenance->push_back({path, {}});
      sources = &provenance->back();
    }
    absl::Status s = ForEachTrainingChunk(
        path,
        [&](const TrainingSet& chunk) -> absl::Status {
          for (const std::string& source : chunk.sources()) {
            if (sources != nullptr &&
                std::find(sources->sources.begin(), sources->sources.end(),
                          source) == sources->sources.end()) {
              sources->sources.push_back(source);
            }
          }
          for (const TrainingPosition& p : chunk.positions()) {
            absl::StatusOr<Position> pos = Position::FromFen(p.fen());
            if (!pos.ok()) {
              return absl::Status(
                  pos.status().code(),
                  absl::StrCat(path, ": ", pos.status().message()));
            }
            samples.Add(*pos, on_top_of, p, settings.result_weight(),
                        settings.k());
            ++total;
            if (samples.size() == block_size) {
              if (absl::Status s = full_block(); !s.ok()) return s;
            }
          }
          return absl::OkStatus();
        },
        report);
    if (!s.ok()) return s;
  }
  if (total == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        absl::StrJoin(paths, ","), ": no valid training position"));
  }
  return full_block();
}

// Samples in memory that own themselves.
class OwnedSamples : public SampleSource {
 public:
  explicit OwnedSamples(NetworkSamples samples)
      : samples_(std::move(samples)), view_(samples_) {}
  size_t blocks() const override { return 1; }
  size_t size() const override { return samples_.size(); }
  size_t mirrorable() const override { return view_.mirrorable(); }
  absl::StatusOr<const NetworkSamples*> Block(size_t,
                                              NetworkSamples*) const override {
    return &samples_;
  }

 private:
  NetworkSamples samples_;
  InMemorySamples view_;
};

}  // namespace

absl::StatusOr<NetworkSamples> LoadNetworkSamples(
    const std::vector<std::string>& paths, const EngineConfig& start,
    const NetworkSettings& settings, std::vector<DatasetProvenance>* provenance,
    std::ostream* report) {
  NetworkSamples samples;
  if (absl::Status s =
          ForEachSampleBlock(paths, start, settings, provenance, report, 0,
                             samples, [] { return absl::OkStatus(); });
      !s.ok())
    return s;
  return samples;
}

absl::StatusOr<std::unique_ptr<SampleSource>> LoadSampleSource(
    const std::vector<std::string>& paths, const EngineConfig& start,
    const NetworkSettings& settings, std::vector<DatasetProvenance>* provenance,
    std::ostream* report) {
  if (settings.stream_block_positions() == 0) {
    absl::StatusOr<NetworkSamples> samples =
        LoadNetworkSamples(paths, start, settings, provenance, report);
    if (!samples.ok()) return samples.status();
    return std::unique_ptr<SampleSource>(new OwnedSamples(*std::move(samples)));
  }
  absl::StatusOr<std::unique_ptr<SampleSpool>> spool = SampleSpool::Create("");
  if (!spool.ok()) return spool.status();
  NetworkSamples block;
  if (absl::Status s =
          ForEachSampleBlock(paths, start, settings, provenance, report,
                             size_t(settings.stream_block_positions()), block,
                             [&]() {
                               absl::Status added = (*spool)->Add(block);
                               block.Clear();
                               return added;
                             });
      !s.ok())
    return s;
  return std::unique_ptr<SampleSource>(std::move(*spool));
}

absl::StatusOr<double> EvaluationLoss(const EngineConfig& config,
                                      const std::vector<std::string>& paths,
                                      const NetworkSettings& settings) {
  absl::StatusOr<Network> network = Network::FromEval(config.eval());
  if (!network.ok()) return network.status();
  NetworkSettings as_config = settings;
  as_config.set_whole_evaluation(network->whole_evaluation());
  absl::StatusOr<NetworkSamples> samples =
      LoadNetworkSamples(paths, config, as_config);
  if (!samples.ok()) return samples.status();
  return NetworkLoss(*samples, *network, settings.k());
}

absl::Status CheckContinuable(const EngineConfig& start,
                              const std::string& start_path,
                              const NetworkSettings& settings) {
  if (!start.eval().has_network()) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings: continue_from_start, but ", start_path,
                     " has no eval.network to continue from"));
  }
  const NetworkParams& network = start.eval().network();
  if (settings.layout() == NetworkParams::PERSPECTIVE &&
      (network.layout() != settings.layout() ||
       network.hidden_size() != settings.hidden_size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "settings: layout PERSPECTIVE with hidden_size = ",
        settings.hidden_size(), ", but ", start_path,
        "'s eval.network is not a PERSPECTIVE network of that size"));
  }
  if (settings.layout() != network.layout()) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings: layout SIDE_TO_MOVE, but ", start_path,
                     "'s eval.network has another layout"));
  }
  if (network.hidden_size() > settings.hidden_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "settings: hidden_size = ", settings.hidden_size(), ", but ",
        start_path, "'s eval.network has hidden_size ", network.hidden_size(),
        " to continue from (a network can be widened, not narrowed)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<TrainedConfig> TrainNetworkConfig(
    const EngineConfig& start, const std::string& start_path,
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::vector<DatasetProvenance>& datasets,
    const std::function<void(int, const NetworkParams&)>& on_epoch) {
  return TrainNetworkConfig(start, start_path, InMemorySamples(train), settings,
                            datasets, on_epoch);
}

absl::StatusOr<TrainedConfig> TrainNetworkConfig(
    const EngineConfig& start, const std::string& start_path,
    const SampleSource& train, const NetworkSettings& settings,
    const std::vector<DatasetProvenance>& datasets,
    const std::function<void(int, const NetworkParams&)>& on_epoch) {
  const NetworkParams* initial =
      settings.continue_from_start() ? &start.eval().network() : nullptr;
  TrainedConfig trained;
  if (settings.layout() == NetworkParams::PERSPECTIVE) {
    absl::StatusOr<NetworkTraining> training =
        TrainPerspectiveNetwork(train, settings, on_epoch, initial);
    if (!training.ok()) return training.status();
    trained.training = *std::move(training);
  } else {
    // The side-to-move trainer holds its samples in memory.
    NetworkSamples scratch;
    absl::StatusOr<const NetworkSamples*> samples = train.Block(0, &scratch);
    if (!samples.ok()) return samples.status();
    trained.training = TrainNetwork(**samples, settings, on_epoch, initial);
  }
  if (absl::Status s = Network::FromProto(trained.training.params).status();
      !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the trained network cannot be evaluated exactly (", s.message(),
        "); a smaller learning_rate or fewer epochs keep its "
        "weights smaller"));
  }
  trained.config = start;
  NetworkParams* network = trained.config.mutable_eval()->mutable_network();
  *network = trained.training.params;
  network->set_whole_evaluation(settings.whole_evaluation());
  network->clear_provenance();
  for (std::string& line :
       NetworkProvenance(datasets, settings, start_path, initial)) {
    network->add_provenance(std::move(line));
  }
  return trained;
}

}  // namespace chess
