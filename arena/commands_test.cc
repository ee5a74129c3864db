#include "arena/commands.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/exit_code.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// A two-game match of two built-in players at 200 nodes a move, in `dir`.
std::string WriteMatch(const std::string& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/m.textproto";
  std::ofstream(path) << "name: \"commands\"\n"
                         "players { name: \"a\" config {} }\n"
                         "players { name: \"b\" config {} }\n"
                         "games: 2\ntime_control { nodes: 200 }\n"
                         "adjudication { max_moves: 10 }\n";
  return path;
}

TEST(ArenaCommandsTest, PlayThenReadTheLogEveryWay) {
  const std::string dir = ::testing::TempDir() + "/arena-commands";
  RunRequest run;
  run.config = WriteMatch(dir);
  run.output_dir = dir + "/out";
  run.progress = false;
  std::ostringstream out, err;
  ASSERT_EQ(RunCommand(run, out, err), kExitOk) << err.str();
  const std::string log_dir = run.output_dir;
  ASSERT_TRUE(fs::exists(log_dir + "/games.log")) << err.str();

  std::ostringstream summary, pgn, report, status, merged, notes;
  EXPECT_EQ(SummaryCommand({log_dir}, "a=2000", summary, notes), kExitOk);
  EXPECT_THAT(summary.str(), HasSubstr("2 games"));
  EXPECT_EQ(PgnCommand({log_dir + "/games.log"}, pgn, notes), kExitOk);
  EXPECT_THAT(pgn.str(), HasSubstr("[White \"a\"]"));
  EXPECT_EQ(ReportCommand({log_dir}, dir + "/report", 3, report, notes),
            kExitOk);
  EXPECT_TRUE(fs::exists(dir + "/report/report.html"));
  EXPECT_EQ(StatusCommand({log_dir}, status, notes), kExitOk);
  EXPECT_FALSE(status.str().empty());
  EXPECT_EQ(MergeCommand({log_dir}, dir + "/merged", merged, notes), kExitOk)
      << notes.str();
  EXPECT_TRUE(fs::exists(dir + "/merged/games.log"));
}

TEST(ArenaCommandsTest, BadRequestsSayWhatIsWrong) {
  std::ostringstream out, err;
  EXPECT_EQ(SummaryCommand({}, "", out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("summary needs match logs"));
  err.str("");
  EXPECT_EQ(MergeCommand({"x"}, "", out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("merge needs --output_dir"));
  err.str("");
  RunRequest run;
  run.config = ::testing::TempDir() + "/no-such-match.textproto";
  EXPECT_EQ(RunCommand(run, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("no-such-match.textproto"));
  err.str("");
  run.config = WriteMatch(::testing::TempDir() + "/arena-shard");
  run.shard = "3/3";
  EXPECT_EQ(RunCommand(run, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("--shard=3/3: expected I/N"));
  err.str("");
  EXPECT_EQ(BookCommand(BookOptions(), "", err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("book needs --out=FILE"));
}

TEST(ArenaCommandsTest, SlurmDryRunPrintsTheScripts) {
  const std::string dir = ::testing::TempDir() + "/arena-slurm";
  SlurmRequest slurm;
  slurm.config = WriteMatch(dir);
  slurm.shards = 2;
  slurm.output_dir = dir + "/out";
  slurm.dry_run = true;
  slurm.arena = "/opt/arena";
  std::ostringstream out, err;
  ASSERT_EQ(SlurmCommand(slurm, out, err), kExitOk) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("#SBATCH --array=0-1"));
  slurm.shards = 0;
  EXPECT_EQ(SlurmCommand(slurm, out, err), kExitBadInput);
  EXPECT_THAT(err.str(), HasSubstr("--shards=0 is below 1"));
}

}  // namespace
}  // namespace chess
