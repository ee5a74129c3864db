#include "common/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace chess {
namespace {

bool IsCharacterDevice(const char* path) {
  struct stat st;
  return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

TEST(FilesTest, WritesARegularFileWholeAndLeavesNoTemporary) {
  const std::string path = ::testing::TempDir() + "/whole.txt";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new contents").ok());
  EXPECT_EQ(*ReadFile(path), "new contents");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_FALSE(IsSpecialFile(path));
  EXPECT_FALSE(IsSpecialFile(::testing::TempDir()));
  EXPECT_FALSE(IsSpecialFile(path + ".missing"));
}

TEST(FilesTest, WriteAllToFdWritesEverythingOrNamesThePath) {
  const std::string path = ::testing::TempDir() + "/fd.txt";
  const std::string big(1 << 20, 'x');  // more than one write(2) may take
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(WriteAllToFd(fd, big, path).ok());
  ::close(fd);
  EXPECT_EQ(ReadFile(path)->size(), big.size());

  const int read_only = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(read_only, 0);
  const absl::Status refused = WriteAllToFd(read_only, "more", path);
  ::close(read_only);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find(path + ": write failed"), std::string::npos)
      << refused;
}

// `--out=/dev/null` is a user's way to throw an output away: renaming a
// temporary file over it would, run as root, replace the device by a regular
// file for every program on the machine.
TEST(FilesTest, DevNullIsWrittenInPlaceAndStaysADevice) {
  ASSERT_TRUE(IsCharacterDevice("/dev/null"));
  EXPECT_TRUE(IsSpecialFile("/dev/null"));
  const absl::Status written = WriteFileAtomically("/dev/null", "thrown away");
  EXPECT_TRUE(written.ok()) << written;
  EXPECT_TRUE(IsCharacterDevice("/dev/null"));
  EXPECT_FALSE(std::filesystem::exists("/dev/null.tmp"));
}

// A pipe receives the contents, and stays a pipe.
TEST(FilesTest, AFifoReceivesTheContentsInPlace) {
  const std::string fifo = ::testing::TempDir() + "/out.fifo";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo);
    received.assign(std::istreambuf_iterator<char>(in), {});
  });
  const absl::Status written = WriteFileAtomically(fifo, "through the pipe");
  reader.join();
  EXPECT_TRUE(written.ok()) << written;
  EXPECT_EQ(received, "through the pipe");
  struct stat st;
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

// One writer per output directory: a second lock is refused, naming the
// directory, until the first is released.
TEST(FilesTest, ADirectoryLockIsHeldByOneAtATime) {
  const std::string dir = ::testing::TempDir() + "/locked";
  std::filesystem::create_directories(dir);
  {
    absl::StatusOr<DirectoryLock> first = DirectoryLock::Acquire(dir);
    ASSERT_TRUE(first.ok()) << first.status();
    absl::StatusOr<DirectoryLock> second = DirectoryLock::Acquire(dir);
    ASSERT_FALSE(second.ok());
    EXPECT_TRUE(absl::IsFailedPrecondition(second.status()));
    EXPECT_NE(second.status().message().find(dir), std::string::npos);
    EXPECT_NE(second.status().message().find("another run"), std::string::npos);
  }
  EXPECT_TRUE(DirectoryLock::Acquire(dir).ok());
  EXPECT_FALSE(DirectoryLock::Acquire(dir + "/missing").ok());
}

TEST(FilesTest, SameFileSeesThroughSpellings) {
  const std::string dir = ::testing::TempDir() + "/same";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a") << "x";
  std::filesystem::remove(dir + "/link");
  std::filesystem::create_symlink(dir + "/a", dir + "/link");
  EXPECT_TRUE(SameFile(dir + "/a", dir + "/./a"));
  EXPECT_TRUE(SameFile(dir + "/a", dir + "/link"));
  EXPECT_FALSE(SameFile(dir + "/a", dir + "/b"));
  EXPECT_TRUE(SameFile(dir + "/new", dir + "/../same/new"));  // neither exists
}

}  // namespace
}  // namespace chess
