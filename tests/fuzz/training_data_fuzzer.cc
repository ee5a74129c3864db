// Training data: text lines ("FEN [1.0]", EPD with c9, bullet's "FEN | score |
// result"), where each line is a position with a result in [0, 1] or a
// reported, dropped line; and the same bytes as a training-set file (record
// chunks, a set written whole, or text by its content), which reads or fails
// with an error, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/scratch_path.h"
#include "tuner/training_data.h"

namespace {

void CheckResults(const chess::TrainingSet& set) {
  for (const chess::TrainingPosition& p : set.positions()) {
    if (!(p.result() >= 0 && p.result() <= 1)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  chess::TrainingSet set;
  chess::TrainingSetSink sink(&set);
  std::ostringstream report;
  if (!chess::ParseTextDataset(text, "fuzz.txt", &sink, &report).ok())
    __builtin_trap();  // a sink in memory never fails
  CheckResults(set);

  static const std::string path =
      FuzzScratchPath("training_data_fuzzer", ".data");
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  chess::TrainingSet read;
  chess::TrainingSetSink read_sink(&read);
  (void)chess::ForEachTrainingChunk(
      path,
      [&](const chess::TrainingSet& chunk) {
        return chess::AddChunk(chunk, &read_sink);
      },
      &report);
  // Each input's file goes at once, so that no run leaves one behind.
  std::remove(path.c_str());
  return 0;
}
