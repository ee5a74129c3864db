// The arena's commands that read match logs: summary, pgn, report, merge and
// status.
#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arena/commands.h"
#include "arena/merge.h"
#include "arena/report.h"
#include "arena/slurm.h"
#include "arena/venue.h"
#include "common/exit_code.h"
#include "common/files.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The logs that operands name (files, output directories, directories of
// shards), with the user's working directory under `bazel run`.
absl::StatusOr<std::vector<std::string>> LogPaths(
    const std::string& command, const std::vector<std::string>& logs) {
  std::vector<std::string> operands;
  for (const std::string& log : logs) operands.push_back(CommandLinePath(log));
  if (operands.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(command, " needs match logs (OUTPUT_DIR, OUTPUT_DIR/",
                     "games.log, or a directory of shard-*/ directories)"));
  }
  return ExpandLogPaths(operands);
}

void PrintNotes(const std::vector<std::string>& notes, std::ostream& err) {
  for (const std::string& note : notes) err << note << "\n";
}

// Prints a failure; returns its exit code.
int Fail(const absl::Status& status, std::ostream& err,
         ExitCode code = kExitBadInput) {
  err << status.message() << "\n";
  return code;
}

// `anchors` (NAME=ELO,...) added to (and over) those of the log's config.
absl::Status AddAnchors(const std::string& anchors, MatchSummary* summary) {
  if (anchors.empty()) return absl::OkStatus();
  absl::StatusOr<std::map<std::string, double>> parsed = ParseAnchors(anchors);
  if (!parsed.ok()) return parsed.status();
  for (const auto& [name, elo] : summary->anchor_elo())
    parsed->insert({name, elo});  // the flag's win
  return RateAgainstAnchors(*parsed, summary);
}

// Where `report` writes: `output_dir`, else beside the log; shards found
// under one directory, there.
std::string ReportDir(const std::vector<std::string>& paths,
                      const std::string& output_dir) {
  std::string dir = CommandLinePath(output_dir);
  if (!dir.empty()) return dir;
  std::error_code ec;
  dir = fs::is_directory(paths[0], ec)
            ? paths[0]
            : fs::path(paths[0]).parent_path().string();
  if (paths.size() > 1) dir = fs::path(dir).parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace

int SummaryCommand(const std::vector<std::string>& logs,
                   const std::string& anchors, std::ostream& out,
                   std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("summary", logs);
  if (!paths.ok()) return Fail(paths.status(), err);
  std::vector<std::string> notes;  // of several logs: missing shards, tails
  absl::StatusOr<MatchSummary> summary = ReadMatchSummary(*paths, &notes);
  PrintNotes(notes, err);
  if (!summary.ok()) return Fail(summary.status(), err);
  if (absl::Status s = AddAnchors(anchors, &*summary); !s.ok())
    return Fail(s, err);
  out << FormatSummary(*summary);
  return summary->exit_code();
}

int PgnCommand(const std::vector<std::string>& logs, std::ostream& out,
               std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("pgn", logs);
  if (!paths.ok()) return Fail(paths.status(), err);
  std::vector<std::string> notes;
  absl::StatusOr<LogPgn> log = ReadMatchAsPgn(*paths, &notes);
  PrintNotes(notes, err);
  if (!log.ok()) return Fail(log.status(), err);
  out << log->pgn << std::flush;
  if (!out) {
    err << "pgn: cannot write the output\n";
    return kExitIoError;
  }
  for (const std::string& d : log->scan.damage)
    err << (*paths)[0] << ": damaged, not exported: " << d << "\n";
  return log->scan.damage.empty() ? kExitOk : kExitBadInput;
}

int ReportCommand(const std::vector<std::string>& logs,
                  const std::string& output_dir, double inline_moves_mb,
                  std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("report", logs);
  if (!paths.ok()) return Fail(paths.status(), err);
  std::vector<std::string> notes;
  absl::StatusOr<ReportedLog> log = ReadMatchForReport(*paths, &notes);
  PrintNotes(notes, err);
  if (!log.ok()) return Fail(log.status(), err);
  const std::string dir = ReportDir(*paths, output_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  ReportOptions options;
  options.inline_moves_bytes =
      size_t(std::max(0.0, inline_moves_mb) * (1 << 20));
  if (absl::Status s = WriteMatchReport(log->data, log->header, dir, options);
      !s.ok()) {
    return Fail(s, err, kExitIoError);
  }
  const MatchSummary& summary = log->data.summary;
  for (const std::string& d : summary.damaged_records())
    err << (*paths)[0] << ": damaged, not in the report: " << d << "\n";
  out << dir << "/report.html\n";
  return summary.exit_code();
}

int MergeCommand(const std::vector<std::string>& logs,
                 const std::string& output_dir, std::ostream& out,
                 std::ostream& err) {
  const std::string dir = CommandLinePath(output_dir);
  if (dir.empty()) {
    err << "merge needs --output_dir for the merged log\n";
    return kExitBadInput;
  }
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("merge", logs);
  if (!paths.ok()) return Fail(paths.status(), err);
  absl::StatusOr<MergedLog> merged = MergeLogs(*paths, /*final_merge=*/true);
  if (!merged.ok()) return Fail(merged.status(), err);
  absl::StatusOr<MatchSummary> summary = WriteMerge(*merged, dir);
  if (!summary.ok())
    return Fail(summary.status(), err, ExitCodeFor(summary.status()));
  PrintNotes(merged->notes, err);
  out << FormatSummary(*summary);
  err << merged->sources.size() << " logs merged into " << dir
      << "/games.log\n";
  return summary->exit_code();
}

int StatusCommand(const std::vector<std::string>& logs, std::ostream& out,
                  std::ostream& err) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("status", logs);
  if (!paths.ok()) return Fail(paths.status(), err);
  absl::StatusOr<MergedLog> merged = MergeLogs(*paths, /*final_merge=*/false);
  if (!merged.ok()) return Fail(merged.status(), err);
  // Where each shard ran, from the Slurm output beside its log.
  std::map<int, ShardRun> runs;
  for (size_t i = 0; i < merged->sources.size(); ++i) {
    const int shard = merged->progress[i].shard_index;
    if (shard >= 0) {
      runs[shard] =
          ReadShardRun(fs::path(merged->sources[i]).parent_path().string());
    }
  }
  out << FormatProgress(*merged, absl::Now(), runs);
  return kExitOk;
}

}  // namespace chess
