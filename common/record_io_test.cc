#include "common/record_io.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(Crc32cTest, KnownValue) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);  // the standard check value
  EXPECT_EQ(Crc32c(""), 0u);
}

// A special file is written in place: /dev/null stays a device.
TEST(RecordIoTest, ReplacingDevNullKeepsTheDevice) {
  EXPECT_TRUE(ReplaceRecordFile("/dev/null", {"a", "b"}).ok());
  EXPECT_TRUE(ReplaceRecordFileWith("/dev/null", [](RecordWriter& writer) {
                return writer.Write("c");
              }).ok());
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.tmp"));
}

TEST(RecordIoTest, WriteReadAppend) {
  const std::string path = ::testing::TempDir() + "a.log";
  {
    auto w = RecordWriter::Create(path);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_TRUE(w->Write("first").ok());
    ASSERT_TRUE(w->Write(std::string(100000, 'x')).ok());
    ASSERT_TRUE(w->Write("").ok());
  }
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ(file->records.size(), 3u);
  EXPECT_EQ(file->records[0], "first");
  EXPECT_EQ(file->records[1].size(), 100000u);
  EXPECT_EQ(file->valid_bytes, file->file_bytes);
  {
    auto w = RecordWriter::Append(path, file->valid_bytes);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Write("fourth").ok());
  }
  file = ReadRecordFile(path);
  ASSERT_EQ(file->records.size(), 4u);
  EXPECT_EQ(file->records[3], "fourth");
}

// The stream reader sees what ReadRecordFile sees, one record at a time: a
// torn tail ends the file, a flipped bit inside it is an error.
TEST(RecordIoTest, StreamReaderAgreesWithTheWholeFileReader) {
  const std::string path = ::testing::TempDir() + "stream.log";
  {
    auto w = RecordWriter::Create(path);
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 20; ++i)
      ASSERT_TRUE(w->Write(std::string(size_t(i * 50), char('a' + i))).ok());
  }
  std::ofstream(path, std::ios::app | std::ios::binary) << "\x10\x00\x00";
  auto whole = ReadRecordFile(path);
  ASSERT_TRUE(whole.ok());
  auto reader = RecordReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::string payload;
  size_t n = 0;
  for (;;) {
    absl::StatusOr<bool> more = reader->Next(&payload);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    ASSERT_LT(n, whole->records.size());
    EXPECT_EQ(payload, whole->records[n++]);
  }
  EXPECT_EQ(n, 20u);
  EXPECT_EQ(reader->valid_bytes(), whole->valid_bytes);
  // The torn header after them: "\x10" (the literal ends at its NUL).
  EXPECT_EQ(reader->torn_bytes(), 1u);

  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(whole->offsets[5] + 8));
    f.put('!');
  }
  reader = RecordReader::Open(path);
  ASSERT_TRUE(reader.ok());
  absl::Status error;
  for (;;) {
    absl::StatusOr<bool> more = reader->Next(&payload);
    if (!more.ok()) {
      error = more.status();
      break;
    }
    ASSERT_TRUE(*more) << "the damage was not seen";
  }
  EXPECT_TRUE(absl::IsDataLoss(error)) << error;
  EXPECT_THAT(
      std::string(error.message()),
      ::testing::HasSubstr(absl::StrCat("at byte ", whole->offsets[5])));

  EXPECT_TRUE(absl::IsNotFound(
      RecordReader::Open(::testing::TempDir() + "none.log").status()));
  std::ofstream(::testing::TempDir() + "text.log") << "hello\n";
  EXPECT_TRUE(absl::IsInvalidArgument(
      RecordReader::Open(::testing::TempDir() + "text.log").status()));
  // A directory is not an empty file (fopen opens one for reading).
  const absl::Status directory =
      RecordReader::Open(::testing::TempDir()).status();
  EXPECT_TRUE(absl::IsInvalidArgument(directory)) << directory;
  EXPECT_THAT(std::string(directory.message()),
              ::testing::HasSubstr("is a directory"));
}

