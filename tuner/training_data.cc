#include "tuner/training_data.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/files.h"
#include "common/record_io.h"
#include "engine/position.h"
#include "tuner/bullet_board.h"
#include "tuner/packed_position.h"

namespace chess {
namespace {

// Parses "[1.0]", "[0.5]", "[0]", "[1-0]", "1-0", "\"1/2-1/2\";" etc.
bool ParseResultToken(absl::string_view t, float* result) {
  t = absl::StripAsciiWhitespace(t);
  absl::ConsumePrefix(&t, "[");
  absl::ConsumeSuffix(&t, "]");
  absl::ConsumeSuffix(&t, ";");
  absl::ConsumePrefix(&t, "\"");
  absl::ConsumeSuffix(&t, "\"");
  if (t == "1-0") return *result = 1, true;
  if (t == "0-1") return *result = 0, true;
  if (t == "1/2-1/2") return *result = 0.5f, true;
  double v;
  if (absl::SimpleAtod(t, &v) && (v == 0 || v == 0.5 || v == 1))
    return *result = float(v), true;
  return false;
}

// A position and its result from one line of text, or why the line is not
// one.
// bullet's text format: "FEN | score | result", both from White's side.
absl::StatusOr<TrainingPosition> ParseBulletLine(absl::string_view line) {
  const std::vector<absl::string_view> parts = absl::StrSplit(line, '|');
  if (parts.size() != 3)
    return absl::InvalidArgumentError("expected FEN | score | result");
  int score;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(parts[1]), &score) ||
      std::abs(score) > 32000)
    return absl::InvalidArgumentError(
        "the score is not centipawns (an integer within +-32000)");
  float result;
  if (!ParseResultToken(parts[2], &result))
    return absl::InvalidArgumentError("the result is not 1.0, 0.5 or 0.0");
  absl::StatusOr<Position> pos =
      Position::FromFen(absl::StripAsciiWhitespace(parts[0]));
  if (!pos.ok()) return pos.status();
  TrainingPosition tp;
  tp.set_fen(pos->ToFen());
  tp.set_result(result);
  tp.set_score_cp(score);
  return tp;
}

absl::StatusOr<TrainingPosition> ParseTextLine(absl::string_view line) {
  if (absl::StrContains(line, '|')) return ParseBulletLine(line);
  std::vector<absl::string_view> fields =
      absl::StrSplit(line, ' ', absl::SkipWhitespace());
  if (fields.size() < 5)
    return absl::InvalidArgumentError("expected a FEN and a result");
  float result = -1;
  size_t fen_fields = 4;
  // "FEN [1.0]": the result is the last field. EPD: `c9 "1-0";` among the
  // opcodes. A bare number ends a line as its result only after a FEN of 4 or
  // 6 fields: in "... w KQkq - 0 1" the 1 is the move number.
  const bool bare_number =
      fields.back().find_first_not_of("0123456789.") == absl::string_view::npos;
  const bool result_last =
      !bare_number || fields.size() == 5 || fields.size() == 7;
  int n;
  if (result_last && ParseResultToken(fields.back(), &result)) {
    fen_fields = std::min<size_t>(fields.size() - 1, 6);
  } else {
    for (size_t i = 4; i + 1 < fields.size(); ++i) {
      if (fields[i] == "c9" && ParseResultToken(fields[i + 1], &result)) break;
    }
    // A whole FEN before the opcodes: its clocks count.
    if (fields.size() >= 8 && absl::SimpleAtoi(fields[4], &n) &&
        absl::SimpleAtoi(fields[5], &n))
      fen_fields = 6;
  }
  if (result < 0) {
    return absl::InvalidArgumentError(
        "no result ([1.0], [0.5], [0.0], or c9 \"1-0\";)");
  }
  if (fen_fields > 4 && !(fen_fields == 6 && absl::SimpleAtoi(fields[4], &n) &&
                          absl::SimpleAtoi(fields[5], &n))) {
    fen_fields = 4;
  }
  std::vector<std::string> fen(fields.begin(), fields.begin() + fen_fields);
  // EPD's clock and evaluation opcodes: "hmvc 3;", "fmvn 20;", "ce -35;".
  std::optional<int> ce;
  if (fen_fields == 4) {
    fen.push_back("0");
    fen.push_back("1");
    for (size_t i = 4; i + 1 < fields.size(); ++i) {
      absl::string_view value = fields[i + 1];
      if (!absl::ConsumeSuffix(&value, ";")) continue;
      int v;
      if (!absl::SimpleAtoi(value, &v)) continue;
      if (fields[i] == "hmvc") fen[4] = absl::StrCat(v);
      if (fields[i] == "fmvn") fen[5] = absl::StrCat(v);
      if (fields[i] == "ce") ce = v;
    }
  }
  absl::StatusOr<Position> pos = Position::FromFen(absl::StrJoin(fen, " "));
  if (!pos.ok()) return pos.status();
  TrainingPosition tp;
  tp.set_fen(pos->ToFen());
  tp.set_result(result);
  if (ce) tp.set_score_cp(pos->side_to_move() == kWhite ? *ce : -*ce);
  return tp;
}

