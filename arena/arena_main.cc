// arena: plays matches between engine configurations and external UCI engines.
//
//   arena [run] [CONFIG]     play (or resume) a match; default: the main job,
//                            configs/matches/default.textproto
//   arena [run] CONFIG --shard=I/N   play shard I of N (its own output_dir)
//   arena summary LOG|DIR... [--anchors=NAME=ELO,...]
//                            standings recomputed from a match log (several:
//                            the shards of a match, merged in memory); with
//                            anchors, the other players' ratings on their scale
//   arena pgn LOG|DIR...     a match log as PGN on stdout
//   arena report LOG|DIR... [--output_dir=DIR] [--inline_moves_mb=3]
//                            report.html of a match log (written beside the
//                            log unless --output_dir)
//   arena merge --output_dir=DIR LOG|DIR...   the shards' logs as one match
//   arena status DIR|LOG...  progress over all shards while they run
//   arena slurm CONFIG --shards=N [--concurrency=C] [--sbatch=OPT,...] [--wait]
//                            [--dry_run]: the match as a Slurm array job of
//                            shards and a dependent merge job
//   arena book --out=FILE    make a balanced EPD opening book
//   arena [run] -engine cmd=A name=A -engine cmd=B name=B -each tc=10+0.1 ...
//                            fastchess's options (see arena/fastchess_cli.h),
//                            written as OUTPUT_DIR/match.textproto and played
//
// Exit codes: 0 match complete or SPRT accepted H1; 1 SPRT accepted H0; 2 bad
// input; 3 an engine could not be started; 4 the log could not be written.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "arena/book_maker.h"
#include "arena/fastchess_cli.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "arena/merge.h"
#include "arena/pgn_out.h"
#include "arena/report.h"
#include "arena/slurm.h"
#include "arena/venue.h"
#include "common/files.h"
#include "common/program.h"
#include "common/subcommands.h"
#include "common/termination.h"
#include "engine/config.h"
#include "google/protobuf/text_format.h"

ABSL_FLAG(std::string, output_dir, "",
          "overrides the match config's output_dir");
ABSL_FLAG(int, concurrency, 0, "games at once; overrides the config (0: keep)");
ABSL_FLAG(bool, fresh, false,
          "start over even if output_dir holds a log of this match (without "
          "it, the match in output_dir is resumed)");
ABSL_FLAG(bool, drop_damaged, false,
          "resume a log with damaged records by dropping them (kept as "
          "games.log.damaged) and playing their games again");
ABSL_FLAG(bool, progress, true, "live progress on stderr");
ABSL_FLAG(int, shards, 4, "slurm: number of shards (array tasks)");
ABSL_FLAG(int, cpus_per_shard, 0,
          "slurm: each shard's CPUs and games at once (0: the config's "
          "concurrency, at least 1)");
ABSL_FLAG(
    std::vector<std::string>, sbatch, {},
    "slurm: extra sbatch options, comma-separated (--sbatch=--partition=x)");
ABSL_FLAG(bool, dry_run, false, "slurm: print the scripts, submit nothing");
ABSL_FLAG(bool, wait, false,
          "slurm: wait for the merge job and exit with its exit code");
ABSL_FLAG(std::string, shard, "",
          "I/N: play only shard I of N of the match (game pairs dealt "
          "round-robin), into its own output_dir; merge with arena merge");
ABSL_FLAG(double, inline_moves_mb, 3,
          "report: game moves up to this size go inside report.html; beyond, "
          "into report-games/ beside it, loaded when a game is opened");
ABSL_FLAG(std::string, anchors, "",
          "summary: NAME=ELO,... players of known rating (for example "
          "sf-2400=2400), over the config's anchor_elo: every other player is "
          "rated from its games against them");
ABSL_FLAG(std::string, out, "", "book: output EPD file");
ABSL_FLAG(int, positions, chess::BookOptions().positions,
          "book: number of positions");
ABSL_FLAG(int, plies, chess::BookOptions().plies,
          "book: random plies from the initial position");
ABSL_FLAG(int, margin_cp, chess::BookOptions().margin_cp,
          "book: keep positions scored within +-margin by the check search");
ABSL_FLAG(int, check_depth, chess::BookOptions().check_depth,
          "book: depth of the check search");
ABSL_FLAG(int, candidate_margin_cp, chess::BookOptions().candidate_margin_cp,
          "book: each random ply picks among moves within this of the best (0: "
          "any legal move)");
ABSL_FLAG(uint64_t, seed, chess::BookOptions().seed, "book: random seed");

