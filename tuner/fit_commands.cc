// The tuner's commands that fit an evaluation to data: texel (the linear
// evaluation's weights) and net (a network).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/stopwatch.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "tuner/command_helpers.h"
#include "tuner/commands.h"
#include "tuner/network_run.h"
#include "tuner/network_training.h"
#include "tuner/training_data.h"
#include "tuner/tune.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The positions of the datasets at `paths`, each set streamed in chunk by
// chunk, so that only what the visitor keeps stays in memory. The first pass
// reports a text dataset's malformed lines (skipped) on `err`, as extract
// does.
PositionSource DatasetPositions(std::vector<std::string> paths,
                                std::ostream& err) {
  auto first_pass = std::make_shared<bool>(true);
  return [paths, first_pass, &err](const PositionVisitor& visit) {
    std::ostream* report = *first_pass ? &err : nullptr;
    *first_pass = false;
    for (const std::string& path : paths) {
      absl::Status s = ForEachTrainingChunk(
          path,
          [&](const TrainingSet& chunk) {
            for (const TrainingPosition& p : chunk.positions()) {
              if (absl::Status s = visit(p); !s.ok())
                return absl::Status(s.code(),
                                    absl::StrCat(path, ": ", s.message()));
            }
            return absl::OkStatus();
          },
          report);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  };
}

// The record of a texel run (configs/tuning/*.textproto).
TuningRun TexelRecord(const FitRequest& request, const TexelSettings& settings,
                      const TunedConfig& tuned, double seconds) {
  TuningRun run;
  for (absl::string_view d :
       absl::StrSplit(request.data, ',', absl::SkipEmpty()))
    run.add_datasets(std::string(d));
  run.set_date(
      absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone()));
  run.set_start_config(request.start);
  run.set_output_config(request.out);
  *run.mutable_settings() = settings;
  run.set_positions(int64_t(tuned.positions));
  run.set_k(tuned.texel.k);
  run.set_start_loss(tuned.texel.start_loss);
  run.set_final_loss(tuned.texel.final_loss);
  run.set_seconds(seconds);
  if (tuned.texel.player_offset)
    run.set_player_offset(*tuned.texel.player_offset);
  for (double loss : tuned.texel.epoch_loss) run.add_epoch_loss(loss);
  for (const auto& [k, loss] : tuned.texel.k_fit) {
    KFitPoint* point = run.add_k_fit();
    point->set_k(k);
    point->set_loss(loss);
  }
  return run;
}

}  // namespace

int TexelCommand(const FitRequest& request, const TexelSettings& settings,
                 std::ostream& out, std::ostream& err) {
  absl::StatusOr<FitPaths> paths = FitPathsOf(request, "texel");
  if (!paths.ok()) return Fail(paths.status(), err);
  const EngineConfig& start = paths->start;
  const PositionSource positions =
      DatasetPositions(DatasetPaths(request.data), err);
  Stopwatch t0;
  auto tuned = TuneEvaluation(positions, start, settings, &err);
  if (!tuned.ok()) return Fail(tuned.status(), err);
  const double seconds = t0.Seconds();
  tuned->config.set_name(fs::path(paths->out).stem().string());
  if (auto s = WriteTextProto(tuned->config, paths->out,
                              absl::StrCat("# Texel-tuned from ", request.start,
                                           " on ", request.data, "\n"));
      !s.ok()) {
    return Fail(s, err);
  }
  out << absl::StrFormat("positions %d  K %.4f  loss %.6f -> %.6f  (%.1f s)\n",
                         tuned->positions, tuned->texel.k,
                         tuned->texel.start_loss, tuned->texel.final_loss,
                         seconds);
  if (tuned->texel.player_offset) {
    out << absl::StrFormat(
        "player offset %+.1f cp (the extracted player's edge, from its side; "
        "not part of the evaluation)\n",
        *tuned->texel.player_offset);
  }
  out << DescribeChanges(start.eval(), tuned->config.eval());
  if (const std::string record = CommandLinePath(request.record);
      !record.empty()) {
    if (auto s = WriteTextProto(TexelRecord(request, settings, *tuned, seconds),
                                record, "# A tuner texel run\n");
        !s.ok())
      return Fail(s, err);
  }
  return kExitOk;
}

}  // namespace chess