// Feeds a text dataset's lines to a sink, counting and reporting the
// malformed ones.
class TextDatasetParser {
 public:
  TextDatasetParser(absl::string_view name, TrainingSink* sink,
                    std::ostream* report)
      : name_(name), sink_(sink), report_(report) {}

  absl::Status Line(absl::string_view line) {
    ++line_number_;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) return absl::OkStatus();
    absl::StatusOr<TrainingPosition> position = ParseTextLine(line);
    if (position.ok()) return sink_->Add(*std::move(position));
    ++malformed_;
    sink_->Drop("malformed_line", 1);
    if (report_ && reported_ < kReportedLines) {
      ++reported_;
      *report_ << name_ << ":" << line_number_ << ": "
               << position.status().message() << "\n";
    }
    return absl::OkStatus();
  }

  void Finish() {
    if (report_ && malformed_ > reported_) {
      *report_ << name_ << ": " << malformed_ - reported_
               << " more malformed lines\n";
    }
  }

 private:
  static constexpr int kReportedLines = 10;
  std::string name_;
  TrainingSink* sink_;
  std::ostream* report_;
  int64_t line_number_ = 0, malformed_ = 0, reported_ = 0;
};

// Collects positions into a chunk and hands it on when it is full.
class ChunkingSink : public TrainingSink {
 public:
  explicit ChunkingSink(
      const std::function<absl::Status(const TrainingSet&)>& visit)
      : visit_(visit) {}
  absl::Status AddSource(absl::string_view source) override {
    chunk_.add_sources(std::string(source));
    return absl::OkStatus();
  }
  absl::Status Add(TrainingPosition position) override {
    *chunk_.add_positions() = std::move(position);
    if (chunk_.positions_size() < kPositionsPerChunk) return absl::OkStatus();
    return Flush();
  }
  void Drop(absl::string_view reason, int64_t count) override {
    (*chunk_.mutable_dropped())[std::string(reason)] += count;
  }
  absl::Status Flush() {
    if (chunk_.ByteSizeLong() == 0) return absl::OkStatus();
    absl::Status status = visit_(chunk_);
    chunk_.Clear();
    return status;
  }

 private:
  const std::function<absl::Status(const TrainingSet&)>& visit_;
  TrainingSet chunk_;
};

absl::Status ForEachTextChunk(
    const std::string& path,
    const std::function<absl::Status(const TrainingSet&)>& visit,
    std::ostream* report) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return errno == ENOENT
               ? absl::NotFoundError(absl::StrCat(path, ": no such file"))
               : ErrnoError("cannot open", path);
  }
  ChunkingSink chunks(visit);
  if (absl::Status s = chunks.AddSource(path); !s.ok()) return s;
  TextDatasetParser parser(path, &chunks, report);
  std::string line;
  while (std::getline(in, line)) {
    if (absl::Status s = parser.Line(line); !s.ok()) return s;
  }
  if (in.bad()) return ErrnoError("cannot read", path);
  parser.Finish();
  return chunks.Flush();
}

// Text datasets have no control characters; a serialized message has them in
// its first bytes (field tags and lengths).
bool LooksLikeText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof(head));
  for (std::streamsize i = 0; i < in.gcount(); ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
  }
  return true;
}

