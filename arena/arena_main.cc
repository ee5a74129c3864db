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
//   arena slurm CONFIG --shards=N [--cpus_per_shard=C] [--sbatch=OPT,...]
//   [--wait]
//                            [--dry_run]: the match as a Slurm array job of
//                            shards and a dependent merge job
//   arena book --out=FILE    make a balanced EPD opening book
//   arena [run] -engine cmd=A name=A -engine cmd=B name=B -each tc=10+0.1 ...
//                            fastchess's options (see arena/fastchess_cli.h),
//                            written as OUTPUT_DIR/match.textproto and played
//
// Exit codes: 0 match complete or SPRT accepted H1; 1 SPRT accepted H0; 2 bad
// input; 3 an engine could not be started; 4 the log could not be written.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "arena/book_maker.h"
#include "arena/commands.h"
#include "arena/fastchess_cli.h"
#include "common/exit_code.h"
#include "common/subcommands.h"

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

using Operands = std::vector<std::string>;

chess::RunRequest RunRequestFromFlags() {
  chess::RunRequest run;
  run.output_dir = absl::GetFlag(FLAGS_output_dir);
  run.concurrency = absl::GetFlag(FLAGS_concurrency);
  run.fresh = absl::GetFlag(FLAGS_fresh);
  run.drop_damaged = absl::GetFlag(FLAGS_drop_damaged);
  run.progress = absl::GetFlag(FLAGS_progress);
  run.err_is_terminal = ::isatty(STDERR_FILENO);
  run.shard = absl::GetFlag(FLAGS_shard);
  return run;
}

int Run(const Operands& operands) {
  if (operands.size() > 1) {
    std::cerr << "run takes one match config\n";
    return chess::kExitBadInput;
  }
  chess::RunRequest run = RunRequestFromFlags();
  if (!operands.empty()) run.config = operands[0];
  return chess::RunCommand(run, std::cout, std::cerr);
}

int Fastchess(const Operands& options) {
  const char* user_dir = std::getenv("BUILD_WORKING_DIRECTORY");
  const std::string cwd =
      user_dir ? user_dir : std::filesystem::current_path().string();
  return chess::FastchessCommand(options, cwd, RunRequestFromFlags(), std::cout,
                                 std::cerr);
}

int Slurm(const Operands& operands) {
  if (operands.size() != 1) {
    std::cerr
        << "slurm needs one match config: arena slurm CONFIG --shards=N\n";
    return chess::kExitBadInput;
  }
  chess::SlurmRequest slurm;
  slurm.config = operands[0];
  slurm.shards = absl::GetFlag(FLAGS_shards);
  slurm.cpus_per_shard = absl::GetFlag(FLAGS_cpus_per_shard);
  slurm.sbatch_options = absl::GetFlag(FLAGS_sbatch);
  slurm.output_dir = absl::GetFlag(FLAGS_output_dir);
  slurm.dry_run = absl::GetFlag(FLAGS_dry_run);
  slurm.wait = absl::GetFlag(FLAGS_wait);
  return chess::SlurmCommand(slurm, std::cout, std::cerr);
}

int Book(const Operands& operands) {
  if (!operands.empty()) {
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
  return chess::BookCommand(book, absl::GetFlag(FLAGS_out), std::cerr);
}

// Each subcommand's operands and flags: a flag of another subcommand is an
// error, and `arena SUBCOMMAND --help` lists these.
chess::SubcommandProgram Arena() {
  return {
      "arena",
      {
          {"run",
           "[CONFIG]  (default configs/matches/default.textproto)",
           {"output_dir", "concurrency", "fresh", "drop_damaged", "progress",
            "shard"},
           Run},
          {"summary",
           "LOG|DIR... [--anchors=NAME=ELO,...]",
           {"anchors"},
           [](const Operands& logs) {
             return chess::SummaryCommand(logs, absl::GetFlag(FLAGS_anchors),
                                          std::cout, std::cerr);
           }},
          {"pgn",
           "LOG|DIR...",
           {},
           [](const Operands& logs) {
             return chess::PgnCommand(logs, std::cout, std::cerr);
           }},
          {"report",
           "LOG|DIR...",
           {"output_dir", "inline_moves_mb"},
           [](const Operands& logs) {
             return chess::ReportCommand(logs, absl::GetFlag(FLAGS_output_dir),
                                         absl::GetFlag(FLAGS_inline_moves_mb),
                                         std::cout, std::cerr);
           }},
          {"merge",
           "LOG|DIR... --output_dir=DIR",
           {"output_dir"},
           [](const Operands& logs) {
             return chess::MergeCommand(logs, absl::GetFlag(FLAGS_output_dir),
                                        std::cout, std::cerr);
           }},
          {"status",
           "DIR|LOG...",
           {},
           [](const Operands& logs) {
             return chess::StatusCommand(logs, std::cout, std::cerr);
           }},
          {"slurm",
           "CONFIG --shards=N [--cpus_per_shard=C] [--wait] [--dry_run]",
           {"shards", "cpus_per_shard", "sbatch", "dry_run", "wait",
            "output_dir"},
           Slurm},
          {"book",
           "--out=FILE",
           {"out", "positions", "plies", "margin_cp", "check_depth",
            "candidate_margin_cp", "seed"},
           Book},
          // Chosen by its one-dash options (LooksLikeFastchess).
          {"fastchess",
           "-engine cmd=... name=... -engine ... -each tc=...",
           {"output_dir", "fresh", "progress"},
           Fastchess,
           /*single_dash_operands=*/true},
      },
      /*default_subcommand=*/"run",
      [](const Operands& words) {
        return std::string(chess::LooksLikeFastchess(words) ? "fastchess" : "");
      },
      "Exit codes: 0 complete or H1, 1 H0, 2 bad input, 3 engine failure, 4 "
      "I/O error.",
  };
}

}  // namespace

int main(int argc, char** argv) {
  return chess::RunSubcommand(Arena(), argc, argv);
}
