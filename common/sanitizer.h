#ifndef COMMON_SANITIZER_H_
#define COMMON_SANITIZER_H_

#include <cstdlib>
#include <string_view>

namespace chess {

// The sanitizer a test runs under: "asan", "ubsan" or "tsan" (.bazelrc sets
// CHESS_HARNESS_SANITIZED for each), empty in a normal build. Tests whose point
// is convergence over many games or epochs run a short version under one: the
// instrumented code is 5-20 times slower, and a short run reaches every line
// the long one does.
inline std::string_view SanitizerName() {
  const char* name = std::getenv("CHESS_HARNESS_SANITIZED");
  return name == nullptr ? std::string_view() : std::string_view(name);
}

inline bool UnderSanitizer() { return !SanitizerName().empty(); }

}  // namespace chess

#endif  // COMMON_SANITIZER_H_