// Sets written whole, as one TrainingSet message, before sets were streams.
absl::Status ForEachLegacyChunk(
    const std::string& path,
    const std::function<absl::Status(const TrainingSet&)>& visit) {
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) return data.status();
  TrainingSet set;
  if (!set.ParseFromString(*data)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a training set (tuner extract output)"));
  }
  return visit(set);
}

// bullet's records, a chunk of kPositionsPerChunk at a time.
absl::Status ForEachBulletFormatChunk(
    const std::string& path,
    const std::function<absl::Status(const TrainingSet&)>& visit,
    std::ostream* report, bool accept_torn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return errno == ENOENT
               ? absl::NotFoundError(absl::StrCat(path, ": no such file"))
               : ErrnoError("cannot open", path);
  }
  std::string block(size_t(kPositionsPerChunk) * kBulletBoardBytes, '\0');
  int64_t index = 0;
  bool first = true;
  for (;;) {
    in.read(block.data(), std::streamsize(block.size()));
    const size_t got = size_t(in.gcount());
    if (got == 0 && !first) break;
    TrainingSet chunk;
    if (first) chunk.add_sources(path);
    first = false;
    const size_t whole = got - got % kBulletBoardBytes;
    for (size_t at = 0; at < whole; at += kBulletBoardBytes, ++index) {
      absl::StatusOr<TrainingPosition> position = UnpackBulletBoard(
          absl::string_view(block).substr(at, kBulletBoardBytes));
      if (!position.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": record ", index, " (byte ", index * kBulletBoardBytes,
            ") is no bulletformat position: ", position.status().message(),
            "; is the file in another format?"));
      }
      *chunk.add_positions() = *std::move(position);
    }
    if (absl::Status s = visit(chunk); !s.ok()) return s;
    if (got % kBulletBoardBytes != 0) {
      const std::string loss = absl::StrCat(
          path, ": its last record is torn: ", got % kBulletBoardBytes,
          " bytes after its ", index, " whole records are no whole record");
      if (!accept_torn) {
        return absl::DataLossError(
            absl::StrCat(loss, ". `tuner convert --accept_torn --out=NEW ",
                         path, "` copies the whole records"));
      }
      if (report) *report << loss << "\n";
      break;
    }
    if (got < block.size()) break;
  }
  if (in.bad()) return ErrnoError("cannot read", path);
  return absl::OkStatus();
}

// Whether the file's first 32 bytes are a position (a torn tail is the
// reader's to report).
bool LooksLikeBulletFormat(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string record(kBulletBoardBytes, '\0');
  in.read(record.data(), kBulletBoardBytes);
  return in.gcount() == kBulletBoardBytes && UnpackBulletBoard(record).ok();
}

// Stores a chunk's positions in 32 bytes each when every one of them packs
// (so that their order stays), else leaves them messages.
void PackPositions(TrainingSet* chunk) {
  std::string packed;
  packed.reserve(chunk->positions_size() * kPackedPositionBytes);
  for (const TrainingPosition& p : chunk->positions()) {
    std::optional<std::string> bytes = PackPosition(p);
    if (!bytes) return;
    packed += *bytes;
  }
  chunk->clear_positions();
  chunk->set_packed_positions(std::move(packed));
}

