// The tuning report: one HTML page for a `tuner loop` output directory, a
// `tuner texel --record` file or a `tuner spsa` checkpoint (Elo per
// generation, loss and K, piece values and piece-square heat maps before and
// after, SPSA's theta trajectories). Self-contained like the match report.
#ifndef TUNER_REPORT_H_
#define TUNER_REPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct TuningReport {
  std::string kind;  // "loop", "texel" or "spsa"
  std::string html;
  std::string default_path;  // where `tuner report` writes it by default
};

// Reads PATH (a loop's output directory, a texel record or an SPSA state)
// and renders its report. Errors name the path and what was expected.
absl::StatusOr<TuningReport> MakeTuningReport(const std::string& path);
// InvalidArgument when writing the report of `input` to `out` would replace
// the input itself (the same file by any path) or `out` is a directory.
absl::Status CheckReportPath(const std::string& input, const std::string& out);

// The parts, for tests: each renders one kind from its records.
std::string LoopReportHtml(const LoopReport& report, const EngineConfig& start,
                           const EngineConfig& best);
std::string TexelReportHtml(const TuningRun& run, const EngineConfig& start,
                            const EngineConfig& learned);
std::string SpsaReportHtml(const SpsaState& state);

}  // namespace chess

#endif  // TUNER_REPORT_H_
