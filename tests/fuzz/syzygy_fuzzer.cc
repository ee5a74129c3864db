// The Syzygy path and table files (engine/syzygy_files.h, syzygy::Load): the
// first byte chooses what the rest is. Even: a SyzygyPath, whose directories
// are parsed and loaded. Odd: the bytes of a table file (the byte's other bits
// choose its name among a few WDL and DTZ tables), written into a directory
// beside an intact set and loaded: checked, probed in a child process and
// skipped or kept, never a crash, a hang or a block in this process.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/syzygy.h"
#include "engine/syzygy_files.h"

namespace {

namespace fs = std::filesystem;

// A directory of this process's own, for the table under test.
const std::string& WorkDirectory() {
  static const std::string* const dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    auto* path = new std::string((fs::path(tmp && *tmp ? tmp : "/tmp") /
                                  ("syzygy-fuzz-" + std::to_string(::getpid())))
                                     .string());
    fs::create_directories(*path);
    return path;
  }();
  return *dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    (void)chess::syzygy::TablePieces(rest);
    if (rest.find('\0') == std::string::npos && rest.size() < 512)
      (void)chess::syzygy::Directories(rest);
    return 0;
  }
  static constexpr const char* kNames[] = {"KQvK.rtbw", "KQvK.rtbz",
                                           "KRvKP.rtbw", "KPvKP.rtbz"};
  // Two directories in turn: loading the paths already loaded does nothing.
  static int turn = 0;
  const fs::path dir = fs::path(WorkDirectory()) / std::to_string(turn++ % 2);
  std::error_code error;
  fs::remove_all(dir, error);
  fs::create_directories(dir, error);
  std::ofstream(dir / kNames[(data[0] >> 1) % 4], std::ios::binary) << rest;
  (void)chess::syzygy::ScanDirectories({dir.string()});
  (void)chess::syzygy::Load(dir.string());
  (void)chess::syzygy::Load("");
  return 0;
}
