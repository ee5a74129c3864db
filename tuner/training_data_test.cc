#include "tuner/training_data.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "common/record_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TrainingPosition MakePosition(int i) {
  TrainingPosition p;
  // Legal and all different: the white king walks, the clocks count.
  p.set_fen(absl::StrCat("4k3/8/8/8/8/8/8/", "K7 w - - ", i % 100, " ", i + 1));
  p.set_result(i % 3 == 0 ? 1.0f : i % 3 == 1 ? 0.5f : 0.0f);
  if (i % 2) p.set_score_cp(i - 500);
  return p;
}

int CountChunks(const std::string& path) {
  int chunks = 0;
  EXPECT_TRUE(ForEachTrainingChunk(path, [&](const TrainingSet& chunk) {
                ++chunks;
                EXPECT_LE(chunk.positions_size(), kPositionsPerChunk);
                return absl::OkStatus();
              }).ok());
  return chunks;
}

absl::StatusOr<TrainingSet> ReadText(const std::string& path,
                                     std::ostream* report) {
  TrainingSet set;
  TrainingSetSink sink(&set);
  absl::Status s = ForEachTrainingChunk(
      path, [&](const TrainingSet& chunk) { return AddChunk(chunk, &sink); },
      report);
  if (!s.ok()) return s;
  return set;
}

TEST(TrainingDataTest, WrittenInChunksReadBackTheSame) {
  const std::string path = ::testing::TempDir() + "/chunks.data";
  const int n = 2 * kPositionsPerChunk + 17;
  auto writer = TrainingSetWriter::Create(path, DatasetFormat::kProto);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddSource("a.log").ok());
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE((*writer)->Add(MakePosition(i)).ok());
    if (i % 1000 == 0) (*writer)->Drop("in_check", 2);
  }
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ((*writer)->positions(), n);

  EXPECT_EQ(CountChunks(path), 3);
  absl::StatusOr<TrainingSet> set = ReadTrainingSet(path);
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->positions_size(), n);
  for (int i = 0; i < n; i += 997) {
    EXPECT_EQ(set->positions(i).SerializeAsString(),
              MakePosition(i).SerializeAsString());
  }
  EXPECT_THAT(set->sources(), ::testing::ElementsAre("a.log"));
  EXPECT_EQ(set->dropped().at("in_check"), 2 * (1 + (n - 1) / 1000));
  // Stored packed: 32 bytes a position and a little for the chunks.
  EXPECT_LT(std::filesystem::file_size(path), size_t(34) * n);
}

// A chunk with a position the packed form cannot hold keeps them all as
// messages, in order.
TEST(TrainingDataTest, AChunkThatCannotBePackedStaysInOrder) {
  const std::string path = ::testing::TempDir() + "/unpacked.data";
  TrainingSet set;
  for (int i = 0; i < 10; ++i) *set.add_positions() = MakePosition(i);
  set.mutable_positions(4)->set_player_sign(1);
  ASSERT_TRUE(WriteTrainingSet(set, path).ok());
  absl::StatusOr<TrainingSet> read = ReadTrainingSet(path);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->positions_size(), 10);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(read->positions(i).SerializeAsString(),
              set.positions(i).SerializeAsString());
}

// `tuner extract --out=/dev/null` (a dry run) writes into the device and
// leaves it one, in both formats.
TEST(TrainingDataTest, DevNullStaysADevice) {
  for (DatasetFormat format : {DatasetFormat::kProto, DatasetFormat::kEpd}) {
    auto writer = TrainingSetWriter::Create("/dev/null", format);
    ASSERT_TRUE(writer.ok()) << writer.status();
    ASSERT_TRUE((*writer)->Add(MakePosition(1)).ok());
    const absl::Status finished = (*writer)->Finish();
    EXPECT_TRUE(finished.ok()) << finished;
    EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  }
}

