// Playing a match: games on a pool of threads, each finished game logged
// durably, resuming, SPRT (also across shards), progress and results. Loading
// a match is match_setup.h's; what a log becomes (PGN, report, summary) is
// match_outputs.h's.
#ifndef ARENA_MATCH_H_
#define ARENA_MATCH_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/match_config.pb.h"
#include "arena/match_log.pb.h"
#include "arena/match_setup.h"
#include "arena/standings.h"
#include "common/exit_code.h"

namespace chess {

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
  int concurrency = 0;  // overrides the config's when > 0
  // This machine's nodes/s for MatchConfig.clock_reference_nps, instead of
  // measuring it; 0: measured.
  double machine_nps = 0;
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

}  // namespace chess

#endif  // ARENA_MATCH_H_
