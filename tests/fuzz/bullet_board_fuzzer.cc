// bullet's binary training records: every 32 bytes either are refused with an
// error or are a position that packs back to the same bytes (the three unused
// ones aside); the whole input as a .bulletformat file reads or fails with an
// error, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/scratch_path.h"
#include "tuner/bullet_board.h"
#include "tuner/training_data.h"

namespace {

constexpr int kUsedBytes = 29;  // bytes 29-31 are unused

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  for (size_t at = 0; at + chess::kBulletBoardBytes <= size;
       at += chess::kBulletBoardBytes) {
    const std::string record = bytes.substr(at, chess::kBulletBoardBytes);
    absl::StatusOr<chess::TrainingPosition> position =
        chess::UnpackBulletBoard(record);
    if (!position.ok()) continue;
    absl::StatusOr<std::string> again = chess::PackBulletBoard(*position);
    if (!again.ok() ||
        again->compare(0, kUsedBytes, record, 0, kUsedBytes) != 0)
      __builtin_trap();
  }
  static const std::string path =
      FuzzScratchPath("bullet_board_fuzzer", ".bulletformat");
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  std::ostringstream report;
  int64_t positions = 0;
  (void)chess::ForEachTrainingChunk(
      path,
      [&](const chess::TrainingSet& chunk) {
        positions += chunk.positions_size();
        return absl::OkStatus();
      },
      &report, /*accept_torn=*/true);
  if (positions > int64_t(size / chess::kBulletBoardBytes)) __builtin_trap();
  std::remove(path.c_str());
  return 0;
}
