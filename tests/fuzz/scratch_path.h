// Where a fuzz target writes its input as a file: in the test's own scratch
// directory when there is one, named by the target and the process.
#ifndef TESTS_FUZZ_SCRATCH_PATH_H_
#define TESTS_FUZZ_SCRATCH_PATH_H_

#include <unistd.h>

#include <cstdlib>
#include <string>

inline std::string FuzzScratchPath(const std::string& target,
                                   const std::string& extension) {
  const char* dir = std::getenv("TEST_TMPDIR");
  if (dir == nullptr || *dir == '\0') dir = std::getenv("TMPDIR");
  if (dir == nullptr || *dir == '\0') dir = "/tmp";
  return std::string(dir) + "/" + target + "." + std::to_string(::getpid()) +
         extension;
}

#endif  // TESTS_FUZZ_SCRATCH_PATH_H_
