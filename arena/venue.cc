#include "arena/venue.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "arena/log_reader.h"
#include "arena/match_outputs.h"
#include "arena/merge.h"
#include "arena/slurm.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

std::string Absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

// The run's copy of the arena binary, made once: a copy already there with
// the same contents is kept (a running shard keeps the file it started; a
// changed binary is copied beside and renamed over it).
absl::StatusOr<std::string> CopyArenaOnce(const Venue& venue,
                                          const std::string& output_dir) {
  const std::string copy = RunCopyOfArena(venue, output_dir);
  std::error_code ec;
  const uintmax_t size = fs::file_size(venue.arena, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("slurm: cannot read the arena binary ", venue.arena, ": ",
                     ec.message()));
  }
  // Every match of a run comes here (an SPSA run: every iteration): the
  // binaries are compared byte for byte only where their sizes agree.
  if (std::error_code none; fs::file_size(copy, none) == size && !none) {
    absl::StatusOr<std::string> source = ReadFile(venue.arena);
    absl::StatusOr<std::string> old = ReadFile(copy);
    if (source.ok() && old.ok() && *old == *source) return copy;
  }
  fs::create_directories(fs::path(copy).parent_path(), ec);
  fs::copy_file(venue.arena, copy + ".partial",
                fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(copy + ".partial", copy, ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("slurm: cannot copy ", venue.arena,
                                            " to ", copy, ": ", ec.message()));
  }
  return copy;
}

// The job the match is on Slurm, checked; nothing written yet.
absl::StatusOr<SlurmJob> DescribeJob(const LoadedMatch& match,
                                     const Venue& venue,
                                     const std::string& output_dir) {
  if (absl::Status s = ValidateVenue(venue); !s.ok()) return s;
  if (venue.shards == 0 || output_dir.empty()) {
    return absl::InvalidArgumentError(
        "slurm: needs shards and an output directory every node sees");
  }
  SlurmJob job;
  job.output_dir = Absolute(output_dir);
  job.name = match.config.name().empty() ? "arena" : match.config.name();
  job.shards = venue.shards;
  job.cpus_per_task = venue.cpus_per_shard;
  job.sbatch_options = venue.sbatch_options;
  job.config = job.output_dir + "/match.textproto";
  job.arena = RunCopyOfArena(venue, job.output_dir);
  if (absl::Status s = ValidateSlurmJob(job); !s.ok()) return s;
  return job;
}

// DescribeJob's job, made ready: the match's resolved config written where
// the shards read it, the run's copy of the binary made.
absl::StatusOr<SlurmJob> JobFor(const LoadedMatch& match, const Venue& venue,
                                const std::string& output_dir) {
  absl::StatusOr<SlurmJob> described = DescribeJob(match, venue, output_dir);
  if (!described.ok()) return described.status();
  SlurmJob job = *std::move(described);
  std::error_code ec;
  fs::create_directories(job.output_dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat(job.output_dir, ": cannot create it: ", ec.message()));
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(match.config, &text);
  if (absl::Status s = WriteFileAtomically(
          job.config,
          absl::StrCat("# ", match.source.empty() ? "the match" : match.source,
                       " as the shards play it: engines inline, paths "
                       "absolute.\n",
                       text));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::string> copy = CopyArenaOnce(venue, job.output_dir);
  if (!copy.ok()) return copy.status();
  return job;
}

}  // namespace

absl::Status ValidateVenue(const Venue& venue) {
  if (venue.shards < 0 || venue.shards > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("shards: ", venue.shards, " is outside [0, 10000]"));
  }
  if (venue.cpus_per_shard < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("cpus_per_shard: ", venue.cpus_per_shard, ": at least 1"));
  }
  if (venue.shards > 0 && venue.arena.empty())
    return absl::InvalidArgumentError("arena: no binary for the shards to run");
  if (venue.shards > 0 && venue.use_srun && !std::getenv("SLURM_JOB_ID")) {
    return absl::InvalidArgumentError(
        "srun: not inside an allocation (SLURM_JOB_ID is not set); run under "
        "salloc or sbatch, or submit batch jobs instead");
  }
  return absl::OkStatus();
}

