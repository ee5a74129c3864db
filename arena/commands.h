// The arena's subcommands, each one function from what the command line says
// to an exit code (common/exit_code.h). They write only to the streams they
// are given: the result on `out`, progress, notes and errors on `err`. Paths
// are as the user typed them (relative to where the command ran, also under
// `bazel run`). arena_main.cc turns flags into these requests.
#ifndef ARENA_COMMANDS_H_
#define ARENA_COMMANDS_H_

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "arena/book_maker.h"

namespace chess {

// `arena run [CONFIG]`: plays or resumes a match.
struct RunRequest {
  std::string config;      // empty: configs/matches/default.textproto
  std::string output_dir;  // over the config's
  int concurrency = 0;     // over the config's; 0: the config's
  bool fresh = false;      // start over instead of resuming
  bool drop_damaged = false;
  bool progress = true;
  bool err_is_terminal = false;  // progress lines redraw in place
  std::string shard;             // "I/N": only shard I of N
};
int RunCommand(const RunRequest& request, std::ostream& out, std::ostream& err);

// `arena -engine cmd=... -engine ... -each tc=...`: fastchess's options
// become OUTPUT_DIR/match.textproto (run.output_dir, else fastchess-out/NAME
// under `cwd`), which is then played as `run` plays a config: the same command
// again resumes it.
int FastchessCommand(const std::vector<std::string>& options,
                     const std::string& cwd, RunRequest run, std::ostream& out,
                     std::ostream& err);

// `arena slurm CONFIG`: the match as a Slurm array job of shards and a merge
// job (arena/venue.h).
struct SlurmRequest {
  std::string config;
  int shards = 4;
  int cpus_per_shard = 0;  // 0: the config's concurrency, at least 1
  std::vector<std::string> sbatch_options;
  std::string output_dir;  // over the config's
  bool dry_run = false;    // print the scripts, submit nothing
  bool wait = false;       // wait for the merge and exit with its code
  std::string arena;       // the binary the shards run; empty: this one
};
int SlurmCommand(const SlurmRequest& request, std::ostream& out,
                 std::ostream& err);

// `arena book --out=FILE`: a balanced EPD opening book.
int BookCommand(const BookOptions& book, const std::string& out_path,
                std::ostream& err);

// The commands that read match logs. `logs` name logs, output directories or
// directories of shard-*/ directories (several: one match's shards, merged).
// `summary`: the standings, with `anchors` (NAME=ELO,...) over the config's.
int SummaryCommand(const std::vector<std::string>& logs,
                   const std::string& anchors, std::ostream& out,
                   std::ostream& err);
// `pgn`: the games as PGN.
int PgnCommand(const std::vector<std::string>& logs, std::ostream& out,
               std::ostream& err);
// `report`: report.html into `output_dir`, or beside the (first) log; game
// moves up to `inline_moves_mb` inside it.
int ReportCommand(const std::vector<std::string>& logs,
                  const std::string& output_dir, double inline_moves_mb,
                  std::ostream& out, std::ostream& err);
// `merge`: the shards' logs as one match in `output_dir`.
int MergeCommand(const std::vector<std::string>& logs,
                 const std::string& output_dir, std::ostream& out,
                 std::ostream& err);
// `status`: each shard's node, games and state, and the standings so far.
int StatusCommand(const std::vector<std::string>& logs, std::ostream& out,
                  std::ostream& err);

}  // namespace chess

#endif  // ARENA_COMMANDS_H_
