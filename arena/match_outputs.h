// What a match log becomes: its standings (the summary), games.pgn,
// report.html and result.textproto. Used at a match's end, by merge and by
// the summary, pgn and report commands.
#ifndef ARENA_MATCH_OUTPUTS_H_
#define ARENA_MATCH_OUTPUTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arena/log_reader.h"
#include "arena/match_log.pb.h"
#include "arena/standings.h"

namespace chess {

// A match whose outputs could not all be written: exit code 4, unless it had
// already failed otherwise.
void MarkIoError(MatchSummary* summary);

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

#endif  // ARENA_MATCH_OUTPUTS_H_
