// The front door: one place that plays a match anywhere (in this process, as
// Slurm batch jobs, or as job steps inside an allocation) and says where its
// games are. `arena run`, `arena slurm` and every match of the tuner (SPSA,
// datagen, the loops, the gate) come here; arena/slurm.h writes and submits
// the scripts for it.
#ifndef ARENA_VENUE_H_
#define ARENA_VENUE_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena/match.h"
#include "arena/match_log.pb.h"
#include "arena/match_outputs.h"
#include "arena/report.h"

namespace chess {

// Where a match is played. Every way gives the same games, so the same
// standings: node-limited games do not depend on where they are played.
struct Venue {
  // 0: in this process. N > 0: the match split into N shards (game pairs
  // dealt round-robin, arena --shard=I/N) on Slurm, merged when they are done.
  int shards = 0;
  int cpus_per_shard = 1;  // each shard's concurrency
  // The arena binary the shards run. It is copied once per run into
  // `run_dir`/bin/arena, on the shared filesystem, and the shards run that
  // copy: nodes that never built it can, and a rebuild during the run changes
  // nothing.
  std::string arena;
  // Where that copy goes; empty: the match's output directory. The tuner
  // gives its run's directory, so that its many matches share one copy.
  std::string run_dir;
  // Extra #SBATCH lines for the batch jobs.
  std::vector<std::string> sbatch_options;
  // Inside an allocation (salloc or sbatch: SLURM_JOB_ID is set): the shards
  // as the tasks of one srun step instead of batch jobs, no queueing per
  // match.
  bool use_srun = false;
};

// InvalidArgument naming the field: shards outside [0, 10000], fewer than one
// CPU a shard, srun outside an allocation, no arena binary for shards.
absl::Status ValidateVenue(const Venue& venue);

// Plays (or resumes) `match` into `options.output_dir` where `venue` says and
// returns its standings: in process, PlayMatchForSummary's; on Slurm, those
// of OUTPUT_DIR/merged/ once every shard is done. On Slurm the match's config
// (resolved: engines inline, paths absolute) is written to
// OUTPUT_DIR/match.textproto for the shards to read.
absl::StatusOr<MatchSummary> PlayAnywhere(const LoadedMatch& match,
                                          const Venue& venue,
                                          const RunOptions& options);

// On Slurm only: submits the shards and their merge as batch jobs and returns
// once they are queued, progress lines (the job ids) on `notes`. The run's
// directory then tells how it goes (arena status).
absl::Status SubmitAnywhere(const LoadedMatch& match, const Venue& venue,
                            const std::string& output_dir, std::ostream& notes);

// The two batch scripts SubmitAnywhere would submit (arena slurm --dry_run);
// nothing is written or copied.
absl::StatusOr<std::string> SlurmScripts(const LoadedMatch& match,
                                         const Venue& venue,
                                         const std::string& output_dir);

// Where the shards' copy of the arena binary goes: RUN_DIR/bin/arena, the run
// directory being venue.run_dir or else `output_dir`.
std::string RunCopyOfArena(const Venue& venue, const std::string& output_dir);

// A match's games read wherever they lie: one log, or the logs of its shards
// merged where their games lie and read again in schedule order (a batch at
// a time: a large match is never held in memory). `logs` as ExpandLogPaths
// gives them; what a merge of shards still running notes (a missing shard, a
// torn tail) goes to `notes`.
absl::StatusOr<MatchSummary> ReadMatchSummary(
    const std::vector<std::string>& logs, std::vector<std::string>* notes);
absl::StatusOr<ReportedLog> ReadMatchForReport(
    const std::vector<std::string>& logs, std::vector<std::string>* notes);
absl::StatusOr<LogPgn> ReadMatchAsPgn(const std::vector<std::string>& logs,
                                      std::vector<std::string>* notes);

// The log that holds all of a match's games once played at `venue`:
// OUTPUT_DIR/games.log in process, OUTPUT_DIR/merged/games.log on Slurm.
std::string PlayedLogPath(const std::string& output_dir, const Venue& venue);

}  // namespace chess

#endif  // ARENA_VENUE_H_
