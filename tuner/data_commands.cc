// The tuner's commands that make data sets: extract, convert and datagen.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "engine/config.h"
#include "tuner/command_helpers.h"
#include "tuner/commands.h"
#include "tuner/datagen.h"
#include "tuner/extract.h"
#include "tuner/training_data.h"

namespace chess {
namespace {

absl::StatusOr<ExtractOptions> ExtractOptionsOf(const ExtractRequest& request) {
  ExtractOptions options = request.options;
  options.qsearch_config = DefaultEngineConfig();
  if (!request.qsearch_config_path.empty()) {
    auto config =
        LoadEngineConfig(CommandLinePath(request.qsearch_config_path));
    if (!config.ok()) return config.status();
    options.qsearch_config = *config;
  }
  return options;
}

// Whether `format` can hold what the request asks to keep.
absl::Status CheckFormatKeeps(const ExtractRequest& request,
                              DatasetFormat format) {
  if (request.append && format != DatasetFormat::kProto) {
    return absl::InvalidArgumentError(
        "--append: only our format (data) can be appended to");
  }
  if (!request.options.player.empty() && format != DatasetFormat::kProto) {
    return absl::InvalidArgumentError(
        "--player: only our format (data) keeps the player's colour");
  }
  return absl::OkStatus();
}

}  // namespace

int ExtractCommand(const ExtractRequest& request, std::ostream& out,
                   std::ostream& err) {
  const std::string out_path = CommandLinePath(request.out);
  if (out_path.empty() || request.inputs.empty())
    return Fail(absl::InvalidArgumentError("extract needs --out and inputs"),
                err);
  const absl::StatusOr<ExtractOptions> options = ExtractOptionsOf(request);
  if (!options.ok()) return Fail(options.status(), err);
  const absl::StatusOr<DatasetFormat> format =
      OutputFormat(request.format, out_path);
  if (!format.ok()) return Fail(format.status(), err);
  std::vector<std::string> inputs;
  for (const std::string& input : request.inputs)
    inputs.push_back(CommandLinePath(input));
  if (absl::Status s = CheckOutputIsNoInput(out_path, inputs, "input"); !s.ok())
    return Fail(s, err);
  if (absl::Status s = CheckFormatKeeps(request, *format); !s.ok())
    return Fail(s, err);
  // Positions stream to the file in chunks: memory holds one chunk (and one
  // log), however large the set.
  auto writer = request.append ? TrainingSetWriter::Append(out_path)
                               : TrainingSetWriter::Create(out_path, *format);
  if (!writer.ok()) return Fail(writer.status(), err);
  for (const std::string& path : inputs) {
    absl::Status s = absl::EndsWith(path, ".log")
                         ? ExtractFromLog(path, *options, writer->get())
                         : ForEachTrainingChunk(
                               path,
                               [&](const TrainingSet& chunk) {
                                 return AddChunk(chunk, writer->get());
                               },
                               &err, request.accept_torn);
    if (!s.ok()) return Fail(s, err);
  }
  if ((*writer)->positions() == 0 && !request.append) {
    // Nothing to write: an existing OUT stays as it was.
    return Fail(absl::InvalidArgumentError(
                    absl::StrCat("no valid training position in the inputs; ",
                                 out_path, " not written")),
                err);
  }
  if (absl::Status s = (*writer)->Finish(); !s.ok()) return Fail(s, err);
  out << (request.append ? "added " : "kept ") << (*writer)->positions()
      << " positions\n";
  for (const auto& [reason, count] : (*writer)->totals().dropped())
    out << "dropped " << count << " " << reason << "\n";
  return kExitOk;
}

int ConvertCommand(const ExtractRequest& request, std::ostream& out,
                   std::ostream& err) {
  for (const std::string& input : request.inputs) {
    if (absl::EndsWith(input, ".log")) {
      return Fail(absl::InvalidArgumentError(
                      absl::StrCat(input,
                                   ": convert reads data sets; `tuner extract` "
                                   "reads game logs")),
                  err);
    }
  }
  if (request.out.empty() || request.inputs.empty())
    return Fail(absl::InvalidArgumentError("convert needs --out and inputs"),
                err);
  return ExtractCommand(request, out, err);
}

int DatagenCommand(const TuningRunRequest& request, std::ostream& out,
                   std::ostream& err) {
  const auto run = OutputRunFrom<DatagenConfig>("datagen", request);
  if (!run.ok()) return Fail(run.status(), err);
  std::string data = CommandLinePath(request.out);
  if (data.empty())
    data = (std::filesystem::path(run->output_dir) / "data.bin").string();
  if (absl::Status s = CheckOutputIsNoInput(data, {run->path}, "config");
      !s.ok())
    return Fail(s, err);
  DatagenOptions options;
  options.venue = run->venue;
  options.played_only = request.played_only;
  options.drop_damaged = request.drop_damaged;
  if (!request.format.empty()) {
    absl::StatusOr<DatasetFormat> format = OutputFormat(request.format, data);
    if (!format.ok()) return Fail(format.status(), err);
    options.format = *format;
  }
  auto report =
      RunDatagen(run->config, run->dir, run->output_dir, data, options);
  if (!report.ok()) return Fail(report.status(), err);
  out << FormatDatagenReport(*report);
  return kExitOk;
}

}  // namespace chess
