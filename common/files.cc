#include "common/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace chess {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a file"));
  }
  // A device (/dev/zero) could be read forever; a pipe (<(...)) ends.
  if (std::filesystem::exists(status) &&
      !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_fifo(status)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is not a regular file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::string data;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
    data.append(chunk, size_t(in.gcount()));
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  return data;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view contents) {
  const std::string tmp = path + ".tmp";
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat(tmp, ": cannot create: ", std::strerror(errno)));
  }
  std::string error;
  for (absl::string_view rest = contents; !rest.empty() && error.empty();) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = absl::StrCat("write failed: ", std::strerror(errno));
    if (n > 0) rest.remove_prefix(size_t(n));
  }
  if (error.empty() && ::fsync(fd) != 0)
    error = absl::StrCat("fsync failed: ", std::strerror(errno));
  if (::close(fd) != 0 && error.empty())
    error = absl::StrCat("close failed: ", std::strerror(errno));
  if (error.empty() && ::rename(tmp.c_str(), path.c_str()) != 0)
    error = absl::StrCat("cannot rename over it: ", std::strerror(errno));
  if (error.empty()) SyncDirectoryOf(path);
  if (!error.empty()) {
    ::unlink(tmp.c_str());
    return absl::InternalError(absl::StrCat(path, ": ", error,
                                            " (the previous file is kept)"));
  }
  return absl::OkStatus();
}

void SyncDirectoryOf(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::filesystem::path dir = parent.empty() ? "." : parent;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the file is written; only its durability is weaker
  ::fsync(fd);
  ::close(fd);
}

std::string ResolvePath(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

std::string CommandLinePath(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  return cwd ? ResolvePath(cwd, path) : path;
}

}  // namespace chess
