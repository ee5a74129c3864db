// A match on a Slurm cluster: one array task per shard (arena --shard=I/N into
// OUTPUT_DIR/shard-I on a shared filesystem, requeued after preemption, each
// resuming its own log), then a job that depends on them all and merges.
#ifndef ARENA_SLURM_H_
#define ARENA_SLURM_H_

#include <string>
#include <vector>

namespace chess {

struct SlurmJob {
  std::string arena;       // absolute path of the arena binary
  std::string config;      // absolute path of the match config
  std::string output_dir;  // absolute; shard-I/ and merged/ go below it
  std::string name;        // job name
  int shards = 1;
  int cpus_per_task = 1;                    // also each shard's concurrency
  std::vector<std::string> sbatch_options;  // extra #SBATCH lines
};

// The sbatch script of the shards (an array job).
std::string ShardArrayScript(const SlurmJob& job);
// The sbatch script of the merge; submit it with
// --dependency=afterany:<array job id>. Its exit code is the arena's.
std::string MergeScript(const SlurmJob& job);
// A job as `scontrol show job -o ID` describes it.
struct SlurmJobState {
  std::string state;   // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...
  int exit_code = -1;  // of the batch script, once ended; -1: none given
  bool ended = false;  // no longer pending, running, suspended or requeued
};
// An empty state when `text` holds no JobState.
SlurmJobState ParseJobState(const std::string& text);

// `text` quoted for a POSIX shell.
std::string ShellQuote(const std::string& text);

}  // namespace chess

#endif  // ARENA_SLURM_H_
