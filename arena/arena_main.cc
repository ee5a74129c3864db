// arena: plays matches between engine configurations and external UCI engines.
//
//   arena [run] [CONFIG]     play (or resume) a match; default: the main job,
//                            configs/matches/default.textproto
//   arena [run] CONFIG --shard=I/N   play shard I of N (its own output_dir)
//   arena summary LOG|DIR... standings recomputed from a match log (several:
//                            the shards of a match, merged in memory)
//   arena pgn LOG|DIR...     a match log as PGN on stdout
//   arena merge --output_dir=DIR LOG|DIR...   the shards' logs as one match
//   arena status DIR|LOG...  progress over all shards while they run
//   arena book --out=FILE    make a balanced EPD opening book
//
// Exit codes: 0 match complete or SPRT accepted H1; 1 SPRT accepted H0; 2 bad
// input; 3 an engine could not be started; 4 the log could not be written.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "arena/book_maker.h"
#include "arena/match.h"
#include "arena/merge.h"
#include "engine/config.h"

ABSL_FLAG(std::string, output_dir, "",
          "overrides the match config's output_dir");
ABSL_FLAG(int, concurrency, 0, "games at once; overrides the config (0: keep)");
ABSL_FLAG(bool, fresh, false,
          "start over even if output_dir holds a log of this match");
ABSL_FLAG(bool, resume, true,
          "continue the match in output_dir if its log exists (default)");
ABSL_FLAG(bool, drop_damaged, false,
          "resume a log with damaged records by dropping them (kept as "
          "games.log.damaged) and playing their games again");
ABSL_FLAG(bool, progress, true, "live progress on stderr");
ABSL_FLAG(std::string, shard, "",
          "I/N: play only shard I of N of the match (game pairs dealt "
          "round-robin), into its own output_dir; merge with arena merge");
ABSL_FLAG(std::string, out, "", "book: output EPD file");
ABSL_FLAG(int, positions, 600, "book: number of positions");
ABSL_FLAG(int, plies, 8, "book: random plies from the initial position");
ABSL_FLAG(int, margin_cp, 60,
          "book: keep positions scored within +-margin by the check search");
ABSL_FLAG(int, check_depth, 7, "book: depth of the check search");
ABSL_FLAG(int, candidate_margin_cp, 40,
          "book: each random ply picks among moves within this of the best (0: "
          "any legal move)");
ABSL_FLAG(uint64_t, seed, 1, "book: random seed");

extern char** environ;

namespace {

// Runs a program (argv, no shell) and returns what it printed on stdout.
std::string Capture(std::vector<std::string> args) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  const int error = ::posix_spawnp(&pid, argv[0], &actions, nullptr,
                                   argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string text;
  if (error == 0) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(out[0], buffer, sizeof buffer)) > 0 ||
           (n < 0 && errno == EINTR)) {
      if (n > 0) text.append(buffer, size_t(n));
    }
    ::waitpid(pid, nullptr, 0);
  }
  ::close(out[0]);
  return text;
}

// The workspace's git revision, "-dirty" when tracked files changed.
std::string GitRevision() {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string dir = workspace ? workspace : ".";
  std::string revision = std::string(absl::StripTrailingAsciiWhitespace(
      Capture({"git", "-C", dir, "rev-parse", "--short=12", "HEAD"})));
  if (revision.empty()) return "unknown";
  if (!Capture({"git", "-C", dir, "status", "--porcelain",
                "--untracked-files=no"})
           .empty()) {
    revision += "-dirty";
  }
  return revision;
}

// The logs that operands name (files, output directories, directories of
// shards), with the user's working directory under `bazel run`.
absl::StatusOr<std::vector<std::string>> LogPaths(
    const std::vector<char*>& args) {
  std::vector<std::string> operands;
  for (size_t i = 2; i < args.size(); ++i)
    operands.push_back(chess::CommandLinePath(args[i]));
  if (operands.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(args[1], " needs match logs (OUTPUT_DIR, OUTPUT_DIR/",
                     "games.log, or a directory of shard-*/ directories)"));
  }
  return chess::ExpandLogPaths(operands);
}

