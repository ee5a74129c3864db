// What several of the tuner's commands share (tuner/commands.h).
#ifndef TUNER_COMMAND_HELPERS_H_
#define TUNER_COMMAND_HELPERS_H_

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arena/venue.h"
#include "common/files.h"
#include "common/textproto.h"
#include "engine/engine_config.pb.h"
#include "tuner/commands.h"
#include "tuner/training_data.h"

namespace chess {

// Prints the error; returns the exit code every program gives it.
int Fail(const absl::Status& status, std::ostream& err);

// The paths of a comma-separated list as typed on the command line.
std::vector<std::string> DatasetPaths(const std::string& list);

// InvalidArgument when `out` names one of `inputs` (given by `flag`): an
// output never replaces what the run reads.
absl::Status CheckOutputIsNoInput(const std::string& out,
                                  const std::vector<std::string>& inputs,
                                  absl::string_view flag);

// The format named `format`, else the one of `out`'s extension.
absl::StatusOr<DatasetFormat> OutputFormat(const std::string& format,
                                           const std::string& out);

// What texel and net both need: the --start config they fit from and the
// --out path they write, which names none of their inputs.
struct FitPaths {
  std::string out;
  EngineConfig start;
};
absl::StatusOr<FitPaths> FitPathsOf(const FitRequest& request,
                                    absl::string_view command);

// The config of `tuner spsa|loop|datagen CONFIG` read as `Config`, its
// directory (paths in it are relative to it), where its matches play, and
// its output directory (loop, datagen: the venue's run directory, where one
// copy of the arena serves the whole run).
template <typename Config>
struct ConfiguredRun {
  std::string path, dir;
  Config config;
  Venue venue;
  std::string output_dir;
};

// `venue` with its arena found and absolute; InvalidArgument naming the
// flag.
absl::StatusOr<Venue> VenueOf(Venue venue);

template <typename Config>
absl::StatusOr<ConfiguredRun<Config>> TuningRunFrom(
    const std::string& command, const TuningRunRequest& request) {
  if (request.operands.size() != 1)
    return absl::InvalidArgumentError(command + " needs one config file");
  ConfiguredRun<Config> run;
  run.path = CommandLinePath(request.operands[0]);
  run.dir = std::filesystem::path(run.path).parent_path().string();
  absl::StatusOr<Venue> venue = VenueOf(request.venue);
  if (!venue.ok()) return venue.status();
  run.venue = *std::move(venue);
  absl::StatusOr<Config> config = ReadTextProto<Config>(run.path);
  if (!config.ok()) return config.status();
  run.config = *std::move(config);
  return run;
}

// The same, for a command that writes into --output_dir.
template <typename Config>
absl::StatusOr<ConfiguredRun<Config>> OutputRunFrom(
    const std::string& command, const TuningRunRequest& request) {
  absl::StatusOr<ConfiguredRun<Config>> run =
      TuningRunFrom<Config>(command, request);
  if (!run.ok()) return run.status();
  run->output_dir = CommandLinePath(request.output_dir);
  if (run->output_dir.empty())
    return absl::InvalidArgumentError(command + " needs --output_dir");
  run->venue.run_dir = run->output_dir;
  return run;
}

}  // namespace chess

#endif  // TUNER_COMMAND_HELPERS_H_
