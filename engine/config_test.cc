#include "engine/config.h"

#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "engine/eval_weights.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TEST(ConfigTest, ShippedConfigsLoadAndValidate) {
  for (const char* name :
       {"default", "simplified", "material", "pesto", "tuned"}) {
    SCOPED_TRACE(name);
    auto config =
        LoadEngineConfig(absl::StrCat("configs/engines/", name, ".textproto"));
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(config->name(), name);
    EXPECT_TRUE(EvalWeights::FromProto(config->eval()).ok());
  }
}

TEST(ConfigTest, SimplifiedHasTheFoundingValues) {
  auto config = LoadEngineConfig("configs/engines/simplified.textproto");
  ASSERT_TRUE(config.ok()) << config.status();
  const PieceValues& v = config->eval().value_mg();
  EXPECT_EQ(v.pawn(), 100);
  EXPECT_EQ(v.knight(), 320);
  EXPECT_EQ(v.bishop(), 330);
  EXPECT_EQ(v.rook(), 500);
  EXPECT_EQ(v.queen(), 900);
  EXPECT_EQ(v.king(), 20000);
}

TEST(ConfigTest, BuiltInDefaultEqualsTheShippedFile) {
  auto config = LoadEngineConfig("configs/engines/default.textproto");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->SerializeAsString(),
            DefaultEngineConfig().SerializeAsString());
  EXPECT_TRUE(ValidateEngineConfig(DefaultEngineConfig()).ok());
}

TEST(ConfigTest, SyntaxErrorNamesFileLineAndColumn) {
  auto config = ParseEngineConfig(
      "name: \"x\"\nsearch {\n  nul_move: true\n}\n", "my.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()),
              HasSubstr("my.textproto:3:"));
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("nul_move"));
}

// A technique that lost its SPRT leaves its name reserved: a config that still
// sets it must fail to load, not load with the switch silently ignored.
TEST(ConfigTest, ARemovedSearchOptionFailsToLoad) {
  for (const char* name : {"razoring", "null_move_tt_guard"}) {
    SCOPED_TRACE(name);
    auto config = ParseEngineConfig(
        absl::StrCat("name: \"x\"\nsearch {\n  hash_mb: 8\n  ", name,
                     ": true\n}\n"),
        "old.textproto");
    ASSERT_FALSE(config.ok());
    EXPECT_THAT(std::string(config.status().message()),
                HasSubstr("old.textproto:4:3: "));
    EXPECT_THAT(std::string(config.status().message()), HasSubstr(name));
  }
}

TEST(ConfigTest, RangeErrorNamesFileLineAndField) {
  auto config =
      ParseEngineConfig("search {\n  hash_mb: 100000000\n}\n", "big.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()),
              HasSubstr("big.textproto:2:"));
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("hash_mb"));
}

TEST(ConfigTest, WrongTableSizeIsRejected) {
  auto config = ParseEngineConfig("eval {\n  pst_mg { pawn: [1, 2, 3] }\n}\n",
                                  "t.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()),
              HasSubstr("t.textproto:2:"));
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("pawn"));
}

TEST(ConfigTest, MissingFileIsAnErrorNamingIt) {
  auto config = LoadEngineConfig("no/such/file.textproto");
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()),
              HasSubstr("no/such/file.textproto"));
}

// A full disk (here: a file size limit, EFBIG) fails the write with a message
// and leaves the previous file whole.
TEST(WriteFileAtomicallyTest, FailedWriteKeepsTheOldFile) {
  const std::string path = ::testing::TempDir() + "atomic.txt";
  ASSERT_TRUE(WriteFileAtomically(path, "old contents\n").ok());
  rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  void (*previous)(int) = ::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const absl::Status status =
      WriteFileAtomically(path, std::string(100000, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, previous);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr(path));
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("previous file is kept"));
  EXPECT_EQ(*ReadFile(path), "old contents\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  ASSERT_TRUE(WriteFileAtomically(path, "new\n").ok());
  EXPECT_EQ(*ReadFile(path), "new\n");
}

TEST(ReadFileTest, DirectoriesAndDevicesAreNotFiles) {
  EXPECT_THAT(std::string(ReadFile(::testing::TempDir()).status().message()),
              HasSubstr("is a directory"));
  EXPECT_THAT(std::string(ReadFile("/dev/zero").status().message()),
              HasSubstr("not a regular file"));
}

TEST(ConfigTest, EmptyTextIsAValidConfig) {
  auto config = ParseEngineConfig("", "empty");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->search().algorithm(), SearchParams::PVS);
}

}  // namespace
}  // namespace chess