// The packed positions of a chunk, after its messages, as messages.
absl::Status UnpackPositions(TrainingSet* chunk) {
  const std::string& packed = chunk->packed_positions();
  if (packed.size() % kPackedPositionBytes != 0)
    return absl::DataLossError("packed positions of a partial size");
  for (size_t at = 0; at < packed.size(); at += kPackedPositionBytes) {
    absl::StatusOr<TrainingPosition> p = UnpackPosition(
        absl::string_view(packed).substr(at, kPackedPositionBytes));
    if (!p.ok()) return p.status();
    *chunk->add_positions() = *std::move(p);
  }
  chunk->clear_packed_positions();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DatasetFormat> ParseDatasetFormat(absl::string_view name) {
  if (name == "native" || name == "data") return DatasetFormat::kProto;
  if (name == "text" || name == "bullet") return DatasetFormat::kBulletText;
  if (name == "bulletformat") return DatasetFormat::kBulletFormat;
  if (name == "epd") return DatasetFormat::kEpd;
  if (name == "fen") return DatasetFormat::kFen;
  return absl::InvalidArgumentError(
      absl::StrCat("--format=", name,
                   ": expected native (ours), text (bullet's FEN | score | "
                   "result), bulletformat (bullet's binary), epd or fen"));
}

DatasetFormat DatasetFormatOf(absl::string_view path) {
  if (absl::EndsWith(path, ".epd")) return DatasetFormat::kEpd;
  if (absl::EndsWith(path, ".fen")) return DatasetFormat::kFen;
  if (absl::EndsWith(path, ".txt")) return DatasetFormat::kBulletText;
  if (absl::EndsWith(path, ".bulletformat"))
    return DatasetFormat::kBulletFormat;
  return DatasetFormat::kProto;
}

std::string FormatTextPosition(const TrainingPosition& p,
                               DatasetFormat format) {
  if (format == DatasetFormat::kFen)
    return absl::StrFormat("%s [%.1f]\n", p.fen(), p.result());
  if (format == DatasetFormat::kBulletText)
    return absl::StrFormat("%s | %d | %.1f\n", p.fen(), p.score_cp(),
                           p.result());
  const std::vector<absl::string_view> f = absl::StrSplit(p.fen(), ' ');
  if (f.size() != 6) return "";  // ToFen wrote it: never
  std::string line = absl::StrCat(absl::StrJoin(f.begin(), f.begin() + 4, " "),
                                  " hmvc ", f[4], "; fmvn ", f[5], ";");
  if (p.has_score_cp())
    absl::StrAppend(&line, " ce ", f[1] == "w" ? p.score_cp() : -p.score_cp(),
                    ";");
  absl::StrAppend(&line, " c9 \"",
                  p.result() == 1   ? "1-0"
                  : p.result() == 0 ? "0-1"
                                    : "1/2-1/2",
                  "\";\n");
  return line;
}

std::string FormatTextDataset(const TrainingSet& set, DatasetFormat format) {
  std::string text;
  for (const TrainingPosition& p : set.positions())
    text += FormatTextPosition(p, format);
  return text;
}

absl::Status TrainingSetSink::AddSource(absl::string_view source) {
  set_->add_sources(std::string(source));
  return absl::OkStatus();
}

absl::Status TrainingSetSink::Add(TrainingPosition position) {
  *set_->add_positions() = std::move(position);
  return absl::OkStatus();
}

void TrainingSetSink::Drop(absl::string_view reason, int64_t count) {
  (*set_->mutable_dropped())[std::string(reason)] += count;
}

// A record file, or a text file written through a descriptor; either at a
// temporary path renamed into place by Commit, or appended to in place.
class TrainingSetWriter::Output {
 public:
  Output(std::string path, std::string temp_path)
      : path_(std::move(path)), temp_path_(std::move(temp_path)) {}
  ~Output() {
    if (text_fd_ >= 0) ::close(text_fd_);
    if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  }
  const std::string& writing_path() const {
    return temp_path_.empty() ? path_ : temp_path_;
  }

  absl::Status OpenRecords(std::optional<uint64_t> append_at) {
    absl::StatusOr<RecordWriter> writer =
        append_at ? RecordWriter::Append(writing_path(), *append_at)
                  : RecordWriter::Create(writing_path());
    if (!writer.ok()) return writer.status();
    records_.emplace(*std::move(writer));
    return absl::OkStatus();
  }
  absl::Status OpenText() {
    text_fd_ = ::open(writing_path().c_str(),
                      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (text_fd_ < 0) return ErrnoError("cannot create", writing_path());
    return absl::OkStatus();
  }

  absl::Status Write(absl::string_view bytes) {
    if (records_) return records_->WriteUnsynced(bytes);
    while (!bytes.empty()) {
      const ssize_t n = ::write(text_fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return ErrnoError("cannot write", writing_path());
      bytes.remove_prefix(size_t(n));
    }
    return absl::OkStatus();
  }

  absl::Status Commit() {
    if (records_) {
      if (absl::Status s = records_->Sync(); !s.ok()) return s;
    } else if (!SyncFd(text_fd_)) {
      return ErrnoError("fsync failed", writing_path());
    }
    if (temp_path_.empty()) return absl::OkStatus();
    if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
      return ErrnoError("cannot rename over it", path_);
    committed_ = true;
    SyncDirectoryOf(path_);
    return absl::OkStatus();
  }

 private:
  std::string path_, temp_path_;
  std::optional<RecordWriter> records_;
  int text_fd_ = -1;
  bool committed_ = false;
};

absl::StatusOr<std::unique_ptr<TrainingSetWriter>> TrainingSetWriter::Create(
    const std::string& path, DatasetFormat format) {
  // A special file (/dev/null, a pipe) is written in place, never renamed
  // over.
  auto output = std::make_unique<Output>(
      path, IsSpecialFile(path) ? std::string() : path + ".tmp");
  absl::Status opened = format == DatasetFormat::kProto
                            ? output->OpenRecords(std::nullopt)
                            : output->OpenText();
  if (!opened.ok()) return opened;
  return std::unique_ptr<TrainingSetWriter>(
      new TrainingSetWriter(std::move(output), format));
}

absl::StatusOr<std::unique_ptr<TrainingSetWriter>> TrainingSetWriter::Append(
    const std::string& path) {
  // Where the last whole chunk ends, reading one chunk at a time.
  std::optional<uint64_t> append_at;
  absl::StatusOr<RecordReader> reader = RecordReader::Open(path);
  if (reader.ok()) {
    std::string payload;
    for (;;) {
      absl::StatusOr<bool> more = reader->Next(&payload);
      if (!more.ok()) return more.status();
      if (!*more) break;
    }
    append_at = reader->valid_bytes();
  } else if (absl::IsInvalidArgument(reader.status())) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ": cannot append to it: not a training set in records (write a new "
        "one, or convert it with tuner extract --out=NEW ",
        path, ")"));
  } else if (!absl::IsNotFound(reader.status())) {
    return reader.status();
  }
  auto output = std::make_unique<Output>(path, "");
  if (absl::Status s = output->OpenRecords(append_at); !s.ok()) return s;
  return std::unique_ptr<TrainingSetWriter>(
      new TrainingSetWriter(std::move(output), DatasetFormat::kProto));
}