TEST(TrainingDataTest, AppendAddsChunksAndSumsTheDropCounts) {
  const std::string path = ::testing::TempDir() + "/append.data";
  TrainingSet first;
  first.add_sources("one.log");
  for (int i = 0; i < 10; ++i) *first.add_positions() = MakePosition(i);
  (*first.mutable_dropped())["mate_score"] = 3;
  ASSERT_TRUE(WriteTrainingSet(first, path).ok());

  auto writer = TrainingSetWriter::Append(path);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddSource("two.log").ok());
  for (int i = 10; i < 15; ++i)
    ASSERT_TRUE((*writer)->Add(MakePosition(i)).ok());
  (*writer)->Drop("mate_score", 4);
  ASSERT_TRUE((*writer)->Finish().ok());

  absl::StatusOr<TrainingSet> set = ReadTrainingSet(path);
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->positions_size(), 15);
  EXPECT_EQ(set->positions(12).fen(), MakePosition(12).fen());
  EXPECT_THAT(set->sources(), ::testing::ElementsAre("one.log", "two.log"));
  EXPECT_EQ(set->dropped().at("mate_score"), 7);

  // A missing file is created; a text file cannot be appended to.
  const std::string fresh = ::testing::TempDir() + "/append-new.data";
  std::filesystem::remove(fresh);
  auto created = TrainingSetWriter::Append(fresh);
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_TRUE((*created)->Add(MakePosition(1)).ok());
  ASSERT_TRUE((*created)->Finish().ok());
  EXPECT_EQ(ReadTrainingSet(fresh)->positions_size(), 1);
  const std::string text = ::testing::TempDir() + "/not-records.data";
  std::ofstream(text) << "4k3/8/8/8/8/8/8/K7 w - - [1.0]\n";
  auto refused = TrainingSetWriter::Append(text);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("cannot append"));
}

// A crash while appending leaves a torn last chunk: the reader ends before
// it, and the next append cuts it off and goes on.
TEST(TrainingDataTest, TornChunkIsCutOffAndAppendingGoesOn) {
  const std::string path = ::testing::TempDir() + "/torn.data";
  TrainingSet set;
  for (int i = 0; i < 5; ++i) *set.add_positions() = MakePosition(i);
  ASSERT_TRUE(WriteTrainingSet(set, path).ok());
  const auto whole = std::filesystem::file_size(path);
  std::ofstream(path, std::ios::app | std::ios::binary)
      << std::string("\x40\x00\x00\x00\x12\x34", 6);
  // Read, the loss is an error naming what was lost and the way back...
  const absl::StatusOr<TrainingSet> torn = ReadTrainingSet(path);
  ASSERT_FALSE(torn.ok());
  EXPECT_TRUE(absl::IsDataLoss(torn.status())) << torn.status();
  EXPECT_THAT(std::string(torn.status().message()),
              ::testing::HasSubstr("6 bytes after its 1 whole chunks (5 "
                                   "positions)"));
  EXPECT_THAT(std::string(torn.status().message()),
              ::testing::HasSubstr("--accept_torn"));
  // ...which reads the whole chunks and reports the loss.
  int64_t read = 0;
  std::ostringstream report;
  ASSERT_TRUE(ForEachTrainingChunk(
                  path,
                  [&](const TrainingSet& chunk) {
                    read += chunk.positions_size();
                    return absl::OkStatus();
                  },
                  &report, /*accept_torn=*/true)
                  .ok());
  EXPECT_EQ(read, 5);
  EXPECT_THAT(report.str(), ::testing::HasSubstr("torn"));

  // Appending cuts the torn chunk off and goes on after the whole ones.
  auto writer = TrainingSetWriter::Append(path);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->Add(MakePosition(5)).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_GT(std::filesystem::file_size(path), whole);
  absl::StatusOr<TrainingSet> again = ReadTrainingSet(path);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->positions_size(), 6);
}

TEST(TrainingDataTest, DamageInsideIsDataLossNamingTheOffset) {
  const std::string path = ::testing::TempDir() + "/damaged.data";
  TrainingSet set;
  for (int i = 0; i < kPositionsPerChunk + 1; ++i)
    *set.add_positions() = MakePosition(i);
  ASSERT_TRUE(WriteTrainingSet(set, path).ok());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\xff');
  }
  absl::StatusOr<TrainingSet> read = ReadTrainingSet(path);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::IsDataLoss(read.status())) << read.status();
  EXPECT_THAT(read.status().message(), HasSubstr("damaged at byte"));
}

