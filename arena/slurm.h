// A match on a Slurm cluster: one array task per shard (arena --shard=I/N into
// OUTPUT_DIR/shard-I on a shared filesystem, requeued after preemption, each
// resuming its own log), then a job that depends on them all and merges. The
// one place that writes the batch scripts, submits them and waits for them,
// for the front door (arena/venue.h), through which every match comes.
#ifndef ARENA_SLURM_H_
#define ARENA_SLURM_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena/match_log.pb.h"
#include "arena/merge.h"

namespace chess {

struct SlurmJob {
  std::string arena;       // absolute path of the arena binary to run
  std::string config;      // absolute path of the match config
  std::string output_dir;  // absolute; shard-I/ and merged/ go below it
  std::string name;        // job name
  int shards = 1;
  int cpus_per_task = 1;                    // also each shard's concurrency
  std::vector<std::string> sbatch_options;  // extra #SBATCH lines
};

// InvalidArgument, naming the field, when a path, the name or an sbatch
// option holds a control character (a newline would end its #SBATCH line
// and run the rest as a command on every node), or the shard count is out
// of [1, 10000].
absl::Status ValidateSlurmJob(const SlurmJob& job);

// The sbatch script of the shards (an array job). `job` must be valid.
std::string ShardArrayScript(const SlurmJob& job);
// The sbatch script of the merge; submit it with
// --dependency=afterany:<array job id>. Its exit code is the arena's.
std::string MergeScript(const SlurmJob& job);

// Validates `job`, writes OUTPUT_DIR/shards.sbatch and merge.sbatch (running
// job.arena: the run's copy, arena/venue.h), submits both and, when `wait`,
// waits for the merge: returns its exit code (the arena's), else 0 once
// submitted. Progress lines go to `notes`.
absl::StatusOr<int> SubmitSlurmJob(SlurmJob job, bool wait,
                                   std::ostream& notes);

// Inside an allocation (salloc, sbatch): the shards as the tasks of one
// `srun` step (task I plays shard I, running job.arena), then their logs
// merged here into OUTPUT_DIR/merged. Returns the merged standings.
absl::StatusOr<MatchSummary> PlayShardsWithSrun(const SlurmJob& job);

// A job as `scontrol show job -o ID` describes it.
struct SlurmJobState {
  std::string state;   // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...
  int exit_code = -1;  // of the batch script, once ended; -1: none given
  bool ended = false;  // no longer pending, running, suspended or requeued
};
// An empty state when `text` holds no JobState.
SlurmJobState ParseJobState(const std::string& text);

// What each start of a shard's array task prints first, then
// "I on NODE (job J_I, restart R)", into OUTPUT_DIR/shard-I/slurm-*.out.
inline constexpr char kShardStartPrefix[] = "slurm start: shard ";
// Where the shard whose directory is `shard_dir` ran: the node of its last
// start and how many starts its Slurm output records (none: an empty run).
ShardRun ReadShardRun(const std::string& shard_dir);

// `text` quoted for a POSIX shell.
std::string ShellQuote(const std::string& text);

}  // namespace chess

#endif  // ARENA_SLURM_H_