TrainingSetWriter::TrainingSetWriter(std::unique_ptr<Output> output,
                                     DatasetFormat format)
    : output_(std::move(output)), format_(format) {}

TrainingSetWriter::~TrainingSetWriter() = default;

absl::Status TrainingSetWriter::AddSource(absl::string_view source) {
  chunk_.add_sources(std::string(source));
  totals_.add_sources(std::string(source));
  return absl::OkStatus();
}

absl::Status TrainingSetWriter::Add(TrainingPosition position) {
  if (format_ == DatasetFormat::kBulletText && !position.has_score_cp()) {
    Drop("no_score_for_bullet_text", 1);
    return absl::OkStatus();
  }
  if (format_ == DatasetFormat::kBulletFormat) {
    absl::StatusOr<std::string> record = PackBulletBoard(position);
    if (!record.ok()) {
      Drop(position.has_score_cp() ? "not_a_bulletformat_position"
                                   : "no_score_for_bulletformat",
           1);
      return absl::OkStatus();
    }
    records_ += *record;
    ++positions_;
    if (records_.size() < kPositionsPerChunk * size_t(kBulletBoardBytes))
      return absl::OkStatus();
    return Flush();
  }
  *chunk_.add_positions() = std::move(position);
  ++positions_;
  if (chunk_.positions_size() < kPositionsPerChunk) return absl::OkStatus();
  return Flush();
}

void TrainingSetWriter::Drop(absl::string_view reason, int64_t count) {
  (*chunk_.mutable_dropped())[std::string(reason)] += count;
  (*totals_.mutable_dropped())[std::string(reason)] += count;
}

absl::Status TrainingSetWriter::Flush() {
  if (format_ == DatasetFormat::kBulletFormat) {
    chunk_.Clear();  // sources and drop counts have no place in the records
    std::string records = std::move(records_);
    records_.clear();
    return output_->Write(records);
  }
  if (format_ != DatasetFormat::kProto) {
    std::string text = FormatTextDataset(chunk_, format_);
    chunk_.Clear();
    return output_->Write(text);
  }
  if (chunk_.ByteSizeLong() == 0) return absl::OkStatus();
  PackPositions(&chunk_);
  std::string payload;
  if (!chunk_.SerializeToString(&payload)) {
    return absl::InternalError(
        absl::StrCat(output_->writing_path(), ": cannot serialize a chunk"));
  }
  chunk_.Clear();
  return output_->Write(payload);
}

