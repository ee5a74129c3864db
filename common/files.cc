#include "common/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/parallel.h"

namespace chess {
namespace {

// Reads [0, size) of `fd` into `out` in equal parts on every core, for a large
// file: copying it out of the page cache and faulting in the string's pages
// is most of reading a large log, and one core does it at a fraction of the
// machine's pace. Returns how far the file was read without a gap (the caller
// reads on from there, and reads again whatever failed).
size_t ReadInParallel(int fd, size_t size, char* out) {
  constexpr size_t kPartBytes = 32 << 20;
  const size_t parts =
      std::clamp<size_t>(std::min(size / kPartBytes, CoreCount()), 1, 16);
  std::vector<size_t> done(parts);
  ForEachSlice(size, parts, [&](size_t p, size_t begin, size_t end) {
    size_t at = begin;
    while (at < end) {
      const ssize_t n = ::pread(fd, out + at, end - at, off_t(at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      at += size_t(n);
    }
    done[p] = at - begin;
  });
  size_t read = 0;
  for (size_t p = 0; p < parts; ++p) {
    read += done[p];
    if (read != size * (p + 1) / parts) break;
  }
  return read;
}

}  // namespace

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
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  // Read straight into a string of the file's size (a match log can be
  // hundreds of megabytes: no chunk copied twice, no string regrown); a file
  // that grows meanwhile, or a pipe, is read to its end all the same.
  struct stat info;
  std::string data;
  size_t size = 0;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    data.resize(size_t(info.st_size) + 1);
    size = ReadInParallel(fd, size_t(info.st_size), data.data());
  }
  for (;;) {
    if (size == data.size()) data.resize(std::max<size_t>(1 << 16, 2 * size));
    const ssize_t n =
        ::pread(fd, data.data() + size, data.size() - size, off_t(size));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return absl::DataLossError(absl::StrCat("cannot read ", path));
    }
    if (n == 0) break;
    size += size_t(n);
  }
  ::close(fd);
  data.resize(size);
  return data;
}

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat(path, ": ", what, ": ", std::strerror(errno)));
}

namespace {

absl::Status WriteInPlace(const std::string& path, absl::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open", path);
  absl::Status status = WriteAllToFd(fd, contents, path);
  if (::close(fd) != 0 && status.ok())
    status = ErrnoError("close failed", path);
  return status;
}

}  // namespace

absl::Status WriteAllToFd(int fd, absl::string_view data,
                          const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoError("write failed", path);
    data.remove_prefix(size_t(n));
  }
  return absl::OkStatus();
}

bool IsSpecialFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
         !S_ISDIR(st.st_mode);
}

absl::StatusOr<DirectoryLock> DirectoryLock::Acquire(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open the directory", dir);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const bool held = errno == EWOULDBLOCK;
    ::close(fd);
    if (!held) return ErrnoError("cannot lock the directory", dir);
    return absl::FailedPreconditionError(absl::StrCat(
        dir,
        ": another run (arena or tuner) is writing in this directory; wait "
        "for it to end or name another output directory"));
  }
  return DirectoryLock(fd);
}

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ec;
  const std::filesystem::path pa = std::filesystem::weakly_canonical(a, ec);
  const std::filesystem::path pb = std::filesystem::weakly_canonical(b, ec);
  return pa.lexically_normal() == pb.lexically_normal();
}

bool SyncFd(int fd, bool data_only) {
  const int rc = data_only ? ::fdatasync(fd) : ::fsync(fd);
  return rc == 0 || errno == EINVAL;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view contents) {
  if (IsSpecialFile(path)) return WriteInPlace(path, contents);
  const std::string tmp = path + ".tmp";
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", tmp);
  absl::Status status = WriteAllToFd(fd, contents, path);
  if (status.ok() && !SyncFd(fd)) status = ErrnoError("fsync failed", path);
  if (::close(fd) != 0 && status.ok())
    status = ErrnoError("close failed", path);
  if (status.ok() && ::rename(tmp.c_str(), path.c_str()) != 0)
    status = ErrnoError("cannot rename over it", path);
  if (status.ok()) {
    SyncDirectoryOf(path);
    return status;
  }
  ::unlink(tmp.c_str());
  return absl::InternalError(
      absl::StrCat(status.message(), " (the previous file is kept)"));
}

void SyncDirectoryOf(const std::string& path) {
  const std::filesystem::path parent =
      std::filesystem::path(path).parent_path();
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
