// The arena's commands that play: run, fastchess's options, slurm and book.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "arena/commands.h"
#include "arena/fastchess_cli.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "arena/pgn_out.h"
#include "arena/venue.h"
#include "common/exit_code.h"
#include "common/files.h"
#include "common/program.h"
#include "engine/config.h"
#include "google/protobuf/text_format.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

// The workspace: where `bazel run` was started, else the working directory.
std::string WorkspaceDirectory() {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  return workspace ? workspace : ".";
}

// The workspace's git revision, "-dirty" when tracked files changed.
std::string GitRevision() {
  const std::string dir = WorkspaceDirectory();
  std::string revision = std::string(absl::StripTrailingAsciiWhitespace(
      RunProgram({"git", "-C", dir, "rev-parse", "--short=12", "HEAD"}).out));
  if (revision.empty()) return "unknown";
  if (!RunProgram(
           {"git", "-C", dir, "status", "--porcelain", "--untracked-files=no"})
           .out.empty()) {
    revision += "-dirty";
  }
  return revision;
}

// "I/N" with 0 <= I < N.
bool ParseShard(const std::string& text, int* index, int* count) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  return parts.size() == 2 && absl::SimpleAtoi(parts[0], index) &&
         absl::SimpleAtoi(parts[1], count) && *count >= 1 && *count <= 100000 &&
         *index >= 0 && *index < *count;
}

// The main job's match: the default one, from the workspace.
std::string MainJobConfig() {
  return WorkspaceDirectory() + "/configs/matches/default.textproto";
}

// Writes fastchess's options, translated, as `dir`/match.textproto; an
// existing one the arena did not write is the user's and stays.
absl::StatusOr<std::string> WriteTranslation(
    const std::vector<std::string>& options, const FastchessMatch& match,
    const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string text;
  google::protobuf::TextFormat::PrintToString(match.config, &text);
  const std::string config_path = dir + "/match.textproto";
  if (const absl::StatusOr<std::string> existing = ReadFile(config_path);
      existing.ok() && !IsFastchessTranslation(*existing)) {
    return absl::AlreadyExistsError(
        absl::StrCat(config_path,
                     " exists and is not a translation the arena wrote; name "
                     "another --output_dir"));
  }
  if (absl::Status s = WriteFileAtomically(
          config_path, absl::StrCat(FastchessConfigHeader(options), text));
      !s.ok()) {
    return s;
  }
  return config_path;
}

}  // namespace

int RunCommand(const RunRequest& request, std::ostream& out,
               std::ostream& err) {
  const std::string config_path = request.config.empty()
                                      ? MainJobConfig()
                                      : CommandLinePath(request.config);
  absl::StatusOr<LoadedMatch> match = LoadMatch(config_path);
  if (!match.ok()) {
    err << match.status().message() << "\n";
    return kExitBadInput;
  }
  RunOptions options;
  options.output_dir = CommandLinePath(request.output_dir);
  if (options.output_dir.empty() && !match->config.output_dir().empty())
    options.output_dir = CommandLinePath(match->config.output_dir());
  options.fresh = request.fresh;
  options.drop_damaged = request.drop_damaged;
  options.concurrency = request.concurrency;
  options.progress = request.progress;
  options.out = &out;
  options.notes = &err;
  options.notes_are_terminal = request.err_is_terminal;
  options.revision = GitRevision();
  if (!request.shard.empty() &&
      !ParseShard(request.shard, &options.shard_index, &options.shard_count)) {
    err << "--shard=" << request.shard
        << ": expected I/N with 0 <= I < N (shard I of N)\n";
    return kExitBadInput;
  }
  return RunMatch(*match, options);
}