absl::Status TrainingSetWriter::Finish() {
  if (absl::Status s = Flush(); !s.ok()) return s;
  return output_->Commit();
}

absl::Status ForEachTrainingChunk(
    const std::string& path,
    const std::function<absl::Status(const TrainingSet&)>& visit,
    std::ostream* report, bool accept_torn) {
  if (std::error_code error; std::filesystem::is_directory(path, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a data set"));
  }
  const DatasetFormat format = DatasetFormatOf(path);
  if (format == DatasetFormat::kBulletFormat)
    return ForEachBulletFormatChunk(path, visit, report, accept_torn);
  if (format != DatasetFormat::kProto)
    return ForEachTextChunk(path, visit, report);
  absl::StatusOr<RecordReader> reader = RecordReader::Open(path);
  if (absl::IsInvalidArgument(reader.status())) {
    if (LooksLikeText(path)) return ForEachTextChunk(path, visit, report);
    if (LooksLikeBulletFormat(path))
      return ForEachBulletFormatChunk(path, visit, report, accept_torn);
    return ForEachLegacyChunk(path, visit);
  }
  if (!reader.ok()) return reader.status();
  std::string payload;
  TrainingSet chunk;
  int64_t positions = 0;
  for (int64_t index = 0;; ++index) {
    absl::StatusOr<bool> more = reader->Next(&payload);
    if (!more.ok()) return more.status();
    if (!*more) {
      if (reader->torn_bytes() == 0) return absl::OkStatus();
      const std::string loss =
          absl::StrCat(path, ": its last chunk is torn: ", reader->torn_bytes(),
                       " bytes after its ", index, " whole chunks (", positions,
                       " positions) are no whole chunk, so up to ",
                       kPositionsPerChunk, " positions are lost");
      if (!accept_torn) {
        return absl::DataLossError(
            absl::StrCat(loss, ". `tuner extract --accept_torn --out=NEW ",
                         path, "` copies the whole chunks"));
      }
      if (report) *report << loss << "\n";
      return absl::OkStatus();
    }
    if (!chunk.ParseFromString(payload)) {
      return absl::DataLossError(
          absl::StrCat(path, ": chunk ", index, " is not a training set"));
    }
    if (absl::Status s = UnpackPositions(&chunk); !s.ok()) {
      return absl::DataLossError(
          absl::StrCat(path, ": chunk ", index, ": ", s.message()));
    }
    positions += chunk.positions_size();
    if (absl::Status s = visit(chunk); !s.ok()) return s;
  }
}

absl::Status AddChunk(const TrainingSet& chunk, TrainingSink* sink) {
  for (const std::string& source : chunk.sources()) {
    if (absl::Status s = sink->AddSource(source); !s.ok()) return s;
  }
  for (const TrainingPosition& position : chunk.positions()) {
    if (absl::Status s = sink->Add(position); !s.ok()) return s;
  }
  for (const auto& [reason, count] : chunk.dropped()) sink->Drop(reason, count);
  return absl::OkStatus();
}

absl::StatusOr<TrainingSet> ReadTrainingSet(const std::string& path) {
  TrainingSet set;
  TrainingSetSink sink(&set);
  absl::Status status = ForEachTrainingChunk(
      path, [&](const TrainingSet& chunk) { return AddChunk(chunk, &sink); });
  if (!status.ok()) return status;
  return set;
}

absl::Status WriteTrainingSet(const TrainingSet& set, const std::string& path,
                              DatasetFormat format) {
  absl::StatusOr<std::unique_ptr<TrainingSetWriter>> writer =
      TrainingSetWriter::Create(path, format);
  if (!writer.ok()) return writer.status();
  if (absl::Status s = AddChunk(set, writer->get()); !s.ok()) return s;
  return (*writer)->Finish();
}

absl::Status ParseTextDataset(absl::string_view text, absl::string_view name,
                              TrainingSink* sink, std::ostream* report) {
  TextDatasetParser parser(name, sink, report);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::Status s = parser.Line(line); !s.ok()) return s;
  }
  parser.Finish();
  return absl::OkStatus();
}

}  // namespace chess
