// Merging the logs of one match played in parts (arena --shard=I/N, on one
// machine or many): checked to be of the same match, no game twice; the
// result is the log a single machine would have written, games in schedule
// order, so its standings are the same number for number.
#ifndef ARENA_MERGE_H_
#define ARENA_MERGE_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/log_reader.h"
#include "arena/match_log.pb.h"

namespace chess {

// The logs that command-line operands name: a log file, a directory holding
// games.log, or a directory whose shard-*/ subdirectories hold them.
absl::StatusOr<std::vector<std::string>> ExpandLogPaths(
    const std::vector<std::string>& operands);

// The shard-*/games.log files in `dir`, sorted.
std::vector<std::string> ShardLogsIn(const std::string& dir);

// Where a game of a merge lies: which log, and where its record starts.
struct MergedGame {
  int index = 0;   // in the schedule
  int source = 0;  // in MergedLog::sources
  uint64_t offset = 0;
};

// A merge keeps where the games lie, not the games: a 100,000-game match is
// gigabytes as GameRecords. ScanMerged reads them again.
// One log of a merge: which shard it holds and how far it is.
struct SourceProgress {
  int shard_index = -1;  // -1: a whole match's log
  int games = 0;         // in the log
  int scheduled = 0;     // the shard's share of the match (or the match's)
};

// Where a shard has run, as far as its Slurm output says (slurm.h,
// ReadShardRun): the node of its last start and how often it started.
struct ShardRun {
  std::string node;
  int starts = 0;
};

struct MergedLog {
  MatchHeader header;  // the whole match's (no shard)
  std::vector<std::string> sources;
  std::vector<SourceProgress> progress;  // of each source
  std::vector<std::string> start_times;  // of each source (RFC 3339)
  std::vector<MergedGame> games;         // by schedule index
  MatchSummary summary;                  // the standings of those games
  absl::Time last_game_end = absl::InfinitePast();
  std::vector<int> missing_games;  // scheduled, in no log
  std::vector<std::string> notes;  // missing shards, torn tails
};

// Reads and merges, each log a batch of games at a time, every game checked
// as ScanLogFile checks it. `final_merge` refuses torn shard logs (resume the
// shard first) and missing shards; otherwise they are noted (a shard still
// running, killed, or not started yet).
// InvalidArgument errors name the file and the games concerned: logs of
// different matches or shard counts, a game in two logs, a shard twice, a
// damaged log. Nothing is written.
absl::StatusOr<MergedLog> MergeLogs(const std::vector<std::string>& paths,
                                    bool final_merge);

// The merged games in schedule order, read again from their logs a batch at a
// time, as ScanLogFile gives a log's games (a GameScan). DataLoss if a log
// changed since the merge read it.
absl::StatusOr<LogScan> ScanMerged(const MergedLog& merged, StartScan start,
                                   TakeGames take);

// Progress over all shards while they run: games done and missing, shards
// present, games/hour since the first shard started, ETA, each shard's games
// and state (with its node and starts where `runs`, by shard index, knows
// them: a shard started more than once was requeued or restarted), and the
// standings so far (Elo, LLR). `now` is the current time.
std::string FormatProgress(const MergedLog& merged, absl::Time now,
                           const std::map<int, ShardRun>& runs = {});

// Writes the merge into `output_dir`: games.log (never over a log that is not
// itself a merge), games.pgn and result.textproto. Returns the standings.
absl::StatusOr<MatchSummary> WriteMerge(const MergedLog& merged,
                                        const std::string& output_dir);

}  // namespace chess

#endif  // ARENA_MERGE_H_