TEST(RecordIoTest, SharedWriterKeepsEveryRecordOfManyThreadsWhole) {
  const std::string path = ::testing::TempDir() + "shared.log";
  auto created = RecordWriter::Create(path);
  ASSERT_TRUE(created.ok());
  SharedRecordWriter writer(*std::move(created));
  constexpr int kThreads = 8, kPerThread = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&writer, t] {
      for (int i = 0; i < kPerThread; ++i) {
        // Records of different lengths, so an interleaved frame would show.
        const std::string payload(size_t(100 + 37 * t + i), char('a' + t));
        ASSERT_TRUE(writer.Write(payload).ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->damaged.empty());
  EXPECT_EQ(file->valid_bytes, file->file_bytes);
  std::map<char, int> per_thread;
  for (absl::string_view record : file->records) {
    ASSERT_FALSE(record.empty());
    EXPECT_EQ(record.find_first_not_of(record[0]), std::string::npos);
    ++per_thread[record[0]];
  }
  EXPECT_EQ(per_thread.size(), size_t(kThreads));
  for (const auto& [thread, records] : per_thread)
    EXPECT_EQ(records, kPerThread);
}

TEST(RecordIoTest, ReplaceRewritesTheWholeFile) {
  const std::string path = ::testing::TempDir() + "replace.log";
  {
    auto w = RecordWriter::Create(path);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Write("old header").ok());
    ASSERT_TRUE(w->Write("game").ok());
  }
  absl::StatusOr<uint64_t> length =
      ReplaceRecordFile(path, {"new header", "game"});
  ASSERT_TRUE(length.ok()) << length.status();
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->records,
            (std::vector<absl::string_view>{"new header", "game"}));
  EXPECT_EQ(file->valid_bytes, file->file_bytes);
  EXPECT_EQ(*length, file->valid_bytes);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  {  // and it can be appended to as usual
    auto w = RecordWriter::Append(path, file->valid_bytes);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Write("next game").ok());
  }
  EXPECT_EQ(ReadRecordFile(path)->records.size(), 3u);
  absl::StatusOr<uint64_t> bad =
      ReplaceRecordFile("/nonexistent-dir/x.log", {"a"});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              ::testing::HasSubstr("x.log"));
}

TEST(RecordIoTest, TornTailIsDetectedAndCut) {
  const std::string path = ::testing::TempDir() + "torn.log";
  {
    auto w = RecordWriter::Create(path);
    ASSERT_TRUE(w->Write("one").ok());
    ASSERT_TRUE(w->Write("two").ok());
  }
  auto whole = ReadRecordFile(path);
  // Every possible cut inside the last record leaves exactly the first.
  for (uint64_t cut = whole->file_bytes - 1; cut > whole->file_bytes - 11;
       --cut) {
    ASSERT_EQ(::truncate(path.c_str(), off_t(cut)), 0);
    auto file = ReadRecordFile(path);
    ASSERT_TRUE(file.ok());
    ASSERT_EQ(file->records.size(), 1u) << cut;
    EXPECT_LT(file->valid_bytes, file->file_bytes);
  }
  auto file = ReadRecordFile(path);
  auto w = RecordWriter::Append(path, file->valid_bytes);
  ASSERT_TRUE(w->Write("three").ok());
  file = ReadRecordFile(path);
  ASSERT_EQ(file->records.size(), 2u);
  EXPECT_EQ(file->records[1], "three");
  EXPECT_EQ(file->valid_bytes, file->file_bytes);
}

TEST(RecordIoTest, CorruptPayloadEndsTheFile) {
  const std::string path = ::testing::TempDir() + "corrupt.log";
  {
    auto w = RecordWriter::Create(path);
    ASSERT_TRUE(w->Write("good").ok());
    ASSERT_TRUE(w->Write("flipped").ok());
  }
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(-2, std::ios::end);
  f.put('#');
  f.close();
  auto file = ReadRecordFile(path);
  ASSERT_EQ(file->records.size(), 1u);
}

// Everything a scan finds, in one comparable form.
struct Found {
  std::vector<std::string> records;
  std::vector<uint64_t> offsets;
  std::vector<std::pair<uint64_t, uint64_t>> damaged;
  uint64_t valid_bytes = 0, file_bytes = 0;
  bool operator==(const Found&) const = default;
};

Found FoundByParsing(const std::string& data) {
  Found found;
  absl::StatusOr<RecordFile> file = ParseRecordFile(data, "data");
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return found;
  for (absl::string_view r : file->records) found.records.emplace_back(r);
  found.offsets = file->offsets;
  for (const DamagedRegion& d : file->damaged)
    found.damaged.emplace_back(d.offset, d.bytes);
  found.valid_bytes = file->valid_bytes;
  found.file_bytes = file->file_bytes;
  return found;
}

// Scans a batch of `batch` records at a time, as the log reader does.
Found FoundByScanning(RecordScanner& scanner, size_t batch) {
  Found found;
  std::vector<ScannedRecord> records;
  do {
    absl::Status s = scanner.Next(batch, &records);
    EXPECT_TRUE(s.ok()) << s;
    if (!s.ok()) break;
    for (const ScannedRecord& r : records) {
      found.records.emplace_back(r.payload);
      found.offsets.push_back(r.offset);
    }
  } while (!records.empty());
  for (const DamagedRegion& d : scanner.damaged())
    found.damaged.emplace_back(d.offset, d.bytes);
  found.valid_bytes = scanner.valid_bytes();
  found.file_bytes = scanner.file_bytes();
  return found;
}

