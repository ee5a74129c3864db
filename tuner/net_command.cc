// `tuner net`: a network trained on data sets, on top of a config's linear
// evaluation or as the whole evaluation, each epoch's losses reported.
#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/stopwatch.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "tuner/command_helpers.h"
#include "tuner/commands.h"
#include "tuner/network_run.h"
#include "tuner/network_training.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<NetworkSettings> SettingsOf(const FitRequest& request) {
  NetworkSettings settings;
  if (const std::string path = CommandLinePath(request.settings);
      !path.empty()) {
    auto read = ReadTextProto<NetworkSettings>(path);
    if (!read.ok()) return read.status();
    settings = *std::move(read);
  }
  if (absl::Status s = ValidateNetworkSettings(settings); !s.ok()) return s;
  return settings;
}

// The held-out sets (--valid), whose losses each epoch reports.
class HeldOut {
 public:
  static absl::StatusOr<HeldOut> Load(const FitRequest& request,
                                      const EngineConfig& start,
                                      const NetworkSettings& settings,
                                      std::ostream& err) {
    HeldOut held_out;
    held_out.k_ = settings.k();
    for (const std::string& path : DatasetPaths(request.valid)) {
      auto samples = LoadNetworkSamples({path}, start, settings, nullptr, &err);
      if (!samples.ok()) return samples.status();
      held_out.sets_.emplace_back(path, *std::move(samples));
    }
    return held_out;
  }

  std::vector<double> Losses(const Network& net) const {
    std::vector<double> losses;
    for (const auto& [path, samples] : sets_)
      losses.push_back(NetworkLoss(samples, net, k_));
    return losses;
  }

  // "  NAME LOSS" for each set.
  std::string Named(const std::vector<double>& losses) const {
    std::string line;
    for (size_t i = 0; i < sets_.size(); ++i) {
      absl::StrAppend(
          &line, absl::StrFormat("  %s %.6f",
                                 fs::path(sets_[i].first).filename().string(),
                                 losses[i]));
    }
    return line;
  }

  // The losses of each set before and after, one line each.
  std::string Compared(const std::vector<double>& before,
                       const Network& net) const {
    std::string text;
    const std::vector<double> after = Losses(net);
    for (size_t i = 0; i < sets_.size(); ++i) {
      absl::StrAppend(
          &text, absl::StrFormat("held out %s: %.6f -> %.6f\n", sets_[i].first,
                                 before[i], after[i]));
    }
    return text;
  }

 private:
  double k_ = 1;
  std::vector<std::pair<std::string, NetworkSamples>> sets_;
};

// Positions an epoch trains on: mirrored ones count, they cost as much.
size_t TrainedPerEpoch(const SampleSource& train,
                       const NetworkSettings& settings) {
  return train.size() + (settings.layout() == NetworkParams::PERSPECTIVE &&
                                 settings.mirror_files()
                             ? train.mirrorable()
                             : 0);
}

// The line on where training starts from: the linear evaluation (or a score
// of 0) and, when it continues, the start's network.
absl::Status ReportStart(const SampleSource& train, const EngineConfig& start,
                         const NetworkSettings& settings,
                         const HeldOut& held_out, double linear_loss,
                         const std::vector<double>& linear_held_out,
                         std::ostream& err) {
  err << absl::StrFormat(
             "%d positions%s; %s: train %.6f", train.size(),
             train.blocks() > 1
                 ? absl::StrCat(" in ", train.blocks(), " blocks on disk")
                 : "",
             settings.whole_evaluation() ? "a score of 0" : "linear evaluation",
             linear_loss)
      << held_out.Named(linear_held_out) << "\n";
  if (!settings.continue_from_start()) return absl::OkStatus();
  // Loaded configs hold networks the engine can evaluate.
  const Network start_net = *Network::FromProto(start.eval().network());
  const absl::StatusOr<double> loss =
      SourceLoss(train, start_net, settings.k());
  if (!loss.ok()) return loss.status();
  err << absl::StrFormat("start network: train %.6f", *loss)
      << held_out.Named(held_out.Losses(start_net)) << "\n";
  return absl::OkStatus();
}

}  // namespace

int NetCommand(const FitRequest& request, std::ostream& out,
               std::ostream& err) {
  absl::StatusOr<FitPaths> paths = FitPathsOf(request, "net");
  if (!paths.ok()) return Fail(paths.status(), err);
  const std::string& out_path = paths->out;
  const EngineConfig& start = paths->start;
  absl::StatusOr<NetworkSettings> settings = SettingsOf(request);
  if (!settings.ok()) return Fail(settings.status(), err);
  if (settings->continue_from_start()) {
    if (absl::Status s = CheckContinuable(start, request.start, *settings);
        !s.ok())
      return Fail(s, err);
  }
  std::vector<DatasetProvenance> datasets;
  // In memory, or spooled to disk a block at a time (stream_block_positions).
  auto source = LoadSampleSource(DatasetPaths(request.data), start, *settings,
                                 &datasets, &err);
  if (!source.ok()) return Fail(source.status(), err);
  const SampleSource& train = **source;
  absl::StatusOr<HeldOut> held_out =
      HeldOut::Load(request, start, *settings, err);
  if (!held_out.ok()) return Fail(held_out.status(), err);
  // The linear evaluation's losses, the baseline of every line printed.
  const Network none;
  const absl::StatusOr<double> linear_loss =
      SourceLoss(train, none, settings->k());
  if (!linear_loss.ok()) return Fail(linear_loss.status(), err);
  const std::vector<double> linear_held_out = held_out->Losses(none);
  if (absl::Status s = ReportStart(train, start, *settings, *held_out,
                                   *linear_loss, linear_held_out, err);
      !s.ok())
    return Fail(s, err);
  const size_t per_epoch = TrainedPerEpoch(train, *settings);
  Stopwatch t0;
  absl::StatusOr<TrainedConfig> trained = TrainNetworkConfig(
      start, request.start, train, *settings, datasets,
      [&](int epoch, const NetworkParams& params) {
        err << absl::StrFormat(
            "epoch %d (%.0f s, %.0f positions/s%s)", epoch + 1, t0.Seconds(),
            per_epoch * (epoch + 1) / std::max(1e-9, t0.Seconds()),
            settings->mirror_files() ? ", mirrors included" : "");
        // Weights grown too large for the engine's 16-bit sums: said, and
        // refused at the end.
        absl::StatusOr<Network> net = Network::FromProto(params);
        err << (net.ok() ? held_out->Named(held_out->Losses(*net))
                         : absl::StrCat("  ", net.status().message()))
            << "\n";
      });
  if (!trained.ok()) return Fail(trained.status(), err);
  const Network net = *Network::FromEval(trained->config.eval());
  EngineConfig& config = trained->config;
  config.set_name(fs::path(out_path).stem().string());
  if (auto s = WriteTextProto(
          config, out_path,
          absl::StrCat(
              "# A network trained by `tuner net` ",
              settings->whole_evaluation() ? "as the whole evaluation, in "
                                           : "on top of ",
              request.start, "'s evaluation, on ", request.data, "\n"));
      !s.ok()) {
    return Fail(s, err);
  }
  const absl::StatusOr<double> final_loss =
      SourceLoss(train, net, settings->k());
  if (!final_loss.ok()) return Fail(final_loss.status(), err);
  out << absl::StrFormat("positions %d  hidden %d  loss %.6f -> %.6f  (%.1f s)",
                         train.size(), net.hidden_size(), *linear_loss,
                         *final_loss, t0.Seconds())
      << "\n"
      << held_out->Compared(linear_held_out, net);
  return kExitOk;
}

}  // namespace chess
