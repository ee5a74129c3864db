// Training positions: sampled from arena match logs (resolved to quiet
// positions by following the quiescence search's principal variation, labelled
// with the game's result), or read from the common text formats ("FEN [1.0]",
// EPD with c9 "1-0";).
#ifndef TUNER_EXTRACT_H_
#define TUNER_EXTRACT_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct ExtractOptions {
  int skip_plies = 0;    // after the book plies, which are always skipped
  int max_per_game = 0;  // 0: every position
  uint64_t seed = 1;     // for sampling when max_per_game > 0
  EngineConfig qsearch_config;  // whose quiescence search resolves positions
};

// Appends the positions of every finished game of the log; counts what was
// dropped and why in out->dropped.
absl::Status ExtractFromLog(const std::string& log_path,
                            const ExtractOptions& options, TrainingSet* out);

// Appends the positions of a text dataset. Malformed lines are counted (dropped
// "malformed_line") and the first ones reported with their line numbers to
// `report`; only an unreadable file is an error.
absl::Status ReadTextDataset(const std::string& path, TrainingSet* out,
                             std::ostream* report);
// The same on a dataset's text, `name` naming it in reports.
void ParseTextDataset(absl::string_view text, absl::string_view name,
                      TrainingSet* out, std::ostream* report);

// How a training set is stored: our protobuf (with the recorded search scores
// and why positions were dropped), or a text format other Texel tuners read:
// EPD, `FEN4 hmvc H; fmvn F; [ce C;] c9 "1-0";` (ce: the recorded score, from
// the side to move), or `FEN [1.0]`.
enum class DatasetFormat { kProto, kEpd, kFen };
absl::StatusOr<DatasetFormat> ParseDatasetFormat(absl::string_view name);
// A path's format by its extension: .epd and .fen are text, the rest ours.
DatasetFormat DatasetFormatOf(absl::string_view path);
std::string FormatTextDataset(const TrainingSet& set, DatasetFormat format);

absl::Status WriteTrainingSet(const TrainingSet& set, const std::string& path,
                              DatasetFormat format = DatasetFormat::kProto);
// Any format, told by the extension (text datasets: see ReadTextDataset).
absl::StatusOr<TrainingSet> ReadTrainingSet(const std::string& path);

}  // namespace chess

#endif  // TUNER_EXTRACT_H_