namespace {

// The workspace's git revision, "-dirty" when tracked files changed.
std::string GitRevision() {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string dir = workspace ? workspace : ".";
  std::string revision = std::string(absl::StripTrailingAsciiWhitespace(
      chess::RunProgram({"git", "-C", dir, "rev-parse", "--short=12", "HEAD"})
          .out));
  if (revision.empty()) return "unknown";
  if (!chess::RunProgram(
           {"git", "-C", dir, "status", "--porcelain", "--untracked-files=no"})
           .out.empty()) {
    revision += "-dirty";
  }
  return revision;
}

// The logs that operands name (files, output directories, directories of
// shards), with the user's working directory under `bazel run`.
absl::StatusOr<std::vector<std::string>> LogPaths(
    const std::string& command, const std::vector<char*>& args) {
  std::vector<std::string> operands;
  for (const char* arg : args) operands.push_back(chess::CommandLinePath(arg));
  if (operands.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(command, " needs match logs (OUTPUT_DIR, OUTPUT_DIR/",
                     "games.log, or a directory of shard-*/ directories)"));
  }
  return chess::ExpandLogPaths(operands);
}

// Writes report.html (the summary's figures and pictures) into --output_dir,
// or beside the log; exits as `arena summary` would.
int Report(const std::vector<std::string>& paths,
           const chess::ReportedLog& log) {
  namespace fs = std::filesystem;
  std::string dir = chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty()) {
    std::error_code ec;
    dir = fs::is_directory(paths[0], ec)
              ? paths[0]
              : fs::path(paths[0]).parent_path().string();
    // Shards found under one directory: the report goes there.
    if (paths.size() > 1) dir = fs::path(dir).parent_path().string();
    if (dir.empty()) dir = ".";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  chess::ReportOptions options;
  options.inline_moves_bytes =
      size_t(std::max(0.0, absl::GetFlag(FLAGS_inline_moves_mb)) * (1 << 20));
  if (absl::Status s =
          chess::WriteMatchReport(log.data, log.header, dir, options);
      !s.ok()) {
    std::cerr << s.message() << "\n";
    return chess::kExitIoError;
  }
  const chess::MatchSummary& summary = log.data.summary;
  for (const std::string& d : summary.damaged_records())
    std::cerr << paths[0] << ": damaged, not in the report: " << d << "\n";
  std::cout << dir << "/report.html\n";
  return summary.exit_code();
}

void PrintNotes(const std::vector<std::string>& notes) {
  for (const std::string& note : notes) std::cerr << note << "\n";
}

// --anchors, added to (and over) those of the log's config.
absl::Status AddAnchors(const std::string& flag, chess::MatchSummary* summary) {
  if (flag.empty()) return absl::OkStatus();
  absl::StatusOr<std::map<std::string, double>> anchors =
      chess::ParseAnchors(flag);
  if (!anchors.ok()) return anchors.status();
  for (const auto& [name, elo] : summary->anchor_elo())
    anchors->insert({name, elo});  // the flag's win
  return chess::RateAgainstAnchors(*anchors, summary);
}

// `command`: summary, pgn or report.
int SummaryOrPgn(const std::string& command, const std::vector<char*>& args) {
  std::vector<std::string> notes;  // of several logs: missing shards, tails
  absl::StatusOr<std::vector<std::string>> paths = LogPaths(command, args);
  if (!paths.ok()) {
    std::cerr << paths.status().message() << "\n";
    return chess::kExitBadInput;
  }
  if (command == "summary") {
    absl::StatusOr<chess::MatchSummary> summary =
        chess::ReadMatchSummary(*paths, &notes);
    PrintNotes(notes);
    if (!summary.ok()) {
      std::cerr << summary.status().message() << "\n";
      return chess::kExitBadInput;
    }
    if (absl::Status s = AddAnchors(absl::GetFlag(FLAGS_anchors), &*summary);
        !s.ok()) {
      std::cerr << s.message() << "\n";
      return chess::kExitBadInput;
    }
    std::cout << chess::FormatSummary(*summary);
    return summary->exit_code();
  }
  if (command == "report") {
    absl::StatusOr<chess::ReportedLog> log =
        chess::ReadMatchForReport(*paths, &notes);
    PrintNotes(notes);
    if (!log.ok()) {
      std::cerr << log.status().message() << "\n";
      return chess::kExitBadInput;
    }
    return Report(*paths, *log);
  }
  absl::StatusOr<chess::LogPgn> log = chess::ReadMatchAsPgn(*paths, &notes);
  PrintNotes(notes);
  if (!log.ok()) {
    std::cerr << log.status().message() << "\n";
    return chess::kExitBadInput;
  }
  std::cout << log->pgn << std::flush;
  if (!std::cout) {
    std::cerr << "pgn: cannot write the output\n";
    return chess::kExitIoError;
  }
  const std::vector<std::string>& damage = log->scan.damage;
  for (const std::string& d : damage)
    std::cerr << (*paths)[0] << ": damaged, not exported: " << d << "\n";
  return damage.empty() ? 0 : chess::kExitBadInput;
}