// Until Finish the old file stays; a writer dropped without Finish leaves it
// and no temporary file.
TEST(TrainingDataTest, ReplacingIsAtomic) {
  const std::string path = ::testing::TempDir() + "/atomic.data";
  TrainingSet old_set;
  *old_set.add_positions() = MakePosition(0);
  ASSERT_TRUE(WriteTrainingSet(old_set, path).ok());
  {
    auto writer = TrainingSetWriter::Create(path, DatasetFormat::kProto);
    ASSERT_TRUE(writer.ok());
    for (int i = 0; i < kPositionsPerChunk + 5; ++i)
      ASSERT_TRUE((*writer)->Add(MakePosition(i)).ok());
    EXPECT_EQ(ReadTrainingSet(path)->positions_size(), 1);
  }
  EXPECT_EQ(ReadTrainingSet(path)->positions_size(), 1);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// Sets written as one message by earlier versions are still read.
TEST(TrainingDataTest, ReadsASetWrittenWhole) {
  const std::string path = ::testing::TempDir() + "/legacy.bin";
  TrainingSet set;
  set.add_sources("old.log");
  *set.add_positions() = MakePosition(7);
  std::ofstream(path, std::ios::binary) << set.SerializeAsString();
  absl::StatusOr<TrainingSet> read = ReadTrainingSet(path);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->SerializeAsString(), set.SerializeAsString());
  std::ofstream(path, std::ios::binary) << "\x12\xff\xff\xff garbage";
  EXPECT_THAT(ReadTrainingSet(path).status().message(),
              HasSubstr("not a training set"));
  EXPECT_TRUE(absl::IsNotFound(
      ReadTrainingSet(::testing::TempDir() + "/missing.data").status()));
}

TEST(TextDatasetTest, FormatsAndMalformedLines) {
  const std::string path = ::testing::TempDir() + "data.txt";
  std::ofstream(path)
      << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]\n"
         "4k3/8/8/8/8/8/8/4K2R w K - [1.0]\n"
         "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 "
         "\"0-1\";\n"
         "this line is not a position [1.0]\n"
         "\n"
         "4k3/8/8/8/8/8/8/4K2R w K - [2.0]\n";
  std::ostringstream report;
  absl::StatusOr<TrainingSet> set = ReadText(path, &report);
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->positions_size(), 3);
  EXPECT_EQ(set->positions(0).result(), 0.5f);
  EXPECT_EQ(set->positions(1).result(), 1.0f);
  EXPECT_EQ(set->positions(2).result(), 0.0f);
  EXPECT_EQ(set->dropped().at("malformed_line"), 2);
  EXPECT_THAT(report.str(), HasSubstr("data.txt:4:"));
  EXPECT_THAT(report.str(), HasSubstr("data.txt:6:"));
  EXPECT_FALSE(ReadText(::testing::TempDir() + "missing.txt", &report).ok());
}

// A FEN without a result is reported, not labelled with its move number.
TEST(TextDatasetTest, PlainFenWithoutResultIsDropped) {
  TrainingSet set;
  TrainingSetSink sink(&set);
  std::ostringstream report;
  ASSERT_TRUE(
      ParseTextDataset(
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1.0\n"
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0.5\n",
          "plain.fen", &sink, &report)
          .ok());
  ASSERT_EQ(set.positions_size(), 2);
  EXPECT_EQ(set.positions(0).result(), 1.0f);
  EXPECT_EQ(set.positions(1).result(), 0.5f);
  EXPECT_THAT(report.str(), HasSubstr("plain.fen:1: no result"));
}

