// Training sets on disk, written and read as streams so that memory holds one
// chunk however many positions a set has.
//
// Our format is a record file (common/record_io) of TrainingSet messages, each
// a chunk of at most kPositionsPerChunk positions. The sources and the counts
// of dropped positions ride in the chunks too; a reader concatenates the
// positions and sources and sums the counts. So a set can be appended to, and
// a crash while appending costs at most the chunk being written. The text
// formats other Texel tuners read (EPD with c9, "FEN [1.0]") are streamed line
// by line the same way.
#ifndef TUNER_TRAINING_DATA_H_
#define TUNER_TRAINING_DATA_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tuner/tuning.pb.h"

namespace chess {

inline constexpr int kPositionsPerChunk = 4096;

// How a training set is stored: our records (`native`: with the recorded
// search scores and why positions were dropped), a text format other tuners
// read: EPD, `FEN4 hmvc H; fmvn F; [ce C;] c9 "1-0";` (ce: the recorded score,
// from the side to move), `FEN [1.0]`, bullet's `FEN | score | result`
// (`text`: score in centipawns and result 1.0/0.5/0.0, both from White's
// side), or bullet's binary records (`bulletformat`, tuner/bullet_board.h).
// Positions without a score are not written in bullet's formats, and counted.
enum class DatasetFormat { kProto, kEpd, kFen, kBulletText, kBulletFormat };
// native (or data), text (or bullet), bulletformat, epd, fen.
absl::StatusOr<DatasetFormat> ParseDatasetFormat(absl::string_view name);
// A path's format by its extension: .epd, .fen and .txt (bullet's) are text,
// .bulletformat bullet's records, the rest ours.
DatasetFormat DatasetFormatOf(absl::string_view path);
// One line of a text format, with its newline.
std::string FormatTextPosition(const TrainingPosition& position,
                               DatasetFormat format);
std::string FormatTextDataset(const TrainingSet& set, DatasetFormat format);

// Where training positions go: a file (TrainingSetWriter) or one message in
// memory (TrainingSetSink).
class TrainingSink {
 public:
  virtual ~TrainingSink() = default;
  virtual absl::Status AddSource(absl::string_view source) = 0;
  virtual absl::Status Add(TrainingPosition position) = 0;
  // Counts positions (or input lines) that were not kept, by why.
  virtual void Drop(absl::string_view reason, int64_t count) = 0;
};

class TrainingSetSink : public TrainingSink {
 public:
  explicit TrainingSetSink(TrainingSet* set) : set_(set) {}
  absl::Status AddSource(absl::string_view source) override;
  absl::Status Add(TrainingPosition position) override;
  void Drop(absl::string_view reason, int64_t count) override;

 private:
  TrainingSet* set_;
};

class TrainingSetWriter : public TrainingSink {
 public:
  // Writes a new set beside `path`, renamed over it by Finish: a crash or an
  // error leaves the old file or the new one, never a part.
  static absl::StatusOr<std::unique_ptr<TrainingSetWriter>> Create(
      const std::string& path, DatasetFormat format);
  // Adds chunks at the end of a set in our format (a missing file is created).
  static absl::StatusOr<std::unique_ptr<TrainingSetWriter>> Append(
      const std::string& path);
  // Without Finish the new file is removed (an append keeps what it synced).
  ~TrainingSetWriter() override;

  absl::Status AddSource(absl::string_view source) override;
  absl::Status Add(TrainingPosition position) override;
  void Drop(absl::string_view reason, int64_t count) override;
  // Writes what is buffered, syncs, and (Create) renames the file into place.
  absl::Status Finish();

  // What this writer added: positions, and the drop counts by reason.
  int64_t positions() const { return positions_; }
  const TrainingSet& totals() const { return totals_; }

 private:
  class Output;
  TrainingSetWriter(std::unique_ptr<Output> output, DatasetFormat format);
  absl::Status Flush();

  std::unique_ptr<Output> output_;
  DatasetFormat format_;
  TrainingSet chunk_;    // positions, sources and drops not yet written
  std::string records_;  // bulletformat records not yet written
  TrainingSet totals_;   // sources and drops of everything added
  int64_t positions_ = 0;
};

// Calls `visit` with each chunk of the set at `path`, in order, holding one
// chunk at a time: our records, a set written whole by earlier versions, a
// text dataset (by the extension .epd, .fen or .txt, or by its content:
// malformed lines are counted as dropped and the first ones reported to
// `report`, which may be null), or bullet's records (by the extension
// .bulletformat, or by a content that is no other format: a record that is
// no position is InvalidArgument, naming it). A set of records whose last
// chunk (or bulletformat record) is torn (a writer stopped mid-chunk) is
// DataLoss, saying what was lost, after the whole chunks were visited; with
// `accept_torn`, the loss is only reported.
absl::Status ForEachTrainingChunk(
    const std::string& path,
    const std::function<absl::Status(const TrainingSet&)>& visit,
    std::ostream* report = nullptr, bool accept_torn = false);

// Adds a chunk's positions, sources and drop counts to `sink`.
absl::Status AddChunk(const TrainingSet& chunk, TrainingSink* sink);

// The whole set in memory (small sets and tests).
absl::StatusOr<TrainingSet> ReadTrainingSet(const std::string& path);
absl::Status WriteTrainingSet(const TrainingSet& set, const std::string& path,
                              DatasetFormat format = DatasetFormat::kProto);

// Parses a text dataset into `sink`: malformed lines are counted (dropped
// "malformed_line") and the first ones reported with their line numbers to
// `report`; `name` names the dataset there.
absl::Status ParseTextDataset(absl::string_view text, absl::string_view name,
                              TrainingSink* sink, std::ostream* report);

}  // namespace chess

#endif  // TUNER_TRAINING_DATA_H_
