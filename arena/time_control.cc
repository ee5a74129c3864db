#include "arena/time_control.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace chess {

std::string ClockText(const TimeControl& tc) {
  if (tc.base_ms() > 0 || tc.increment_ms() > 0) {
    return absl::StrCat(tc.moves() > 0 ? absl::StrCat(tc.moves(), "/") : "",
                        absl::StrFormat("%g", tc.base_ms() / 1000.0), "+",
                        absl::StrFormat("%g", tc.increment_ms() / 1000.0));
  }
  if (tc.movetime_ms() > 0)
    return absl::StrFormat("%g", tc.movetime_ms() / 1000.0);
  return "-";
}

}  // namespace chess