// One log as it is; several (the shards of a match) merged in memory.
absl::StatusOr<chess::LogContents> ReadLogs(
    const std::vector<std::string>& paths) {
  if (paths.size() == 1) {
    absl::StatusOr<chess::LogContents> log = chess::ReadLog(paths[0]);
    if (log.ok() && log->empty())
      return absl::InvalidArgumentError(paths[0] + ": empty log");
    return log;
  }
  absl::StatusOr<chess::MergedLog> merged =
      chess::MergeLogs(paths, /*final_merge=*/false);
  if (!merged.ok()) return merged.status();
  for (const std::string& note : merged->notes) std::cerr << note << "\n";
  return std::move(merged->log);
}

int SummaryOrPgn(const std::vector<char*>& args) {
  const std::string command = args[1];
  absl::StatusOr<std::vector<std::string>> paths = LogPaths(args);
  absl::StatusOr<chess::LogContents> log =
      paths.ok() ? ReadLogs(*paths) : paths.status();
  if (!log.ok()) {
    std::cerr << log.status().message() << "\n";
    return chess::kExitBadInput;
  }
  if (command == "summary") {
    const chess::MatchSummary summary = chess::SummarizeLog(*log);
    std::cout << chess::FormatSummary(summary);
    return summary.exit_code();
  }
  std::cout << chess::LogToPgn(*log) << std::flush;
  if (!std::cout) {
    std::cerr << "pgn: cannot write the output\n";
    return chess::kExitIoError;
  }
  for (const std::string& d : log->damage)
    std::cerr << (*paths)[0] << ": damaged, not exported: " << d << "\n";
  return log->damage.empty() ? 0 : chess::kExitBadInput;
}

int Merge(const std::vector<char*>& args) {
  const std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (out.empty()) {
    std::cerr << "merge needs --output_dir for the merged log\n";
    return chess::kExitBadInput;
  }
  absl::StatusOr<std::vector<std::string>> paths = LogPaths(args);
  absl::StatusOr<chess::MergedLog> merged =
      paths.ok() ? chess::MergeLogs(*paths, /*final_merge=*/true)
                 : absl::StatusOr<chess::MergedLog>(paths.status());
  if (!merged.ok()) {
    std::cerr << merged.status().message() << "\n";
    return chess::kExitBadInput;
  }
  absl::StatusOr<chess::MatchSummary> summary = chess::WriteMerge(*merged, out);
  if (!summary.ok()) {
    std::cerr << summary.status().message() << "\n";
    return absl::IsInvalidArgument(summary.status()) ? chess::kExitBadInput
                                                     : chess::kExitIoError;
  }
  for (const std::string& note : merged->notes) std::cerr << note << "\n";
  std::cout << chess::FormatSummary(*summary);
  std::cerr << merged->sources.size() << " logs merged into " << out
            << "/games.log\n";
  return summary->exit_code();
}

int Status(const std::vector<char*>& args) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths(args);
  absl::StatusOr<chess::MergedLog> merged =
      paths.ok() ? chess::MergeLogs(*paths, /*final_merge=*/false)
                 : absl::StatusOr<chess::MergedLog>(paths.status());
  if (!merged.ok()) {
    std::cerr << merged.status().message() << "\n";
    return chess::kExitBadInput;
  }
  std::cout << chess::FormatProgress(*merged, absl::Now());
  return 0;
}

// "I/N" with 0 <= I < N.
bool ParseShard(const std::string& text, int* index, int* count) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  return parts.size() == 2 && absl::SimpleAtoi(parts[0], index) &&
         absl::SimpleAtoi(parts[1], count) && *count >= 1 && *count <= 100000 &&
         *index >= 0 && *index < *count;
}

