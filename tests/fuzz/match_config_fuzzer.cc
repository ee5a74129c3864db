// Match config text: a loaded match or an error with file:line:column, never a
// crash or an exhausted memory. Files it names are looked up in an empty
// directory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/strip.h"
#include "arena/match_setup.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<chess::LoadedMatch> match =
      chess::ParseMatch(text, "fuzz.textproto", "/nonexistent-fuzz-dir");
  if (match.ok() && match->schedule.empty()) __builtin_trap();
  // Every error says where: "fuzz.textproto:LINE:COLUMN: ".
  if (!match.ok()) {
    absl::string_view m = match.status().message();
    if (!absl::ConsumePrefix(&m, "fuzz.textproto:")) __builtin_trap();
    for (int part = 0; part < 2; ++part) {
      const size_t digits = m.find_first_not_of("0123456789");
      if (digits == 0 || digits == absl::string_view::npos || m[digits] != ':')
        __builtin_trap();
      m.remove_prefix(digits + 1);
    }
  }
  return 0;
}
