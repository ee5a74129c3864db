#include "arena/slurm.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TEST(SlurmTest, JobStateOfARunningAndAnEndedJob) {
  const SlurmJobState running = ParseJobState(
      "JobId=21 JobName=m-merge UserId=root(0) JobState=PENDING "
      "Reason=Dependency ExitCode=0:0\n");
  EXPECT_EQ(running.state, "PENDING");
  EXPECT_FALSE(running.ended);
  const SlurmJobState done =
      ParseJobState("JobId=21 JobState=COMPLETED Reason=None ExitCode=1:0");
  EXPECT_TRUE(done.ended);
  EXPECT_EQ(done.exit_code, 1);
  const SlurmJobState killed =
      ParseJobState("JobId=21 JobState=CANCELLED ExitCode=0:9");
  EXPECT_TRUE(killed.ended);
  EXPECT_EQ(killed.exit_code, 137);
  EXPECT_FALSE(ParseJobState("slurm_load_jobs error: Invalid job id").ended);
  EXPECT_EQ(ParseJobState("").state, "");
}

SlurmJob JobOf(const std::string& arena, const std::string& config) {
  SlurmJob job;
  job.arena = arena;
  job.config = config;
  job.output_dir = "/shared/run";
  job.name = "m";
  return job;
}

TEST(SlurmTest, ShardScriptQuotesPathsAndResumesEachShard) {
  SlurmJob job = JobOf("/opt/my arena/arena", "/data/it's.textproto");
  job.shards = 4;
  job.cpus_per_task = 2;
  const std::string script = ShardArrayScript(job);
  EXPECT_THAT(script, HasSubstr("#SBATCH --array=0-3\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --cpus-per-task=2\n"));
  EXPECT_THAT(script, HasSubstr("#SBATCH --requeue\n"));
  EXPECT_THAT(script, HasSubstr("exec '/opt/my arena/arena' "
                                "'/data/it'\\''s.textproto'"));
  EXPECT_THAT(script, HasSubstr("--shard=\"$SLURM_ARRAY_TASK_ID/4\""));
  EXPECT_THAT(MergeScript(job), HasSubstr("merge '/shared/run'"));
}

// Each start of a shard says where it runs; arena status counts the starts
// and names the node of the last (a requeued shard started twice).
TEST(SlurmTest, ShardStartsAreReadFromTheShardsOutput) {
  const std::string script =
      ShardArrayScript(JobOf("/opt/arena", "/data/m.textproto"));
  EXPECT_THAT(script, HasSubstr(absl::StrCat("echo \"", kShardStartPrefix,
                                             "$SLURM_ARRAY_TASK_ID on ")));
  const std::string dir = ::testing::TempDir() + "shard-0";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(ReadShardRun(dir).starts, 0) << "no output yet";
  std::ofstream(dir + "/slurm-8_0.out")
      << kShardStartPrefix << "0 on node1 (job 8_0, restart 0)\n"
      << "resuming: nothing\n"
      << kShardStartPrefix << "0 on node2 (job 8_0, restart 1)\n"
      << "resuming: 6 games in the log, 26 to play\n";
  const ShardRun run = ReadShardRun(dir);
  EXPECT_EQ(run.node, "node2");
  EXPECT_EQ(run.starts, 2);
  EXPECT_EQ(ReadShardRun(dir + "/absent").starts, 0);
}

// A newline in the name, the output directory or an sbatch option would end
// its #SBATCH line and run the rest as a command on every node.
TEST(SlurmTest, ControlCharactersAreRefusedBeforeAnyScriptIsWritten) {
  const SlurmJob job = JobOf("/opt/arena", "/data/m.textproto");
  EXPECT_TRUE(ValidateSlurmJob(job).ok());
  SlurmJob bad = job;
  bad.name = "m\ntouch /tmp/pwned";
  EXPECT_THAT(ValidateSlurmJob(bad).message(), HasSubstr("name"));
  bad = job;
  bad.output_dir = "/shared/run\nrm -rf ~";
  EXPECT_THAT(ValidateSlurmJob(bad).message(), HasSubstr("output_dir"));
  bad = job;
  bad.sbatch_options = {"--partition=x\nid"};
  EXPECT_THAT(ValidateSlurmJob(bad).message(), HasSubstr("--sbatch"));
  bad = job;
  bad.shards = 0;
  EXPECT_FALSE(ValidateSlurmJob(bad).ok());
  std::ostringstream notes;
  bad = job;
  bad.name = "m\rx";
  EXPECT_EQ(SubmitSlurmJob(bad, false, notes).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace chess
