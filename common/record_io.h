// An append-only file of framed records: a magic line, then per record a
// little-endian u32 length, a u32 CRC-32C of the payload, and the payload. A
// record counts only once it is complete and its checksum matches, so a file
// cut short by a crash (a torn tail) is detected and cut back to its last whole
// record. Damage inside the file (a flipped bit) costs only the records it
// touches: the reader resynchronises on the framing and reports where.
#ifndef COMMON_RECORD_IO_H_
#define COMMON_RECORD_IO_H_

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
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
  std::vector<uint64_t> offsets;       // where each record's frame starts
  std::vector<DamagedRegion> damaged;  // in the middle, before intact records
  uint64_t valid_bytes = 0;            // end of the last whole record
  uint64_t file_bytes = 0;             // > valid_bytes when the tail is torn
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

// One record of a scan: its payload and where its frame starts.
struct ScannedRecord {
  absl::string_view payload;
  uint64_t offset = 0;
};

// Reads a record file front to back a window at a time, so that memory holds
// a window (or one record, if larger) however large the file, and finds what
// ReadRecordFile finds: the same records, damage, valid_bytes and file_bytes.
// Intact frames are taken from the window; at the first frame that is not
// intact (damage, or a torn tail), the rest of the file is read whole and
// parsed as ParseRecordFile parses it, since where damage ends depends on
// what follows. Reading a large log this way costs a fraction of reading it
// whole: no file-sized buffer to allocate, fault in and copy into.
class RecordScanner {
 public:
  static constexpr size_t kDefaultWindowBytes = 8 << 20;
  // NotFound for a missing file; InvalidArgument for a directory or a file
  // that is not a record file.
  static absl::StatusOr<std::unique_ptr<RecordScanner>> OpenFile(
      const std::string& path, size_t window_bytes = kDefaultWindowBytes);
  // The same on bytes in memory, `name` naming them in errors: read in place
  // when the window holds them all (the records point into `data`), else
  // copied a window at a time as from a file.
  static absl::StatusOr<std::unique_ptr<RecordScanner>> OverData(
      absl::string_view data, absl::string_view name,
      size_t window_bytes = SIZE_MAX);
  RecordScanner(const RecordScanner&) = delete;
  RecordScanner& operator=(const RecordScanner&) = delete;
  ~RecordScanner();

  // Replaces `records` with up to `max_records` next records (fewer where
  // the window ends); their payloads stay valid until the next call. Empty
  // at the end of the file.
  absl::Status Next(size_t max_records, std::vector<ScannedRecord>* records);
  // Damage found so far, in file order.
  const std::vector<DamagedRegion>& damaged() const { return damaged_; }
  // Final once Next has given no record.
  uint64_t valid_bytes() const { return valid_bytes_; }
  uint64_t file_bytes() const { return file_bytes_; }

 private:
  explicit RecordScanner(std::string name) : name_(std::move(name)) {}
  absl::Status Start();  // the magic
  absl::string_view Window() const;
  absl::StatusOr<size_t> Read(char* to, size_t n);
  // Makes the window hold `need` bytes from the next frame on, or all that is
  // left of the file.
  absl::Status Fill(size_t need);
  absl::Status ReadRest();

  std::string name_;
  int fd_ = -1;               // a file, or
  absl::string_view source_;  // bytes in memory
  size_t source_read_ = 0;
  bool whole_ = false;  // the window is `source_` itself
  std::string buffer_;
  size_t window_size_ = 0;  // bytes of the file from base_ in the window
  uint64_t base_ = 0;       // the window's first byte in the file
  size_t begin_ = 0;        // the next frame, in the window
  bool eof_ = false;        // the window reaches the end of the file
  bool ended_ = false;
  bool in_rest_ = false;  // after damage: records from rest_file_
  std::string rest_;
  uint64_t rest_base_ = 0;
  RecordFile rest_file_;
  size_t rest_next_ = 0;
  std::vector<DamagedRegion> damaged_;
  uint64_t valid_bytes_ = 0;
  uint64_t file_bytes_ = 0;
};

// Reads records again where a scan found them (ScannedRecord::offset): for a
// reader that keeps where its records lie instead of the records.
class RecordFileReader {
 public:
  // NotFound for a missing file.
  static absl::StatusOr<std::unique_ptr<RecordFileReader>> Open(
      const std::string& path);
  RecordFileReader(const RecordFileReader&) = delete;
  RecordFileReader& operator=(const RecordFileReader&) = delete;
  ~RecordFileReader();

  // The payload of the record whose frame starts at `offset`; DataLoss when
  // no intact record starts there (the file changed since it was scanned).
  absl::Status ReadAt(uint64_t offset, std::string* payload);

 private:
  RecordFileReader(int fd, std::string path)
      : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

// Reads a record file one record at a time, so that memory holds one record
// however large the file: for data that is consumed in order (training sets).
// A torn tail ends the file as it does for ReadRecordFile; damage inside it is
// an error naming the offset, since a stream cannot skip back.
class RecordReader {
 public:
  // NotFound for a missing file; InvalidArgument for a directory or a file
  // that is not a record file.
  static absl::StatusOr<RecordReader> Open(const std::string& path);
  RecordReader(RecordReader&& other) noexcept;
  RecordReader& operator=(RecordReader&& other) noexcept;
  ~RecordReader();

  // The next record's payload; false at the end of the file.
  absl::StatusOr<bool> Next(std::string* payload);
  // The end of the last record read: where an appending writer goes on.
  uint64_t valid_bytes() const { return valid_bytes_; }
  // After Next returned false: the bytes past the last whole record, a record
  // torn by a writer that stopped (0: the file ended cleanly).
  uint64_t torn_bytes() const { return torn_bytes_; }

 private:
  RecordReader(std::FILE* file, std::string path)
      : file_(file), path_(std::move(path)) {}
  // Next's answer at a torn record: false, its bytes counted.
  bool EndAtTornRecord();
  std::FILE* file_ = nullptr;
  std::string path_;
  uint64_t valid_bytes_ = 0;
  uint64_t torn_bytes_ = 0;
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

// ReplaceRecordFile for records too many to hold at once: `write` writes them
// (RecordWriter::WriteUnsynced) into a file beside `path`, which is then
// synced and renamed over `path`. On any error the old file stays as it was.
absl::Status ReplaceRecordFileWith(
    const std::string& path,
    absl::FunctionRef<absl::Status(RecordWriter&)> write);

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
