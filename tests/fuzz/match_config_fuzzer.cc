// Match config text: a loaded match or an error with file:line:column, never a
// crash or an exhausted memory. Files it names are looked up in an empty
// directory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arena/match.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<chess::LoadedMatch> match =
      chess::ParseMatch(text, "fuzz.textproto", "/nonexistent-fuzz-dir");
  if (match.ok() && match->schedule.empty()) __builtin_trap();
  return 0;
}