absl::StatusOr<MatchSummary> PlayAnywhere(const LoadedMatch& match,
                                          const Venue& venue,
                                          const RunOptions& options) {
  if (venue.shards == 0) return PlayMatchForSummary(match, options);
  absl::StatusOr<SlurmJob> job = JobFor(match, venue, options.output_dir);
  if (!job.ok()) return job.status();
  if (venue.use_srun) return PlayShardsWithSrun(*job);
  // The job ids go out as soon as they are known: a user (or a test) may
  // watch the shards while this waits.
  std::ostringstream unheard;
  const absl::StatusOr<int> code = SubmitSlurmJob(
      *job, /*wait=*/true, options.notes ? *options.notes : unheard);
  if (!code.ok()) return code.status();
  if (*code != kExitOk && *code != kExitH0) {
    return absl::Status(
        StatusCodeForExit(*code),
        absl::StrCat("the merge of ", job->config, " exited with ", *code,
                     "; see ", job->output_dir, "/merge-*.out"));
  }
  return SummarizeLog(PlayedLogPath(options.output_dir, venue));
}

absl::Status SubmitAnywhere(const LoadedMatch& match, const Venue& venue,
                            const std::string& output_dir,
                            std::ostream& notes) {
  if (venue.shards == 0 || venue.use_srun) {
    return absl::InvalidArgumentError(
        "submitting without waiting needs shards as batch jobs");
  }
  absl::StatusOr<SlurmJob> job = JobFor(match, venue, output_dir);
  if (!job.ok()) return job.status();
  const absl::StatusOr<int> code = SubmitSlurmJob(*job, /*wait=*/false, notes);
  return code.ok() ? absl::OkStatus() : code.status();
}

absl::StatusOr<std::string> SlurmScripts(const LoadedMatch& match,
                                         const Venue& venue,
                                         const std::string& output_dir) {
  absl::StatusOr<SlurmJob> job = DescribeJob(match, venue, output_dir);
  if (!job.ok()) return job.status();
  return absl::StrCat("# ", job->output_dir, "/shards.sbatch\n",
                      ShardArrayScript(*job), "\n# ", job->output_dir,
                      "/merge.sbatch (--dependency=afterany:<shards job>)\n",
                      MergeScript(*job));
}

std::string PlayedLogPath(const std::string& output_dir, const Venue& venue) {
  const fs::path dir(output_dir);
  return (venue.shards > 0 ? dir / "merged" / "games.log" : dir / "games.log")
      .string();
}

std::string RunCopyOfArena(const Venue& venue, const std::string& output_dir) {
  return (fs::path(venue.run_dir.empty() ? Absolute(output_dir)
                                         : Absolute(venue.run_dir)) /
          "bin" / "arena")
      .string();
}

namespace {

absl::StatusOr<MergedLog> MergeForReading(const std::vector<std::string>& logs,
                                          std::vector<std::string>* notes) {
  absl::StatusOr<MergedLog> merged = MergeLogs(logs, /*final_merge=*/false);
  if (!merged.ok()) return merged.status();
  notes->insert(notes->end(), merged->notes.begin(), merged->notes.end());
  return merged;
}

}  // namespace

absl::StatusOr<MatchSummary> ReadMatchSummary(
    const std::vector<std::string>& logs, std::vector<std::string>* notes) {
  if (logs.size() == 1) return SummarizeLog(logs[0]);
  absl::StatusOr<MergedLog> merged = MergeForReading(logs, notes);
  if (!merged.ok()) return merged.status();
  return merged->summary;
}

absl::StatusOr<ReportedLog> ReadMatchForReport(
    const std::vector<std::string>& logs, std::vector<std::string>* notes) {
  if (logs.size() == 1) return ReadLogForReport(logs[0]);
  absl::StatusOr<MergedLog> merged = MergeForReading(logs, notes);
  if (!merged.ok()) return merged.status();
  return ReadGamesForReport(
      [&](StartScan start, TakeGames take) {
        return ScanMerged(*merged, start, take);
      },
      logs[0]);
}

absl::StatusOr<LogPgn> ReadMatchAsPgn(const std::vector<std::string>& logs,
                                      std::vector<std::string>* notes) {
  if (logs.size() == 1) return ReadLogAsPgn(logs[0]);
  absl::StatusOr<MergedLog> merged = MergeForReading(logs, notes);
  if (!merged.ok()) return merged.status();
  return ReadGamesAsPgn(
      [&](StartScan start, TakeGames take) {
        return ScanMerged(*merged, start, take);
      },
      logs[0]);
}

}  // namespace chess
