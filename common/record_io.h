// An append-only file of framed records: a magic line, then per record a
// little-endian u32 length, a u32 CRC-32C of the payload, and the payload. A
// record counts only once it is complete and its checksum matches, so a file
// cut short by a crash (a torn tail) is detected and cut back to its last whole
// record. Damage inside the file (a flipped bit) costs only the records it
// touches: the reader resynchronises on the framing and reports where.
#ifndef COMMON_RECORD_IO_H_
#define COMMON_RECORD_IO_H_

#include <condition_variable>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace chess {

uint32_t Crc32c(absl::string_view data);

// Bytes between two intact records (or before the end of the file) that hold
// no intact record.
struct DamagedRegion {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

struct RecordFile {
  // Each record's payload, in the data parsed: `data` when read from a file,
  // else the caller's (no copy of a large log).
  std::vector<absl::string_view> records;
  std::vector<uint64_t> offsets;  // where each record's frame starts
  std::vector<DamagedRegion> damaged;  // in the middle, before intact records
  uint64_t valid_bytes = 0;  // end of the last whole record
  uint64_t file_bytes = 0;   // > valid_bytes when the tail is torn
  std::unique_ptr<const std::string> data;  // set by ReadRecordFile
};

// Records larger than this are taken for damage (a game record is a few KiB).
inline constexpr uint32_t kMaxRecordBytes = 64u << 20;

// Reads every whole record. A missing file is NotFound; a file that is not a
// record file is InvalidArgument. A tail that is an unfinished frame is torn
// (file_bytes > valid_bytes); any other bytes that hold no intact record are
// listed in `damaged`, and the intact records after them are kept.
absl::StatusOr<RecordFile> ReadRecordFile(const std::string& path);
// The same on a file's contents, `name` naming it in errors; the records point
// into `data`.
absl::StatusOr<RecordFile> ParseRecordFile(absl::string_view data,
                                           absl::string_view name);

// Writes a whole record file beside `path` and renames it over `path`: a
// crash leaves the old file or the new one, never a mix. Returns its length,
// the `valid_bytes` to append after.
absl::StatusOr<uint64_t> ReplaceRecordFile(
    const std::string& path, const std::vector<std::string>& records);

// Reads a record file one record at a time, so that memory holds one record
// however large the file: for data that is consumed in order (training sets).
// A torn tail ends the file as it does for ReadRecordFile; damage inside it is
// an error naming the offset, since a stream cannot skip back.
class RecordReader {
 public:
  // NotFound for a missing file; InvalidArgument for one that is not a record
  // file.
  static absl::StatusOr<RecordReader> Open(const std::string& path);
  RecordReader(RecordReader&& other) noexcept;
  RecordReader& operator=(RecordReader&& other) noexcept;
  ~RecordReader();

  // The next record's payload; false at the end of the file.
  absl::StatusOr<bool> Next(std::string* payload);
  // The end of the last record read: where an appending writer goes on.
  uint64_t valid_bytes() const { return valid_bytes_; }

 private:
  RecordReader(std::FILE* file, std::string path)
      : file_(file), path_(std::move(path)) {}
  std::FILE* file_ = nullptr;
  std::string path_;
  uint64_t valid_bytes_ = 0;
};

class RecordWriter {
 public:
  // Creates the file, or opens an existing one and cuts it to `valid_bytes`
  // (from ReadRecordFile) so that new records follow the last whole one.
  static absl::StatusOr<RecordWriter> Create(const std::string& path);
  static absl::StatusOr<RecordWriter> Append(const std::string& path,
                                             uint64_t valid_bytes);
  RecordWriter(RecordWriter&& other) noexcept;
  RecordWriter& operator=(RecordWriter&& other) noexcept;
  ~RecordWriter();

  // Writes one record and syncs it to disk before returning.
  absl::Status Write(absl::string_view payload);
  // The two halves of Write: the record, then one sync for every record
  // written so far (another thread may write while this one syncs).
  absl::Status WriteUnsynced(absl::string_view payload);
  absl::Status Sync();

 private:
  RecordWriter(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

// One RecordWriter shared by many threads (the arena's games), with group
// commit: each record is written under a lock, but the disk sync is not. A
// thread whose record is not yet on disk either runs the sync, which covers
// every record written until it starts, or waits for the one running. On a
// disk that syncs in 0.2-2 ms this keeps the lock free while the disk works,
// and many games finishing together pay one sync.
class SharedRecordWriter {
 public:
  explicit SharedRecordWriter(RecordWriter writer)
      : writer_(std::move(writer)) {}
  // Returns once the record is on disk, or the first error of any write or
  // sync (after which every call fails: the file may end in a torn record).
  absl::Status Write(absl::string_view payload);

 private:
  RecordWriter writer_;
  std::mutex mutex_;
  std::condition_variable synced_cv_;
  uint64_t written_ = 0;  // records written
  uint64_t synced_ = 0;   // records known to be on disk
  bool syncing_ = false;
  absl::Status failed_;
};

}  // namespace chess

#endif  // COMMON_RECORD_IO_H_