// Text sets stream too: written and read chunk by chunk, the same positions.
TEST(TextDatasetTest, LargeTextSetsRoundTripInChunks) {
  TrainingSet set;
  for (int i = 0; i < 2 * kPositionsPerChunk + 3; ++i)
    *set.add_positions() = MakePosition(i);
  for (const auto& [format, file] :
       {std::pair{DatasetFormat::kEpd, "big.epd"},
        std::pair{DatasetFormat::kFen, "big.fen"},
        std::pair{DatasetFormat::kBulletText, "big.txt"}}) {
    SCOPED_TRACE(file);
    const std::string path = ::testing::TempDir() + file;
    ASSERT_TRUE(WriteTrainingSet(set, path, format).ok());
    // bullet's format needs a score: the positions without one are counted.
    const bool bullet = format == DatasetFormat::kBulletText;
    TrainingSet expected;
    for (const TrainingPosition& p : set.positions())
      if (!bullet || p.has_score_cp()) *expected.add_positions() = p;
    EXPECT_EQ(CountChunks(path),
              (expected.positions_size() + kPositionsPerChunk - 1) /
                  kPositionsPerChunk);
    absl::StatusOr<TrainingSet> read = ReadTrainingSet(path);
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_EQ(read->positions_size(), expected.positions_size());
    for (int i = 0; i < expected.positions_size(); i += 513) {
      EXPECT_EQ(read->positions(i).fen(), expected.positions(i).fen());
      EXPECT_EQ(read->positions(i).result(), expected.positions(i).result());
      if (format != DatasetFormat::kFen) {
        EXPECT_EQ(read->positions(i).score_cp(),
                  expected.positions(i).score_cp());
      }
    }
  }
}

TEST(TextDatasetTest, BulletLinesAndTheirErrors) {
  TrainingSet set;
  TrainingSetSink sink(&set);
  std::ostringstream report;
  ASSERT_TRUE(
      ParseTextDataset(
          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 | 35 | "
          "0.5\n"
          "4k3/8/8/8/8/8/8/4K2R w K - 0 40 | -120 | 0.0\n"
          "4k3/8/8/8/8/8/8/4K2R w K - 0 40 | 12cp | 0.0\n"
          "4k3/8/8/8/8/8/8/4K2R w K - 0 40 | 12 | 0.3\n"
          "4k3/8/8/8/8/8/8/4K2R w K - 0 40 | 12\n"
          "4k3/8/8/8/8/8/8/4K9 w K - 0 40 | 12 | 1.0\n",
          "data.txt", &sink, &report)
          .ok());
  ASSERT_EQ(set.positions_size(), 2);
  EXPECT_EQ(set.positions(0).score_cp(), 35);  // White's side, as bullet's
  EXPECT_EQ(set.positions(0).result(), 0.5f);
  EXPECT_EQ(set.positions(1).score_cp(), -120);
  EXPECT_EQ(set.positions(1).result(), 0.0f);
  EXPECT_EQ(set.dropped().at("malformed_line"), 4);
  EXPECT_THAT(report.str(), HasSubstr("data.txt:3: the score"));
  EXPECT_THAT(report.str(), HasSubstr("data.txt:4: the result"));
  EXPECT_THAT(report.str(), HasSubstr("data.txt:5: expected FEN | score"));
  EXPECT_THAT(report.str(), HasSubstr("data.txt:6:"));
  EXPECT_EQ(FormatTextPosition(set.positions(1), DatasetFormat::kBulletText),
            "4k3/8/8/8/8/8/8/4K2R w K - 0 40 | -120 | 0.0\n");
}

TEST(TextDatasetTest, FormatNames) {
  EXPECT_EQ(*ParseDatasetFormat("bullet"), DatasetFormat::kBulletText);
  EXPECT_EQ(DatasetFormatOf("x/y.txt"), DatasetFormat::kBulletText);
  EXPECT_EQ(*ParseDatasetFormat("epd"), DatasetFormat::kEpd);
  EXPECT_EQ(*ParseDatasetFormat("fen"), DatasetFormat::kFen);
  EXPECT_EQ(*ParseDatasetFormat("data"), DatasetFormat::kProto);
  EXPECT_FALSE(ParseDatasetFormat("csv").ok());
  EXPECT_EQ(DatasetFormatOf("x/y.epd"), DatasetFormat::kEpd);
  EXPECT_EQ(DatasetFormatOf("x/y.bin"), DatasetFormat::kProto);
}

}  // namespace
}  // namespace chess
