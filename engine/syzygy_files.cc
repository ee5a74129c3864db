#include "engine/syzygy_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace chess::syzygy {
namespace {

// The first four bytes of a table (Fathom's tbMagic, little-endian).
constexpr unsigned char kWdlMagic[4] = {0x71, 0xe8, 0x23, 0x5d};
constexpr unsigned char kDtzMagic[4] = {0xd7, 0x66, 0x0c, 0xa5};
// The largest tables that exist (7 pieces) and the smallest file any table
// makes (KNvK's).
constexpr int kMostPieces = 7;
constexpr int64_t kSmallestTable = 80;

// Closes the descriptor it holds.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

bool ReadFully(int fd, unsigned char* buffer, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, buffer + done, size - done);
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> Directories(absl::string_view paths) {
  std::vector<std::string> directories;
  std::set<std::string> seen;
  for (absl::string_view dir : absl::StrSplit(paths, ':', absl::SkipEmpty())) {
    if (!seen.insert(std::string(dir)).second) continue;
    std::error_code error;
    if (!std::filesystem::is_directory(std::string(dir), error)) {
      return absl::NotFoundError(
          absl::StrCat("\"", dir, "\" is not a directory"));
    }
    directories.emplace_back(dir);
  }
  return directories;
}

int TablePieces(absl::string_view stem) {
  const size_t v = stem.find('v');
  if (v == absl::string_view::npos) return 0;
  const absl::string_view sides[2] = {stem.substr(0, v), stem.substr(v + 1)};
  int pieces = 0;
  for (absl::string_view side : sides) {
    if (side.empty() || side[0] != 'K') return 0;
    for (char c : side.substr(1)) {
      if (std::string_view("QRBNP").find(c) == std::string_view::npos) return 0;
    }
    pieces += int(side.size());
  }
  return pieces <= kMostPieces ? pieces : 0;
}

absl::Status CheckTableFile(const std::string& path, bool dtz) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  FileDescriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) return absl::NotFoundError("it cannot be opened");
  struct stat info;
  if (fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError("it is not a regular file");
  }
  if (info.st_size < kSmallestTable || info.st_size % 64 != 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("its size (", info.st_size,
                     " bytes) is not a Syzygy table's (16 more than a "
                     "multiple of 64, at least 80)"));
  }
  unsigned char magic[4];
  const unsigned char* expected = dtz ? kDtzMagic : kWdlMagic;
  if (!ReadFully(fd.get(), magic, sizeof(magic)) ||
      !std::equal(magic, magic + 4, expected)) {
    return absl::InvalidArgumentError(
        absl::StrCat("it does not begin with the magic number of a ",
                     dtz ? "DTZ" : "WDL", " table"));
  }
  return absl::OkStatus();
}

TableScan ScanDirectories(const std::vector<std::string>& directories) {
  TableScan scan;
  std::set<std::string> names;
  for (const std::string& dir : directories) {
    std::error_code error;
    std::vector<std::filesystem::path> entries;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
      entries.push_back(entry.path());
    std::sort(entries.begin(), entries.end());
    for (const std::filesystem::path& entry : entries) {
      const std::string suffix = entry.extension().string();
      if (suffix != ".rtbw" && suffix != ".rtbz") continue;
      const int pieces = TablePieces(entry.stem().string());
      if (pieces == 0) continue;  // no table's name: Fathom never opens it
      const std::string name = entry.filename().string();
      if (names.count(name)) continue;  // the first of a name is the one
      const bool dtz = suffix == ".rtbz";
      if (absl::Status s = CheckTableFile(entry.string(), dtz); !s.ok()) {
        scan.skipped.push_back(
            absl::StrCat("\"", entry.string(), "\" skipped: ", s.message()));
        continue;
      }
      names.insert(name);
      scan.tables.push_back(TableFile{entry.string(), name, dtz, pieces});
    }
  }
  return scan;
}

}  // namespace chess::syzygy
