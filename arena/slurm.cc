#include "arena/slurm.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arena/merge.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/program.h"

namespace chess {
namespace {

std::string Header(const SlurmJob& job, const std::string& suffix) {
  std::string text = absl::StrCat("#!/bin/bash\n#SBATCH --job-name=", job.name,
                                  "-", suffix, "\n");
  for (const std::string& option : job.sbatch_options)
    absl::StrAppend(&text, "#SBATCH ", option, "\n");
  return text;
}

bool HasControlCharacter(absl::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

// Waits for a Slurm job to end and returns its exit code: polled twice a
// second (sbatch --wait polls for up to 10 s, too slow for the tuner's short
// matches).
absl::StatusOr<int> WaitForJob(const std::string& id) {
  int unknown = 0;
  while (true) {
    const SlurmJobState job =
        ParseJobState(RunProgram({"scontrol", "show", "job", "-o", id}).out);
    if (job.ended) {
      if (job.exit_code >= 0) return job.exit_code;
      return absl::InternalError(
          absl::StrCat("job ", id, " ended without an exit code"));
    }
    // Gone from slurmctld's memory (MinJobAge) or slurmctld unreachable for
    // a minute: the job's exit code is lost.
    if (job.state.empty() && ++unknown > 120) {
      return absl::InternalError(
          absl::StrCat("job ", id, " is unknown to scontrol; see its output"));
    }
    if (!job.state.empty()) unknown = 0;
    absl::SleepFor(absl::Milliseconds(500));
  }
}

// sbatch --parsable's job id ("ID" or "ID;CLUSTER"); empty when it failed.
std::string Submit(const std::vector<std::string>& args) {
  const ProgramOutput out = RunProgram(args, /*show_errors=*/true);
  if (out.exit_code != 0) return "";
  const std::string id(absl::StripAsciiWhitespace(out.out));
  return id.substr(0, id.find(';'));
}

}  // namespace

absl::Status ValidateSlurmJob(const SlurmJob& job) {
  const std::pair<const char*, const std::string*> fields[] = {
      {"arena binary", &job.arena},
      {"config", &job.config},
      {"output_dir", &job.output_dir},
      {"name", &job.name}};
  for (const auto& [field, value] : fields) {
    if (HasControlCharacter(*value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("slurm: the ", field,
                       " holds a control character (a newline would "
                       "end its #SBATCH line): \"",
                       absl::CEscape(*value), "\""));
    }
  }
  for (const std::string& option : job.sbatch_options) {
    if (HasControlCharacter(option)) {
      return absl::InvalidArgumentError(
          absl::StrCat("slurm: --sbatch option \"", absl::CEscape(option),
                       "\" holds a control character"));
    }
  }
  if (job.shards < 1 || job.shards > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("slurm: --shards=", job.shards, " is outside [1, 10000]"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> SubmitSlurmJob(SlurmJob job, bool wait,
                                   std::ostream& notes) {
  namespace fs = std::filesystem;
  if (absl::Status s = ValidateSlurmJob(job); !s.ok()) return s;
  std::error_code ec;
  for (int i = 0; i < job.shards; ++i)
    fs::create_directories(absl::StrCat(job.output_dir, "/shard-", i), ec);
  for (const auto& [name, text] :
       {std::pair{"shards.sbatch", ShardArrayScript(job)},
        std::pair{"merge.sbatch", MergeScript(job)}}) {
    if (absl::Status s = WriteFileAtomically(job.output_dir + "/" + name, text);
        !s.ok()) {
      return s;
    }
  }
  const std::string shards_id =
      Submit({"sbatch", "--parsable", job.output_dir + "/shards.sbatch"});
  if (shards_id.empty()) {
    return absl::UnavailableError(absl::StrCat(
        "sbatch could not submit ", job.output_dir, "/shards.sbatch"));
  }
  notes << "shards: job " << shards_id << " (" << job.shards
        << " array tasks); progress: arena status " << job.output_dir << "\n";
  const std::string merge_id =
      Submit({"sbatch", "--parsable",
              absl::StrCat("--dependency=afterany:", shards_id),
              job.output_dir + "/merge.sbatch"});
  if (merge_id.empty())
    return absl::UnavailableError("sbatch could not submit the merge job");
  notes << "merge: job " << merge_id << " into " << job.output_dir
        << "/merged\n";
  if (!wait) return kExitOk;
  return WaitForJob(merge_id);
}

absl::StatusOr<MatchSummary> PlayShardsWithSrun(const SlurmJob& job) {
  if (absl::Status s = ValidateSlurmJob(job); !s.ok()) return s;
  // $SLURM_PROCID numbers the tasks of a step: task I plays shard I.
  const std::string task =
      absl::StrCat("exec \"$0\" \"$1\" --shard=\"$SLURM_PROCID/", job.shards,
                   "\" --output_dir=\"$2/shard-$SLURM_PROCID\" --concurrency=",
                   job.cpus_per_task, " --progress=false");
  const ProgramOutput step =
      RunProgram({"srun", absl::StrCat("--ntasks=", job.shards),
                  absl::StrCat("--cpus-per-task=", job.cpus_per_task),
                  "--kill-on-bad-exit=0", "--quiet", "/bin/bash", "-c", task,
                  job.arena, job.config, job.output_dir},
                 /*show_errors=*/true);
  // A shard's exit code 1 (H0) is a verdict, not a failure; the merge tells.
  if (step.exit_code < 0 || step.exit_code > kExitH0) {
    return absl::InternalError(absl::StrCat(
        "srun of the shards of ", job.config, " exited with ", step.exit_code,
        step.exit_code < 0 ? " (srun not found)" : ""));
  }
  absl::StatusOr<MergedLog> merged =
      MergeLogs(ShardLogsIn(job.output_dir), /*final_merge=*/true);
  if (!merged.ok()) return merged.status();
  return WriteMerge(*merged, job.output_dir + "/merged");
}

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
      "# task resumes that log, so nothing is lost or played twice. Each "
      "start\n",
      "# says where it runs (arena status reads it).\n", "echo \"",
      kShardStartPrefix,
      "$SLURM_ARRAY_TASK_ID on ${SLURMD_NODENAME:-$(hostname)} (job ",
      "${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID, restart ",
      "${SLURM_RESTART_COUNT:-0})\"\n", "exec ", ShellQuote(job.arena), " ",
      ShellQuote(job.config), " --shard=\"$SLURM_ARRAY_TASK_ID/", job.shards,
      "\"", " --output_dir=", ShellQuote(job.output_dir),
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

ShardRun ReadShardRun(const std::string& shard_dir) {
  ShardRun run;
  std::error_code error;
  std::vector<std::string> outputs;
  for (const auto& entry :
       std::filesystem::directory_iterator(shard_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, "slurm-") && absl::EndsWith(name, ".out"))
      outputs.push_back(entry.path().string());
  }
  std::sort(outputs.begin(), outputs.end());
  for (const std::string& path : outputs) {
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) continue;
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      if (!absl::ConsumePrefix(&line, kShardStartPrefix)) continue;
      const size_t on = line.find(" on ");
      if (on == absl::string_view::npos) continue;
      line.remove_prefix(on + 4);
      run.node = std::string(line.substr(0, line.find(' ')));
      ++run.starts;
    }
  }
  return run;
}

}  // namespace chess
