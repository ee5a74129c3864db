// Reading and durably writing whole files, and resolving paths: what every
// program of the harness (engine configs, match logs, results, PGN, tuner
// records) shares.
#ifndef COMMON_FILES_H_
#define COMMON_FILES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace chess {

// Reads a whole file; the error names the path (a directory is an error).
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Writes `contents` beside `path`, syncs it and renames it over `path`: a crash
// or a full disk leaves the old file or the new one, never a part. A special
// file (IsSpecialFile: /dev/null, a pipe) is written in place instead.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view contents);
// The error of the system call that just failed on `path`, as every writer
// reports it: "<path>: <what>: <strerror(errno)>".
absl::Status ErrnoError(absl::string_view what, const std::string& path);
// Writes all of `data` to `fd`, again after a short or interrupted write; the
// error names `path`.
absl::Status WriteAllToFd(int fd, absl::string_view data,
                          const std::string& path);
// Whether `path` exists and is neither a regular file nor a directory: a device
// such as /dev/null or /dev/stdout, a FIFO, a socket. Outputs are written into
// such a file in place, since renaming over it would replace it by a regular
// file (run as root, /dev/null itself).
bool IsSpecialFile(const std::string& path);
// fsync(2), or fdatasync(2) when `data_only`: true when the data is durable or
// `fd` is a special file, which has nothing to sync (EINVAL); false with errno
// set otherwise.
bool SyncFd(int fd, bool data_only = false);
// Syncs the directory holding `path`, so that a rename into it survives a
// crash of the machine.
void SyncDirectoryOf(const std::string& path);

// An exclusive lock on a directory (flock(2) on the directory itself, so no
// file is left behind), held until destroyed: one writer at a time in an
// output directory. Released by the kernel if the process dies.
class DirectoryLock {
 public:
  // FailedPrecondition, naming `dir`, when another process (or another lock of
  // this one) holds it.
  static absl::StatusOr<DirectoryLock> Acquire(const std::string& dir);
  DirectoryLock(DirectoryLock&& other) noexcept : fd_(other.fd_) {
    other.fd_ = -1;
  }
  DirectoryLock& operator=(DirectoryLock&& other) noexcept;
  ~DirectoryLock();

 private:
  explicit DirectoryLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Whether `a` and `b` name the same file: the same inode when both exist,
// else the same normalized absolute path.
bool SameFile(const std::string& a, const std::string& b);

// A path named in a config file: relative paths are relative to the config's
// directory.
std::string ResolvePath(const std::string& base_dir, const std::string& path);

// A path given on the command line: relative to where the user ran the command,
// also under `bazel run` (which changes into the runfiles and says where the
// user was).
std::string CommandLinePath(const std::string& path);

}  // namespace chess

#endif  // COMMON_FILES_H_
