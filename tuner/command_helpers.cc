#include "tuner/command_helpers.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "engine/config.h"
#include "tuner/selfplay.h"

namespace chess {

int Fail(const absl::Status& status, std::ostream& err) {
  err << status.message() << "\n";
  return ExitCodeFor(status);
}

std::vector<std::string> DatasetPaths(const std::string& list) {
  std::vector<std::string> paths;
  for (absl::string_view d : absl::StrSplit(list, ',', absl::SkipEmpty()))
    paths.push_back(CommandLinePath(std::string(d)));
  return paths;
}

absl::Status CheckOutputIsNoInput(const std::string& out,
                                  const std::vector<std::string>& inputs,
                                  absl::string_view flag) {
  for (const std::string& input : inputs) {
    if (SameFile(out, input)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out=", out, " is also an input (", flag, "=", input,
                       "); name another file for the output"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<DatasetFormat> OutputFormat(const std::string& format,
                                           const std::string& out) {
  if (!format.empty()) return ParseDatasetFormat(format);
  return DatasetFormatOf(out);
}

absl::StatusOr<FitPaths> FitPathsOf(const FitRequest& request,
                                    absl::string_view command) {
  FitPaths paths;
  paths.out = CommandLinePath(request.out);
  const std::string start = CommandLinePath(request.start);
  if (paths.out.empty() || start.empty() || request.data.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(command, " needs --data, --start and --out"));
  }
  const std::pair<absl::string_view, std::vector<std::string>> inputs[] = {
      {"--data", DatasetPaths(request.data)},
      {"--valid", DatasetPaths(request.valid)},
      {"--start", {start}},
      {"--settings", DatasetPaths(request.settings)},
      {"--record", DatasetPaths(request.record)}};
  for (const auto& [flag, paths_of_flag] : inputs) {
    if (absl::Status s = CheckOutputIsNoInput(paths.out, paths_of_flag, flag);
        !s.ok())
      return s;
  }
  absl::StatusOr<EngineConfig> config = LoadEngineConfig(start);
  if (!config.ok()) return config.status();
  paths.start = *std::move(config);
  return paths;
}

absl::StatusOr<Venue> VenueOf(Venue venue) {
  venue.arena = CommandLinePath(venue.arena);
  if (venue.arena.empty()) venue.arena = DefaultArenaBinary();
  if (venue.arena.find('/') != std::string::npos)
    venue.arena = std::filesystem::absolute(venue.arena).string();
  if (absl::Status s = ValidateVenue(venue); !s.ok())
    return absl::InvalidArgumentError(absl::StrCat("--", s.message()));
  return venue;
}

}  // namespace chess