int Merge(const std::vector<char*>& args) {
  const std::string out =
      chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (out.empty()) {
    std::cerr << "merge needs --output_dir for the merged log\n";
    return chess::kExitBadInput;
  }
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("merge", args);
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
    return chess::ExitCodeFor(summary.status());
  }
  for (const std::string& note : merged->notes) std::cerr << note << "\n";
  std::cout << chess::FormatSummary(*summary);
  std::cerr << merged->sources.size() << " logs merged into " << out
            << "/games.log\n";
  return summary->exit_code();
}

int Status(const std::vector<char*>& args) {
  absl::StatusOr<std::vector<std::string>> paths = LogPaths("status", args);
  absl::StatusOr<chess::MergedLog> merged =
      paths.ok() ? chess::MergeLogs(*paths, /*final_merge=*/false)
                 : absl::StatusOr<chess::MergedLog>(paths.status());
  if (!merged.ok()) {
    std::cerr << merged.status().message() << "\n";
    return chess::kExitBadInput;
  }
  // Where each shard ran, from the Slurm output beside its log.
  std::map<int, chess::ShardRun> runs;
  for (size_t i = 0; i < merged->sources.size(); ++i) {
    const int shard = merged->progress[i].shard_index;
    if (shard >= 0) {
      runs[shard] = chess::ReadShardRun(
          std::filesystem::path(merged->sources[i]).parent_path().string());
    }
  }
  std::cout << chess::FormatProgress(*merged, absl::Now(), runs);
  return 0;
}

// Submits the match to Slurm: an array job of shards and a merge job that
// depends on them (see arena/slurm.h).
int Slurm(const std::vector<char*>& args) {
  if (args.size() != 1) {
    std::cerr
        << "slurm needs one match config: arena slurm CONFIG --shards=N\n";
    return chess::kExitBadInput;
  }
  namespace fs = std::filesystem;
  const std::string config = fs::absolute(chess::CommandLinePath(args[0]));
  absl::StatusOr<chess::LoadedMatch> match = chess::LoadMatch(config);
  if (!match.ok()) {
    std::cerr << match.status().message() << "\n";
    return chess::kExitBadInput;
  }
  chess::Venue venue;
  venue.shards = absl::GetFlag(FLAGS_shards);
  venue.cpus_per_shard = absl::GetFlag(FLAGS_cpus_per_shard) > 0
                             ? absl::GetFlag(FLAGS_cpus_per_shard)
                             : std::max(1, match->config.concurrency());
  venue.arena = fs::read_symlink("/proc/self/exe").string();
  venue.sbatch_options = absl::GetFlag(FLAGS_sbatch);
  if (venue.shards < 1) {
    std::cerr << "slurm: --shards=" << venue.shards << " is below 1\n";
    return chess::kExitBadInput;
  }
  std::string dir = chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty()) dir = chess::CommandLinePath(match->config.output_dir());
  if (dir.empty()) {
    std::cerr << "slurm needs an output_dir (config or --output_dir) on a "
                 "filesystem every node sees\n";
    return chess::kExitBadInput;
  }
  if (absl::GetFlag(FLAGS_dry_run)) {
    absl::StatusOr<std::string> scripts =
        chess::SlurmScripts(*match, venue, dir);
    if (!scripts.ok()) {
      std::cerr << scripts.status().message() << "\n";
      return chess::kExitBadInput;
    }
    std::cout << *scripts;
    return chess::kExitOk;
  }
  if (!absl::GetFlag(FLAGS_wait)) {
    const absl::Status s = chess::SubmitAnywhere(*match, venue, dir, std::cerr);
    if (!s.ok()) std::cerr << s.message() << "\n";
    return s.ok() ? chess::kExitOk : chess::ExitCodeFor(s);
  }
  chess::RunOptions options;
  options.output_dir = dir;
  options.notes = &std::cerr;
  const absl::StatusOr<chess::MatchSummary> summary =
      chess::PlayAnywhere(*match, venue, options);
  if (!summary.ok()) {
    std::cerr << summary.status().message() << "\n";
    return chess::ExitCodeFor(summary.status());
  }
  std::cout << chess::FormatSummary(*summary);
  return summary->exit_code();
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
  options.fresh = absl::GetFlag(FLAGS_fresh);
  options.drop_damaged = absl::GetFlag(FLAGS_drop_damaged);
  options.concurrency = absl::GetFlag(FLAGS_concurrency);
  options.progress = absl::GetFlag(FLAGS_progress);
  options.out = &std::cout;
  options.notes = &std::cerr;
  options.notes_are_terminal = ::isatty(STDERR_FILENO);
  options.revision = GitRevision();
  if (const std::string shard = absl::GetFlag(FLAGS_shard);
      !shard.empty() &&
      !ParseShard(shard, &options.shard_index, &options.shard_count)) {
    std::cerr << "--shard=" << shard
              << ": expected I/N with 0 <= I < N (shard I of N)\n";
    return chess::kExitBadInput;
  }
  return chess::RunMatch(*match, options);
}