int Run(const std::string& config_path) {
  absl::StatusOr<chess::LoadedMatch> match = chess::LoadMatch(config_path);
  if (!match.ok()) {
    std::cerr << match.status().message() << "\n";
    return chess::kExitBadInput;
  }
  chess::RunOptions options;
  options.output_dir = chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (options.output_dir.empty() && !match->config.output_dir().empty()) {
    options.output_dir = chess::CommandLinePath(match->config.output_dir());
  }
  options.fresh = absl::GetFlag(FLAGS_fresh) || !absl::GetFlag(FLAGS_resume);
  options.drop_damaged = absl::GetFlag(FLAGS_drop_damaged);
  options.concurrency = absl::GetFlag(FLAGS_concurrency);
  options.progress = absl::GetFlag(FLAGS_progress);
  options.revision = GitRevision();
  if (const std::string shard = absl::GetFlag(FLAGS_shard); !shard.empty() &&
      !ParseShard(shard, &options.shard_index, &options.shard_count)) {
    std::cerr << "--shard=" << shard
              << ": expected I/N with 0 <= I < N (shard I of N)\n";
    return chess::kExitBadInput;
  }
  return chess::RunMatch(*match, options);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "arena [run] [CONFIG] [--shard=I/N] | summary LOG... | pgn LOG... | "
      "merge --output_dir=DIR LOG... | status DIR... | book --out=FILE\n"
      "Exit codes: 0 complete or H1, 1 H0, 2 bad input, 3 engine failure, 4 "
      "I/O error.");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  ::signal(SIGPIPE,
           SIG_IGN);  // a dead engine's pipe must be an error, not our death
  std::string command = args.size() > 1 ? args[1] : "run";
  std::string operand = args.size() > 2 ? args[2] : "";
  if (command != "run" && command != "summary" && command != "pgn" &&
      command != "merge" && command != "status" && command != "book") {
    operand = command;  // "arena CONFIG"
    command = "run";
  }
  if (command == "run") {
    if (operand.empty()) {
      // The main job: the default match, from the workspace under `bazel run`.
      const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
      operand = absl::StrCat(workspace ? workspace : ".",
                             "/configs/matches/default.textproto");
      return Run(operand);
    }
    return Run(chess::CommandLinePath(operand));
  }
  if (command == "summary" || command == "pgn") return SummaryOrPgn(args);
  if (command == "merge") return Merge(args);
  if (command == "status") return Status(args);
  chess::BookOptions book;
  book.positions = absl::GetFlag(FLAGS_positions);
  book.plies = absl::GetFlag(FLAGS_plies);
  book.margin_cp = absl::GetFlag(FLAGS_margin_cp);
  book.check_depth = absl::GetFlag(FLAGS_check_depth);
  book.candidate_margin_cp = absl::GetFlag(FLAGS_candidate_margin_cp);
  book.seed = absl::GetFlag(FLAGS_seed);
  const std::string out = chess::CommandLinePath(absl::GetFlag(FLAGS_out));
  if (out.empty() || book.positions < 1 || book.plies < 1) {
    std::cerr << "book needs --out=FILE, --positions >= 1 and --plies >= 1\n";
    return chess::kExitBadInput;
  }
  absl::StatusOr<std::vector<std::string>> fens =
      chess::MakeBook(chess::DefaultEngineConfig(), book, &std::cerr);
  if (!fens.ok()) {
    std::cerr << fens.status().message() << "\n";
    return chess::kExitBadInput;
  }
  std::string text;
  for (const std::string& fen : *fens) absl::StrAppend(&text, fen, "\n");
  if (absl::Status s = chess::WriteFileAtomically(out, text); !s.ok()) {
    std::cerr << s.message() << "\n";
    return chess::kExitIoError;
  }
  std::cerr << fens->size() << " positions written to " << out << "\n";
  return 0;
}