// Records of many sizes (one larger than the smaller windows), then damage
// or a torn tail where the windows end at every possible byte: whatever the
// window and the batch, a scan finds what parsing the whole file finds.
TEST(RecordScannerTest, FindsWhatParsingTheWholeFileFinds) {
  const std::string path = ::testing::TempDir() + "scan.log";
  std::vector<std::string> payloads;
  for (int i = 0; i < 12; ++i)
    payloads.push_back(std::string(size_t(i * i * 3), char('a' + i)));
  ASSERT_TRUE(ReplaceRecordFile(path, payloads).ok());
  std::ifstream in(path, std::ios::binary);
  const std::string intact((std::istreambuf_iterator<char>(in)), {});
  const auto whole = ParseRecordFile(intact, "intact");
  ASSERT_TRUE(whole.ok());
  std::map<std::string, std::string> files = {
      {"intact", intact},
      {"torn header", intact + "\x10\x00"},
      {"torn payload", intact + std::string("\x10\x00\x00\x00"
                                            "abc",
                                            7)},
      {"empty", ""},
      {"torn magic", intact.substr(0, 10)},
      {"magic alone", intact.substr(0, whole->offsets[0])},
  };
  for (size_t r : {size_t(0), size_t(4), size_t(11)}) {
    std::string flipped = intact;
    flipped[whole->offsets[r] + 9] ^= 0x20;
    files[absl::StrCat("flipped payload ", r)] = flipped;
    std::string bad_length = intact;
    bad_length[whole->offsets[r] + 3] = '\x7f';
    files[absl::StrCat("huge length ", r)] = bad_length;
  }
  for (const auto& [name, data] : files) {
    const Found expected = FoundByParsing(data);
    for (size_t window : {size_t(1), size_t(30), size_t(64), size_t(100),
                          size_t(333), size_t(1) << 20}) {
      for (size_t batch : {size_t(1), size_t(3), SIZE_MAX}) {
        auto scanner = RecordScanner::OverData(data, name, window);
        ASSERT_TRUE(scanner.ok()) << scanner.status();
        EXPECT_TRUE(FoundByScanning(**scanner, batch) == expected)
            << name << ", window " << window << ", batch " << batch;
      }
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
    auto scanner = RecordScanner::OpenFile(path, 64);
    ASSERT_TRUE(scanner.ok()) << scanner.status();
    EXPECT_TRUE(FoundByScanning(**scanner, 5) == expected) << name;
  }
}

// Records read again where a scan found them; a file changed since is
// DataLoss, not another record.
TEST(RecordFileReaderTest, ReadsTheRecordsWhereTheScanFoundThem) {
  const std::string path = ::testing::TempDir() + "reread.log";
  ASSERT_TRUE(
      ReplaceRecordFile(path, {"one", std::string(5000, 'x'), ""}).ok());
  auto scanner = RecordScanner::OpenFile(path);
  ASSERT_TRUE(scanner.ok());
  std::vector<ScannedRecord> records;
  ASSERT_TRUE((*scanner)->Next(10, &records).ok());
  ASSERT_EQ(records.size(), 3u);
  auto reader = RecordFileReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::string payload;
  for (const ScannedRecord& r : records) {
    ASSERT_TRUE((*reader)->ReadAt(r.offset, &payload).ok());
    EXPECT_EQ(payload, r.payload);
  }
  const absl::Status inside =
      (*reader)->ReadAt(records[1].offset + 3, &payload);
  EXPECT_TRUE(absl::IsDataLoss(inside)) << inside;
  EXPECT_THAT(inside.message(), ::testing::HasSubstr("reread.log"));
  EXPECT_TRUE(absl::IsDataLoss((*reader)->ReadAt(1 << 20, &payload)));
  EXPECT_TRUE(absl::IsNotFound(
      RecordFileReader::Open(::testing::TempDir() + "none.log").status()));
}

// Records written one at a time replace the file whole, or not at all.
TEST(RecordIoTest, ReplaceWithAWriterIsAllOrNothing) {
  const std::string path = ::testing::TempDir() + "replace-with.log";
  ASSERT_TRUE(ReplaceRecordFile(path, {"old"}).ok());
  const absl::Status failed =
      ReplaceRecordFileWith(path, [](RecordWriter& w) -> absl::Status {
        if (absl::Status s = w.WriteUnsynced("new"); !s.ok()) return s;
        return absl::DataLossError("a source went away");
      });
  EXPECT_TRUE(absl::IsDataLoss(failed));
  auto file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_THAT(file->records, ::testing::ElementsAre("old"));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  ASSERT_TRUE(ReplaceRecordFileWith(path, [](RecordWriter& w) {
                return w.WriteUnsynced("new");
              }).ok());
  file = ReadRecordFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_THAT(file->records, ::testing::ElementsAre("new"));
}

TEST(RecordScannerTest, ErrorsNameTheFile) {
  auto missing = RecordScanner::OpenFile(::testing::TempDir() + "none.log");
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  const std::string path = ::testing::TempDir() + "scan-text.log";
  std::ofstream(path) << "this is not a log\n";
  auto bad = RecordScanner::OpenFile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("scan-text.log"));
}

TEST(RecordIoTest, ErrorsNameTheFile) {
  auto missing = ReadRecordFile(::testing::TempDir() + "missing.log");
  EXPECT_TRUE(absl::IsNotFound(missing.status()));
  const std::string path = ::testing::TempDir() + "text.log";
  std::ofstream(path) << "this is not a log\n";
  auto bad = ReadRecordFile(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("text.log"), std::string::npos);
}

}  // namespace
}  // namespace chess