// `arena [run] -engine cmd=... -engine ... -each tc=10+0.1 ...`: fastchess's
// options become OUTPUT_DIR/match.textproto (--output_dir, else
// fastchess-out/NAME), which is then played like any config: the same command
// again resumes it.
int RunFastchess(int argc, char** argv) {
  std::vector<char*> ours = {argv[0]};
  std::vector<std::string> theirs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--")) {
      ours.push_back(argv[i]);
    } else if (!(theirs.empty() && arg == "run")) {
      theirs.push_back(arg);
    }
  }
  absl::ParseCommandLine(int(ours.size()), ours.data());
  const char* user_dir = std::getenv("BUILD_WORKING_DIRECTORY");
  const std::string cwd =
      user_dir ? user_dir : std::filesystem::current_path().string();
  absl::StatusOr<chess::FastchessMatch> match =
      chess::TranslateFastchessArgs(theirs, cwd);
  if (!match.ok()) {
    std::cerr << match.status().message() << "\n";
    return chess::kExitBadInput;
  }
  std::string dir = chess::CommandLinePath(absl::GetFlag(FLAGS_output_dir));
  if (dir.empty()) dir = chess::FastchessOutputDir(match->config.name(), cwd);
  dir = std::filesystem::absolute(dir).lexically_normal().string();
  match->config.set_output_dir(dir);
  if (!match->pgn_out.empty()) {
    if (absl::Status s = chess::CheckPgnOut(match->pgn_out, dir,
                                            match->config.openings().file());
        !s.ok()) {
      std::cerr << s.message() << "\n";
      return chess::kExitBadInput;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string text;
  google::protobuf::TextFormat::PrintToString(match->config, &text);
  const std::string config_path = dir + "/match.textproto";
  // A match.textproto there that the arena did not write is the user's.
  if (const absl::StatusOr<std::string> existing = chess::ReadFile(config_path);
      existing.ok() && !chess::IsFastchessTranslation(*existing)) {
    std::cerr << config_path
              << " exists and is not a translation the arena wrote; name "
                 "another --output_dir\n";
    return chess::kExitBadInput;
  }
  if (absl::Status s = chess::WriteFileAtomically(
          config_path,
          absl::StrCat(chess::FastchessConfigHeader(theirs), text));
      !s.ok()) {
    std::cerr << s.message() << "\n";
    return chess::kExitIoError;
  }
  std::cerr << "fastchess options written as " << config_path << "\n";
  const int code = Run(config_path);
  if (!match->pgn_out.empty() &&
      std::filesystem::exists(dir + "/games.pgn", ec)) {
    if (absl::Status s = chess::AppendNewGames(dir, match->pgn_out); !s.ok()) {
      std::cerr << s.message() << "\n";
      return code == 0 ? chess::kExitIoError : code;
    }
  }
  return code;
}

int Book(const std::vector<char*>& args) {
  if (!args.empty()) {
    std::cerr << "book takes no operands: arena book --out=FILE\n";
    return chess::kExitBadInput;
  }
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

// `arena run [CONFIG]`: the main job's match when no config is named.
int RunCommand(const std::vector<char*>& args) {
  if (args.size() > 1) {
    std::cerr << "run takes one match config\n";
    return chess::kExitBadInput;
  }
  if (!args.empty()) return Run(chess::CommandLinePath(args[0]));
  // The main job: the default match, from the workspace under `bazel run`.
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  return Run(absl::StrCat(workspace ? workspace : ".",
                          "/configs/matches/default.textproto"));
}

}  // namespace

// Each subcommand's operands and flags: a flag of another subcommand is an
// error, and `arena SUBCOMMAND --help` lists these.
const std::vector<chess::Subcommand>& Subcommands() {
  static const auto* subcommands = new std::vector<chess::Subcommand>{
      {"run",
       "[CONFIG]  (default configs/matches/default.textproto)",
       {"output_dir", "concurrency", "fresh", "drop_damaged", "progress",
        "shard"},
       RunCommand},
      {"summary",
       "LOG|DIR... [--anchors=NAME=ELO,...]",
       {"anchors"},
       [](const std::vector<char*>& args) {
         return SummaryOrPgn("summary", args);
       }},
      {"pgn",
       "LOG|DIR...",
       {},
       [](const std::vector<char*>& args) {
         return SummaryOrPgn("pgn", args);
       }},
      {"report",
       "LOG|DIR...",
       {"output_dir", "inline_moves_mb"},
       [](const std::vector<char*>& args) {
         return SummaryOrPgn("report", args);
       }},
      {"merge", "LOG|DIR... --output_dir=DIR", {"output_dir"}, Merge},
      {"status", "DIR|LOG...", {}, Status},
      {"slurm",
       "CONFIG --shards=N [--cpus_per_shard=C] [--wait] [--dry_run]",
       {"shards", "cpus_per_shard", "sbatch", "dry_run", "wait", "output_dir"},
       Slurm},
      {"book",
       "--out=FILE",
       {"out", "positions", "plies", "margin_cp", "check_depth",
        "candidate_margin_cp", "seed"},
       Book},
      // Recognised by its one-dash options (LooksLikeFastchess), not by name.
      {"fastchess",
       "-engine cmd=... name=... -engine ... -each tc=...",
       {"output_dir", "fresh", "progress"},
       nullptr},
  };
  return *subcommands;
}

// The subcommand a word names; null for none (and for fastchess).
const chess::Subcommand* FindSubcommand(const std::string& word) {
  for (const chess::Subcommand& sub : Subcommands())
    if (sub.name == word && sub.run) return &sub;
  return nullptr;
}

int main(int argc, char** argv) {
  {
    const std::vector<std::string> words(argv + 1, argv + argc);
    std::string name = "run";
    if (chess::LooksLikeFastchess(words)) {
      name = "fastchess";
    } else {
      for (const std::string& w : words) {
        if (w.empty() || w[0] == '-') continue;
        if (FindSubcommand(w)) name = w;
        break;
      }
    }
    const chess::Subcommand& sub = *std::find_if(
        Subcommands().begin(), Subcommands().end(),
        [&](const chess::Subcommand& s) { return s.name == name; });
    if (chess::AsksForHelp(words)) {
      std::cout << chess::SubcommandHelp("arena", sub);
      return 0;
    }
    // fastchess's own options have one dash; ours there have two.
    std::vector<std::string> flags;
    for (const std::string& w : words)
      if (name != "fastchess" || absl::StartsWith(w, "--")) flags.push_back(w);
    if (absl::Status s = chess::CheckSubcommandFlags(flags, sub); !s.ok()) {
      std::cerr << s.message() << "\n";
      return chess::kExitBadInput;
    }
  }
  std::string usage = "arena";
  for (const chess::Subcommand& sub : Subcommands())
    absl::StrAppend(&usage, usage == "arena" ? " " : " | ", sub.name, " ",
                    sub.usage);
  absl::SetProgramUsageMessage(absl::StrCat(
      usage,
      "\nExit codes: 0 complete or H1, 1 H0, 2 bad input, 3 engine failure, "
      "4 I/O error."));
  chess::EndChildrenOnTermination("arena");
  ::signal(SIGPIPE,
           SIG_IGN);  // a dead engine's pipe must be an error, not our death
  if (chess::LooksLikeFastchess(
          std::vector<std::string>(argv + 1, argv + argc)))
    return RunFastchess(argc, argv);
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  // "arena CONFIG" and a bare "arena" run a match.
  if (args.size() < 2 || FindSubcommand(args[1]) == nullptr)
    args.insert(args.begin() + 1, const_cast<char*>("run"));
  const std::vector<char*> operands(args.begin() + 2, args.end());
  return FindSubcommand(args[1])->run(operands);
}