int FastchessCommand(const std::vector<std::string>& options,
                     const std::string& cwd, RunRequest run, std::ostream& out,
                     std::ostream& err) {
  absl::StatusOr<FastchessMatch> match = TranslateFastchessArgs(options, cwd);
  if (!match.ok()) {
    err << match.status().message() << "\n";
    return kExitBadInput;
  }
  std::string dir = CommandLinePath(run.output_dir);
  if (dir.empty()) dir = FastchessOutputDir(match->config.name(), cwd);
  dir = fs::absolute(dir).lexically_normal().string();
  match->config.set_output_dir(dir);
  if (!match->pgn_out.empty()) {
    if (absl::Status s =
            CheckPgnOut(match->pgn_out, dir, match->config.openings().file());
        !s.ok()) {
      err << s.message() << "\n";
      return kExitBadInput;
    }
  }
  absl::StatusOr<std::string> config_path =
      WriteTranslation(options, *match, dir);
  if (!config_path.ok()) {
    err << config_path.status().message() << "\n";
    return ExitCodeFor(config_path.status());
  }
  err << "fastchess options written as " << *config_path << "\n";
  run.config = *config_path;
  run.output_dir.clear();  // the translation names it
  const int code = RunCommand(run, out, err);
  std::error_code ec;
  if (!match->pgn_out.empty() && fs::exists(dir + "/games.pgn", ec)) {
    if (absl::Status s = AppendNewGames(dir, match->pgn_out); !s.ok()) {
      err << s.message() << "\n";
      return code == 0 ? kExitIoError : code;
    }
  }
  return code;
}

int SlurmCommand(const SlurmRequest& request, std::ostream& out,
                 std::ostream& err) {
  const std::string config = fs::absolute(CommandLinePath(request.config));
  absl::StatusOr<LoadedMatch> match = LoadMatch(config);
  if (!match.ok()) {
    err << match.status().message() << "\n";
    return kExitBadInput;
  }
  Venue venue;
  venue.shards = request.shards;
  venue.cpus_per_shard = request.cpus_per_shard > 0
                             ? request.cpus_per_shard
                             : std::max(1, match->config.concurrency());
  venue.arena = request.arena.empty()
                    ? fs::read_symlink("/proc/self/exe").string()
                    : request.arena;
  venue.sbatch_options = request.sbatch_options;
  if (venue.shards < 1) {
    err << "slurm: --shards=" << venue.shards << " is below 1\n";
    return kExitBadInput;
  }
  std::string dir = CommandLinePath(request.output_dir);
  if (dir.empty()) dir = CommandLinePath(match->config.output_dir());
  if (dir.empty()) {
    err << "slurm needs an output_dir (config or --output_dir) on a "
           "filesystem every node sees\n";
    return kExitBadInput;
  }
  if (request.dry_run) {
    absl::StatusOr<std::string> scripts = SlurmScripts(*match, venue, dir);
    if (!scripts.ok()) {
      err << scripts.status().message() << "\n";
      return kExitBadInput;
    }
    out << *scripts;
    return kExitOk;
  }
  if (!request.wait) {
    const absl::Status s = SubmitAnywhere(*match, venue, dir, err);
    if (!s.ok()) err << s.message() << "\n";
    return ExitCodeFor(s);
  }
  RunOptions options;
  options.output_dir = dir;
  options.notes = &err;
  const absl::StatusOr<MatchSummary> summary =
      PlayAnywhere(*match, venue, options);
  if (!summary.ok()) {
    err << summary.status().message() << "\n";
    return ExitCodeFor(summary.status());
  }
  out << FormatSummary(*summary);
  return summary->exit_code();
}

int BookCommand(const BookOptions& book, const std::string& out_path,
                std::ostream& err) {
  const std::string out = CommandLinePath(out_path);
  if (out.empty() || book.positions < 1 || book.plies < 1) {
    err << "book needs --out=FILE, --positions >= 1 and --plies >= 1\n";
    return kExitBadInput;
  }
  absl::StatusOr<std::vector<std::string>> fens =
      MakeBook(DefaultEngineConfig(), book, &err);
  if (!fens.ok()) {
    err << fens.status().message() << "\n";
    return kExitBadInput;
  }
  std::string text;
  for (const std::string& fen : *fens) absl::StrAppend(&text, fen, "\n");
  if (absl::Status s = WriteFileAtomically(out, text); !s.ok()) {
    err << s.message() << "\n";
    return kExitIoError;
  }
  err << fens->size() << " positions written to " << out << "\n";
  return kExitOk;
}

}  // namespace chess
