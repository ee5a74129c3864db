// arena: plays matches between engine configurations and external UCI engines.
//
//   arena [run] [CONFIG]     play (or resume) a match; default: the main job,
//                            configs/matches/default.textproto
//   arena summary LOG        standings recomputed from a match log
//   arena pgn LOG            a match log as PGN on stdout
//   arena book --out=FILE    make a balanced EPD opening book
//
// Exit codes: 0 match complete or SPRT accepted H1; 1 SPRT accepted H0; 2 bad
// input; 3 an engine could not be started; 4 the log could not be written.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "arena/book_maker.h"
#include "arena/match.h"
#include "engine/config.h"

ABSL_FLAG(std::string, output_dir, "",
          "overrides the match config's output_dir");
ABSL_FLAG(int, concurrency, 0, "games at once; overrides the config (0: keep)");
ABSL_FLAG(bool, fresh, false,
          "start over even if output_dir holds a log of this match");
ABSL_FLAG(bool, resume, true,
          "continue the match in output_dir if its log exists (default)");
ABSL_FLAG(bool, progress, true, "live progress on stderr");
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

namespace {

std::string GitRevision() {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string dir = workspace ? workspace : ".";
  std::string revision;
  if (FILE* p = ::popen(absl::StrCat("git -C '", dir,
                                     "' rev-parse --short=12 HEAD 2>/dev/null")
                            .c_str(),
                        "r")) {
    char buffer[128];
    while (std::fgets(buffer, sizeof buffer, p)) revision += buffer;
    ::pclose(p);
  }
  while (!revision.empty() &&
         (revision.back() == '\n' || revision.back() == ' '))
    revision.pop_back();
  if (revision.empty()) return "unknown";
  if (FILE* p = ::popen(
          absl::StrCat("git -C '", dir,
                       "' status --porcelain --untracked-files=no 2>/dev/null")
              .c_str(),
          "r")) {
    if (std::fgetc(p) != EOF) revision += "-dirty";
    ::pclose(p);
  }
  return revision;
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
  options.concurrency = absl::GetFlag(FLAGS_concurrency);
  options.progress = absl::GetFlag(FLAGS_progress);
  options.revision = GitRevision();
  return chess::RunMatch(*match, options);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "arena [run] [CONFIG] | summary LOG | pgn LOG | book --out=FILE\n"
      "Exit codes: 0 complete or H1, 1 H0, 2 bad input, 3 engine failure, 4 "
      "I/O error.");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  ::signal(SIGPIPE,
           SIG_IGN);  // a dead engine's pipe must be an error, not our death
  std::string command = args.size() > 1 ? args[1] : "run";
  std::string operand = args.size() > 2 ? args[2] : "";
  if (command != "run" && command != "summary" && command != "pgn" &&
      command != "book") {
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
  if (command == "summary" || command == "pgn") {
    if (operand.empty()) {
      std::cerr << command << " needs a match log (OUTPUT_DIR/games.log)\n";
      return chess::kExitBadInput;
    }
    if (command == "summary") {
      absl::StatusOr<chess::MatchSummary> summary =
          chess::SummarizeLog(chess::CommandLinePath(operand));
      if (!summary.ok()) {
        std::cerr << summary.status().message() << "\n";
        return chess::kExitBadInput;
      }
      std::cout << chess::FormatSummary(*summary);
      return summary->exit_code();
    }
    absl::StatusOr<std::string> pgn =
        chess::LogToPgn(chess::CommandLinePath(operand));
    if (!pgn.ok()) {
      std::cerr << pgn.status().message() << "\n";
      return chess::kExitBadInput;
    }
    std::cout << *pgn;
    return 0;
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
  std::ofstream file(out);
  for (const std::string& fen : *fens) file << fen << "\n";
  if (!file.flush()) {
    std::cerr << out << ": cannot write\n";
    return chess::kExitIoError;
  }
  std::cerr << fens->size() << " positions written to " << out << "\n";
  return 0;
}
