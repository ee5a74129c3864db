// Match logs: framing, checksums, headers and game records, hostile or
// damaged. Whatever is read is summarised and exported to PGN without a
// crash; the input's checksums are fixed up first half the time, so that
// CRC-valid but hostile records are reached. The batch reader (ScanLog, behind
// `arena summary` and `arena report`) must find what ParseLog finds, and the
// framing read a window at a time (as a file is) what the whole data holds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arena/log_reader.h"
#include "arena/match_outputs.h"
#include "common/record_io.h"

namespace {

// Rewrites each frame's checksum to match its payload, as far as the
// lengths allow.
std::string FixChecksums(std::string data) {
  constexpr size_t kMagic = 25;  // "chess-harness records v1\n"
  for (size_t at = kMagic; at + 8 <= data.size();) {
    uint32_t length = 0;
    for (int i = 3; i >= 0; --i) length = (length << 8) | uint8_t(data[at + i]);
    if (length > data.size() - at - 8) break;
    const uint32_t crc =
        chess::Crc32c(absl::string_view(data).substr(at + 8, length));
    for (int i = 0; i < 4; ++i) data[at + 4 + i] = char(crc >> (8 * i));
    at += 8 + length;
  }
  return data;
}

// A window of 1 to 128 bytes, so that frames straddle windows and outgrow
// them, and batches of 1 to 4 records.
void CheckWindowedScan(const std::string& bytes, uint8_t shape) {
  absl::StatusOr<chess::RecordFile> whole =
      chess::ParseRecordFile(bytes, "fuzz.log");
  auto scanner = chess::RecordScanner::OverData(bytes, "fuzz.log",
                                                size_t(shape >> 1 & 127) + 1);
  if (scanner.ok() != whole.ok()) __builtin_trap();
  if (!whole.ok()) return;
  std::vector<chess::ScannedRecord> batch;
  size_t seen = 0;
  do {
    if (!(*scanner)->Next(size_t(shape >> 6) + 1, &batch).ok())
      __builtin_trap();
    for (const chess::ScannedRecord& r : batch) {
      if (seen >= whole->records.size() || r.payload != whole->records[seen] ||
          r.offset != whole->offsets[seen])
        __builtin_trap();
      ++seen;
    }
  } while (!batch.empty());
  const auto& damaged = (*scanner)->damaged();
  if (seen != whole->records.size() ||
      damaged.size() != whole->damaged.size() ||
      (*scanner)->valid_bytes() != whole->valid_bytes ||
      (*scanner)->file_bytes() != whole->file_bytes)
    __builtin_trap();
  for (size_t i = 0; i < damaged.size(); ++i) {
    if (damaged[i].offset != whole->damaged[i].offset ||
        damaged[i].bytes != whole->damaged[i].bytes)
      __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) bytes = FixChecksums(std::move(bytes));
  CheckWindowedScan(bytes, data[0]);
  absl::StatusOr<chess::LogContents> log = chess::ParseLog(bytes, "fuzz.log");
  size_t scanned = 0;
  absl::StatusOr<chess::LogScan> scan = chess::ScanLog(
      bytes, "fuzz.log",
      [&](const chess::LogScan&, absl::Span<const chess::GameRecord* const> g) {
        for (const chess::GameRecord* game : g) {
          if (!log.ok() || scanned >= log->games.size() ||
              game->index() != log->games[scanned].index())
            __builtin_trap();
          ++scanned;
        }
      });
  if (scan.ok() != log.ok()) __builtin_trap();
  if (!log.ok() || log->empty()) return 0;
  if (scanned != log->games.size() || scan->damage != log->damage ||
      scan->duplicates != log->duplicates)
    __builtin_trap();
  chess::MatchSummary summary = chess::SummarizeLog(*log);
  (void)chess::FormatSummary(summary);
  (void)chess::LogToPgn(*log);
  return 0;
}
