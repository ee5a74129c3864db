// Reading a match log back: every record is checked (framing and checksum,
// then the header against the rules of a match config, then each game against
// the header: its index, pairing, players and every move replayed), so that
// what reaches the standings, the PGN or a resumed match is a game the arena
// could have played. Damage is reported with its offset and costs only the
// records it touches.
#ifndef ARENA_LOG_READER_H_
#define ARENA_LOG_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "arena/match_config.pb.h"
#include "arena/match_log.pb.h"

namespace chess {

// What a read of a log finds besides its games.
struct LogScan {
  MatchHeader header;  // no config: an empty log
  // One line per damaged region or invalid record ("offset 1234: ..."), in
  // file order; the games after it are kept.
  std::vector<std::string> damage;
  uint64_t valid_bytes = 0;  // where an appended record goes
  bool torn = false;         // an unfinished record at the end (cut on resume)
  int duplicates = 0;        // records of a game already read (ignored)
  size_t game_records = 0;   // intact records after the header, valid or not

  bool empty() const { return !header.has_config(); }
};

struct LogContents : LogScan {
  std::vector<GameRecord> games;  // valid, unique by index, in log order
};

// Errors (InvalidArgument, naming the file): not a log, a damaged or invalid
// header. NotFound: no such file.
absl::StatusOr<LogContents> ReadLog(const std::string& path);
absl::StatusOr<LogContents> ParseLog(absl::string_view data,
                                     absl::string_view name);

// The reader for logs too large to hold as GameRecords (a 100,000-game log
// would take gigabytes): checks the games as ParseLog does, a batch at a time
// on every core, and hands each batch's valid, first-seen games to `take` in
// log order. A file is read a window at a time (see RecordScanner), never
// whole. The games live only during the call; `scan` has its header from the
// first call, its record count, damage and duplicates so far. Returns what
// ParseLog would, without the games.
using TakeGames = absl::FunctionRef<void(
    const LogScan& scan, absl::Span<const GameRecord* const> games)>;
absl::StatusOr<LogScan> ScanLog(absl::string_view data, absl::string_view name,
                                TakeGames take);
absl::StatusOr<LogScan> ScanLogFile(const std::string& path, TakeGames take);
// The same with `start` called once, before any games, when the log has a
// header (not for an empty log), even if no game follows: where a reader
// builds from the header what the games are added to (standings, a report,
// a PGN).
using StartScan = absl::FunctionRef<void(const LogScan& scan)>;
absl::StatusOr<LogScan> ScanLog(absl::string_view data, absl::string_view name,
                                StartScan start, TakeGames take);
absl::StatusOr<LogScan> ScanLogFile(const std::string& path, StartScan start,
                                    TakeGames take);

// ScanLogFile with each game's record offset (ScannedRecord::offset), for a
// reader that reads the game again later (RecordFileReader) instead of
// keeping it.
using TakeGamesAt = absl::FunctionRef<void(
    const LogScan& scan, absl::Span<const GameRecord* const> games,
    absl::Span<const uint64_t> offsets)>;
absl::StatusOr<LogScan> ScanLogFileAt(const std::string& path, StartScan start,
                                      TakeGamesAt take);

// A match's games read a batch at a time as ScanLogFile reads them: from one
// log file, or from the logs of a sharded match (ScanMerged in merge.h). What
// the summary, the PGN and the report are built from.
using GameScan =
    absl::FunctionRef<absl::StatusOr<LogScan>(StartScan start, TakeGames take)>;

// The header alone, checked as ScanLogFile checks it; an empty log gives a
// header with no config. Errors are ScanLogFile's.
absl::StatusOr<MatchHeader> ReadLogHeader(const std::string& path);

// Whether a log's header belongs to the match of `config` with a book of
// `book_fingerprint`: the same engines, book content, time control,
// adjudication, seed and pairing. The cap (games, rounds), the concurrency and
// where files lie do not count: a match may be extended, and resumed or merged
// on another machine. (A header written before books had fingerprints matches
// any book.)
bool SameMatch(const MatchHeader& logged, const MatchConfig& config,
               uint64_t book_fingerprint);

// A game record that the header's match could have produced: the error names
// the field.
absl::Status ValidateGameRecord(const GameRecord& game,
                                const MatchHeader& header);

}  // namespace chess

#endif  // ARENA_LOG_READER_H_
