#include "arena/slurm.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace chess {
namespace {

std::string Header(const SlurmJob& job, const std::string& suffix) {
  std::string text = absl::StrCat("#!/bin/bash\n#SBATCH --job-name=", job.name,
                                  "-", suffix, "\n");
  for (const std::string& option : job.sbatch_options)
    absl::StrAppend(&text, "#SBATCH ", option, "\n");
  return text;
}

}  // namespace

SlurmJobState ParseJobState(const std::string& text) {
  SlurmJobState job;
  for (absl::string_view field :
       absl::StrSplit(text, absl::ByAnyChar(" \n"), absl::SkipEmpty())) {
    if (absl::ConsumePrefix(&field, "JobState=")) {
      job.state = std::string(field);
    } else if (absl::ConsumePrefix(&field, "ExitCode=")) {
      // "code:signal"; a signal counts as the shell would report it.
      std::vector<absl::string_view> parts = absl::StrSplit(field, ':');
      int code = 0, signal = 0;
      if (parts.size() == 2 && absl::SimpleAtoi(parts[0], &code) &&
          absl::SimpleAtoi(parts[1], &signal)) {
        job.exit_code = signal != 0 ? 128 + signal : code;
      }
    }
  }
  static constexpr absl::string_view kLive[] = {
      "PENDING",     "RUNNING",       "SUSPENDED",  "REQUEUED", "REQUEUE_HOLD",
      "REQUEUE_FED", "CONFIGURING",   "COMPLETING", "RESIZING", "SIGNALING",
      "STAGE_OUT",   "RESV_DEL_HOLD", "STOPPED"};
  job.ended = !job.state.empty() &&
              std::find(std::begin(kLive), std::end(kLive), job.state) ==
                  std::end(kLive);
  return job;
}

std::string ShellQuote(const std::string& text) {
  return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "'\\''"}}), "'");
}

std::string ShardArrayScript(const SlurmJob& job) {
  // Slurm does not create the directory of --output: the submitter makes
  // OUTPUT_DIR/shard-I/ first.
  std::string text = Header(job, "shards");
  absl::StrAppend(
      &text, "#SBATCH --array=0-", job.shards - 1, "\n",
      "#SBATCH --cpus-per-task=", job.cpus_per_task, "\n",
      "#SBATCH --ntasks=1\n", "#SBATCH --requeue\n",
      "#SBATCH --open-mode=append\n", "#SBATCH --output=", job.output_dir,
      "/shard-%a/slurm-%A_%a.out\n",
      "# Each task plays one shard into its own log; a requeued or restarted\n",
      "# task resumes that log, so nothing is lost or played twice.\n", "exec ",
      ShellQuote(job.arena), " ", ShellQuote(job.config),
      " --shard=\"$SLURM_ARRAY_TASK_ID/", job.shards, "\"",
      " --output_dir=", ShellQuote(job.output_dir),
      "\"/shard-$SLURM_ARRAY_TASK_ID\"", " --concurrency=", job.cpus_per_task,
      " --progress=false\n");
  return text;
}

std::string MergeScript(const SlurmJob& job) {
  std::string text = Header(job, "merge");
  absl::StrAppend(&text, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n",
                  "#SBATCH --output=", job.output_dir, "/merge-%j.out\n",
                  "# Exit code: the arena's (0 complete or H1, 1 H0, 2 bad ",
                  "input, 3 engine failure, 4 I/O).\n", "exec ",
                  ShellQuote(job.arena), " merge ", ShellQuote(job.output_dir),
                  " --output_dir=", ShellQuote(job.output_dir), "/merged\n");
  return text;
}

}  // namespace chess
