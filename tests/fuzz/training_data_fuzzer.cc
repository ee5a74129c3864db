// Training data lines ("FEN [1.0]", EPD with c9): each line is a position with
// a result in [0, 1] or a reported, dropped line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "tuner/training_data.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  chess::TrainingSet set;
  chess::TrainingSetSink sink(&set);
  std::ostringstream report;
  if (!chess::ParseTextDataset(text, "fuzz.txt", &sink, &report).ok())
    __builtin_trap();  // a sink in memory never fails
  for (const chess::TrainingPosition& p : set.positions()) {
    if (!(p.result() >= 0 && p.result() <= 1)) __builtin_trap();
  }
  return 0;
}
