// Running a match: loading and validating its config, scheduling, playing games
// on a pool of threads, logging each finished game durably, resuming, SPRT,
// progress and results.
#ifndef ARENA_MATCH_H_
#define ARENA_MATCH_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/log_reader.h"
#include "arena/match_config.pb.h"
#include "arena/match_log.pb.h"
#include "arena/openings.h"
#include "arena/schedule.h"
#include "arena/standings.h"
#include "common/exit_code.h"

namespace chess {

struct LoadedMatch {
  MatchConfig
      config;  // config files resolved to inline configs, overrides merged
  std::vector<Opening> openings;
  std::vector<ScheduledGame> schedule;
  uint64_t book_fingerprint = 0;  // of `openings`: a match's identity
  std::string source;             // the config's file name, for messages
};

// Checks everything in a match config that does not need files; the error
// starts with the offending field's path.
absl::Status ValidateMatchShape(const MatchConfig& config);

// Parses, validates and resolves a match config. Errors carry file:line:column.
absl::StatusOr<LoadedMatch> LoadMatch(const std::string& path);
absl::StatusOr<LoadedMatch> ParseMatch(absl::string_view text,
                                       absl::string_view source_name,
                                       const std::string& base_dir);

struct RunOptions {
  std::string
      output_dir;      // overrides the config's; required one way or the other
  bool fresh = false;  // ignore (overwrite) an existing log instead of resuming
  // Resume a log with damaged records by dropping them (their games are played
  // again); without it such a log is left untouched.
  bool drop_damaged = false;
  // Play only shard `shard_index` of `shard_count` (arena --shard=I/N): game
  // pairs dealt round-robin; each shard has its own log. 0: the whole match.
  int shard_index = 0;
  int shard_count = 0;
  // With an SPRT, a shard whose output_dir is one of the shard-*/ directories
  // of a parent merges them all this often and stops when the LLR over all
  // shards crosses a bound.
  int peer_check_ms = 5000;
  int concurrency = 0;          // overrides the config's when > 0
  bool progress = true;         // a progress line on `notes`
  std::ostream* out = nullptr;  // RunMatch's final report; none: not written
  // Notes while the match runs (resumed, a torn record cut, a write failed)
  // and the progress line; none: silent. The library never prints elsewhere.
  std::ostream* notes = nullptr;
  bool notes_are_terminal = false;  // progress rewrites one line in place
  std::string revision{};  // recorded in the log header (e.g. the git revision)
  // report.html is rewritten this often while games come in (0: only at the
  // end).
  int report_interval_ms = 30000;
};

// Plays (or resumes) the match, writes games.pgn and result.textproto, and
// returns the standings; their exit_code is the match's (0, 1 H0, 3 engine
// failure, 4 an output could not be written). An error before any game has
// the exit code ExitCodeFor (common/exit_code.h) gives it.
absl::StatusOr<MatchSummary> PlayMatchForSummary(const LoadedMatch& match,
                                                 const RunOptions& options);
// PlayMatchForSummary, writing the report to options.out (an error to
// options.notes): returns the exit code.
int RunMatch(const LoadedMatch& match, const RunOptions& options);

// The games of a log, each once, in the order they finished.
struct MatchLog {
  MatchHeader header;
  std::vector<GameRecord> games;
};
absl::StatusOr<MatchLog> ReadMatchLog(const std::string& log_path);

// Standings recomputed from a log: the summary command.
absl::StatusOr<MatchSummary> SummarizeLog(const std::string& log_path);
// The same from any source of games; `name` names it in errors.
absl::StatusOr<MatchSummary> SummarizeGames(GameScan games,
                                            absl::string_view name);

// Rewrites OUTPUT_DIR/games.pgn and report.html, then result.textproto from
// `summary`, each whole or not at all. A PGN that cannot be written gives the
// summary exit code 4 (unless it failed otherwise) before it is written.
// Returns the first error.
absl::Status WriteDerivedFiles(const std::string& dir, const LogContents& log,
                               MatchSummary* summary);
// The same from the log file, read a batch of games at a time (a 100,000-game
// log is never held as GameRecords): what a match writes at its end.
absl::Status WriteDerivedFiles(const std::string& dir,
                               const std::string& log_path,
                               MatchSummary* summary);

// The games of a log as PGN, in schedule order.
std::string LogToPgn(const LogContents& log);
// A log file's PGN, read a batch of games at a time, with what the read found
// (damage, duplicates). Errors are ScanLogFile's, and InvalidArgument for an
// empty log.
struct LogPgn {
  LogScan scan;
  std::string pgn;
};
absl::StatusOr<LogPgn> ReadLogAsPgn(const std::string& log_path);
// The same from any source of games (one log, or a sharded match's logs);
// `name` names it in errors.
absl::StatusOr<LogPgn> ReadGamesAsPgn(GameScan games, absl::string_view name);
// The same as one text: an error if the log is empty or damaged.
absl::StatusOr<std::string> LogToPgn(const std::string& log_path);

}  // namespace chess

#endif  // ARENA_MATCH_H_
