#include "arena/log_reader.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "arena/match_setup.h"
#include "arena/schedule.h"
#include "common/files.h"
#include "common/parallel.h"
#include "common/record_io.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "google/protobuf/util/message_differencer.h"

namespace chess {
namespace {

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(what);
}

// Book moves from the book line's start must lead to the recorded start of
// the game, and every played move must be legal: the final position.
absl::StatusOr<Position> ValidateMoves(const GameRecord& game) {
  absl::StatusOr<Position> pos =
      game.book_fen().empty()
          ? Position::Start(game.chess960())
          : Position::FromFen(game.book_fen(), game.chess960());
  if (!pos.ok()) return Bad(absl::StrCat("book_fen: ", pos.status().message()));
  for (int i = 0; i < game.opening_moves_size(); ++i) {
    absl::StatusOr<Move> m = ParseUci(*pos, game.opening_moves(i));
    if (!m.ok()) {
      return Bad(absl::StrCat("opening move ", i + 1, " \"",
                              game.opening_moves(i),
                              "\": ", m.status().message()));
    }
    pos->MakeMove(*m);
  }
  if (!game.opening_fen().empty()) {
    absl::StatusOr<Position> start =
        Position::FromFen(game.opening_fen(), game.chess960());
    if (!start.ok() || start->ToFen() != pos->ToFen()) {
      return Bad("opening_fen is not where the book moves lead");
    }
  }
  for (int i = 0; i < game.moves_size(); ++i) {
    absl::StatusOr<Move> m = ParseUci(*pos, game.moves(i).uci());
    if (!m.ok()) {
      return Bad(absl::StrCat("move ", i + 1, " \"", game.moves(i).uci(),
                              "\": ", m.status().message()));
    }
    pos->MakeMove(*m);
  }
  return pos;
}

// The result must be what the termination allows: a win for a checkmate (by
// the side that gave it), an adjudicated resignation or an engine's failure,
// a draw for the drawing rules, an adjudicated draw and the move limit. A log
// holds finished games only.
absl::Status ValidateResult(const GameRecord& game, const Position& final) {
  const bool decisive = game.result() == GameRecord::WHITE_WINS ||
                        game.result() == GameRecord::BLACK_WINS;
  const std::string what = absl::StrCat(
      "result ", GameRecord::Result_Name(game.result()), " with termination ",
      GameRecord::Termination_Name(game.termination()));
  switch (game.termination()) {
    case GameRecord::NONE:
      // No reason given: only a draw (as logs before terminations had them);
      // a win needs the reason that decided it.
      if (game.result() != GameRecord::DRAW) return Bad(what);
      return absl::OkStatus();
    case GameRecord::STALEMATE:
      if (game.result() != GameRecord::DRAW || final.InCheck() ||
          !LegalMoves(final).empty()) {
        return Bad(absl::StrCat(what, ": the final position says otherwise"));
      }
      return absl::OkStatus();
    case GameRecord::CHECKMATE: {
      const GameRecord::Result winner = final.side_to_move() == kWhite
                                            ? GameRecord::BLACK_WINS
                                            : GameRecord::WHITE_WINS;
      if (game.result() != winner || !final.InCheck() ||
          !LegalMoves(final).empty()) {
        return Bad(absl::StrCat(what, ": the final position says otherwise"));
      }
      return absl::OkStatus();
    }
    case GameRecord::ADJUDICATED_TABLEBASE:
      return game.result() != GameRecord::UNFINISHED ? absl::OkStatus()
                                                     : Bad(what);
    case GameRecord::ADJUDICATED_RESIGN:
    case GameRecord::TIME_FORFEIT:
    case GameRecord::ILLEGAL_MOVE:
    case GameRecord::ENGINE_CRASH:
    case GameRecord::ENGINE_TIMEOUT:
    case GameRecord::ENGINE_START_FAILURE:
      return decisive ? absl::OkStatus() : Bad(what);
    default:  // the drawing rules, ADJUDICATED_DRAW, MAX_MOVES
      return game.result() == GameRecord::DRAW ? absl::OkStatus() : Bad(what);
  }
}

absl::Status ValidateHeader(const MatchHeader& header) {
  if (!header.has_config()) return Bad("no match config");
  if (absl::Status s = ValidateMatchShape(header.config()); !s.ok()) {
    return Bad(absl::StrCat("config.", s.message()));
  }
  if (header.scheduled_games() < 0) return Bad("scheduled_games is negative");
  if (header.shard_count() < 0 || header.shard_index() < 0 ||
      (header.shard_count() > 0 &&
       header.shard_index() >= header.shard_count()))
    return Bad("shard_index is outside [0, shard_count)");
  return absl::OkStatus();
}

// The parts of a config that decide which games are played and how.
MatchConfig Identity(const MatchConfig& c) {
  MatchConfig id = c;
  id.clear_concurrency();
  id.clear_output_dir();
  id.clear_games();
  id.clear_rounds();
  id.mutable_openings()->clear_file();
  for (PlayerConfig& p : *id.mutable_players()) {
    p.clear_anchor_elo();  // it changes no game, only how they are rated
    if (!p.has_external()) continue;
    ExternalEngine* e = p.mutable_external();
    e->clear_working_dir();
    if (!e->argv().empty())
      e->set_argv(0, std::filesystem::path(e->argv(0)).filename().string());
  }
  return id;
}

}  // namespace

bool SameMatch(const MatchHeader& logged, const MatchConfig& config,
               uint64_t book_fingerprint) {
  if (logged.has_book_fingerprint() &&
      logged.book_fingerprint() != book_fingerprint) {
    return false;
  }
  return google::protobuf::util::MessageDifferencer::Equals(
      Identity(logged.config()), Identity(config));
}

namespace {

// ValidateGameRecord with the header's pairings worked out once per log.
absl::Status ValidateGame(const GameRecord& game, const MatchHeader& header,
                          const std::vector<std::pair<int, int>>& pairings) {
  const MatchConfig& config = header.config();
  const int index = game.index();
  if (index < 0 || index >= header.scheduled_games()) {
    return Bad(absl::StrCat("index ", index, " is outside the schedule [0, ",
                            header.scheduled_games(), ")"));
  }
  if (game.pairing() < 0 || game.pairing() >= int(pairings.size())) {
    return Bad(absl::StrCat("pairing ", game.pairing(), " is outside [0, ",
                            pairings.size(), ")"));
  }
  // The schedule's layout: per round, per pairing, two games, colours swapped.
  const int64_t first =
      (int64_t(game.round()) * int64_t(pairings.size()) + game.pairing()) * 2;
  if (game.round() < 0 || (index != first && index != first + 1)) {
    return Bad(absl::StrCat("index ", index, " is not a game of round ",
                            game.round(), ", pairing ", game.pairing()));
  }
  if (header.shard_count() > 0 &&
      !InShard(game.round(), game.pairing(), int(pairings.size()),
               header.shard_index(), header.shard_count())) {
    return Bad(absl::StrCat("game ", index, " is not a game of shard ",
                            header.shard_index(), "/", header.shard_count()));
  }
  const auto [a, b] = pairings[game.pairing()];
  const bool swapped = index == first + 1;
  const std::string& white = config.players(swapped ? b : a).name();
  const std::string& black = config.players(swapped ? a : b).name();
  if (game.white() != white || game.black() != black) {
    return Bad(absl::StrCat("players \"", game.white(), "\" - \"", game.black(),
                            "\", expected \"", white, "\" - \"", black, "\""));
  }
  absl::StatusOr<Position> final = ValidateMoves(game);
  if (!final.ok()) return final.status();
  return ValidateResult(game, *final);
}

}  // namespace

absl::Status ValidateGameRecord(const GameRecord& game,
                                const MatchHeader& header) {
  return ValidateGame(game, header, Pairings(header.config()));
}

namespace {

// Games per batch when a scan keeps only what it takes from each: a few
// megabytes of parsed games, reused from batch to batch.
constexpr size_t kScanBatchGames = 256;

// The header, which decides whether the rest can be read at all: damage
// before it leaves no way to tell its games from another match's.
absl::Status ScanHeader(RecordScanner& records, absl::string_view name,
                        LogScan* scan) {
  std::vector<ScannedRecord> first;
  if (absl::Status s = records.Next(1, &first); !s.ok()) return s;
  const std::vector<DamagedRegion>& damaged = records.damaged();
  if (!damaged.empty() &&
      (first.empty() || damaged.front().offset < first.front().offset)) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": the match header at offset ", damaged.front().offset,
        " is damaged, so its games cannot be told from another match's"));
  }
  if (first.empty()) return absl::OkStatus();
  if (!scan->header.ParseFromArray(first[0].payload.data(),
                                   int(first[0].payload.size()))) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": the first record is not a match header"));
  }
  if (absl::Status s = ValidateHeader(scan->header); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": invalid match header: ", s.message()));
  }
  return absl::OkStatus();
}

// Damage is found as the scan goes (a batch's invalid games, the framing's
// damage when the reader reaches it) and listed in file order at the end.
class DamageList {
 public:
  explicit DamageList(LogScan* scan) : scan_(scan) {}
  void Add(uint64_t offset, std::string text) {
    offsets_.push_back(offset);
    scan_->damage.push_back(std::move(text));
  }
  void AddFraming(const std::vector<DamagedRegion>& damaged) {
    for (; framing_seen_ < damaged.size(); ++framing_seen_) {
      const DamagedRegion& d = damaged[framing_seen_];
      Add(d.offset, absl::StrCat("offset ", d.offset, ": ", d.bytes,
                                 " bytes hold no intact record"));
    }
  }
  void SortByOffset() {
    std::vector<size_t> order(offsets_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return offsets_[a] < offsets_[b];
    });
    std::vector<std::string> sorted;
    for (size_t i : order) sorted.push_back(std::move(scan_->damage[i]));
    scan_->damage = std::move(sorted);
  }

 private:
  LogScan* scan_;
  std::vector<uint64_t> offsets_;
  size_t framing_seen_ = 0;
};

// Parsing and replaying the games is most of the work on a large log: each
// batch is split over the cores, then handed on in log order. Parsing into
// the same messages batch after batch reuses their memory.
using TakeBatch = absl::FunctionRef<void(
    const LogScan&, std::vector<GameRecord*>&, const std::vector<uint64_t>&)>;
absl::StatusOr<LogScan> ScanRecords(RecordScanner& records,
                                    absl::string_view name, size_t batch_games,
                                    StartScan start, TakeBatch take) {
  LogScan scan;
  if (absl::Status s = ScanHeader(records, name, &scan); !s.ok()) return s;
  DamageList damage(&scan);
  if (!scan.empty()) {
    start(scan);
    const auto pairings = Pairings(scan.header.config());
    std::vector<ScannedRecord> batch;
    std::vector<GameRecord> slots;
    std::vector<absl::Status> checks;
    absl::flat_hash_set<int> seen;
    std::vector<GameRecord*> kept;
    std::vector<uint64_t> kept_offsets;
    for (;;) {
      if (absl::Status s = records.Next(batch_games, &batch); !s.ok()) return s;
      damage.AddFraming(records.damaged());
      if (batch.empty()) break;
      const size_t n = batch.size();
      if (slots.size() < n) slots.resize(n);
      checks.resize(n);
      ForEachSlice(
          n, n < 128 ? 1 : CoreCount(), [&](size_t, size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i) {
              const absl::string_view record = batch[i].payload;
              checks[i] =
                  slots[i].ParseFromArray(record.data(), int(record.size()))
                      ? ValidateGame(slots[i], scan.header, pairings)
                      : Bad("not a game record");
            }
          });
      kept.clear();
      kept_offsets.clear();
      for (size_t i = 0; i < n; ++i) {
        const size_t number = scan.game_records + i + 1;  // the header is 0
        if (!checks[i].ok()) {
          damage.Add(batch[i].offset,
                     absl::StrCat("offset ", batch[i].offset, ": game record ",
                                  number, ": ", checks[i].message()));
        } else if (seen.insert(slots[i].index()).second) {
          kept.push_back(&slots[i]);
          kept_offsets.push_back(batch[i].offset);
        } else {
          ++scan.duplicates;
        }
      }
      scan.game_records += n;
      take(scan, kept, kept_offsets);
    }
  }
  // Damage before the end of an empty log (the header's is an error above).
  damage.AddFraming(records.damaged());
  damage.SortByOffset();
  scan.valid_bytes = records.valid_bytes();
  scan.torn = records.valid_bytes() < records.file_bytes();
  return scan;
}

absl::StatusOr<LogScan> ScanGames(RecordScanner& records,
                                  absl::string_view name, StartScan start,
                                  TakeGamesAt take) {
  return ScanRecords(
      records, name, kScanBatchGames, start,
      [&](const LogScan& scan, std::vector<GameRecord*>& games,
          const std::vector<uint64_t>& offsets) {
        take(scan,
             absl::Span<const GameRecord* const>(games.data(), games.size()),
             offsets);
      });
}

void NoStart(const LogScan&) {}

absl::Status NotADirectory(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": is a directory, not a match log"));
}

}  // namespace

absl::StatusOr<LogScan> ScanLog(absl::string_view data, absl::string_view name,
                                StartScan start, TakeGames take) {
  absl::StatusOr<std::unique_ptr<RecordScanner>> records =
      RecordScanner::OverData(data, name);
  if (!records.ok()) return records.status();
  return ScanGames(
      **records, name, start,
      [&](const LogScan& scan, absl::Span<const GameRecord* const> games,
          absl::Span<const uint64_t>) { take(scan, games); });
}

absl::StatusOr<LogScan> ScanLog(absl::string_view data, absl::string_view name,
                                TakeGames take) {
  return ScanLog(data, name, NoStart, take);
}

absl::StatusOr<LogScan> ScanLogFileAt(const std::string& path, StartScan start,
                                      TakeGamesAt take) {
  if (absl::Status s = NotADirectory(path); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<RecordScanner>> records =
      RecordScanner::OpenFile(path);
  if (!records.ok()) return records.status();
  return ScanGames(**records, path, start, take);
}

absl::StatusOr<LogScan> ScanLogFile(const std::string& path, StartScan start,
                                    TakeGames take) {
  return ScanLogFileAt(
      path, start,
      [&](const LogScan& scan, absl::Span<const GameRecord* const> games,
          absl::Span<const uint64_t>) { take(scan, games); });
}

absl::StatusOr<MatchHeader> ReadLogHeader(const std::string& path) {
  if (absl::Status s = NotADirectory(path); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<RecordScanner>> records =
      RecordScanner::OpenFile(path);
  if (!records.ok()) return records.status();
  LogScan scan;
  if (absl::Status s = ScanHeader(**records, path, &scan); !s.ok()) return s;
  return std::move(scan.header);
}

absl::StatusOr<LogScan> ScanLogFile(const std::string& path, TakeGames take) {
  return ScanLogFile(path, NoStart, take);
}

absl::StatusOr<LogContents> ParseLog(absl::string_view data,
                                     absl::string_view name) {
  absl::StatusOr<std::unique_ptr<RecordScanner>> records =
      RecordScanner::OverData(data, name);
  if (!records.ok()) return records.status();
  // One batch: the games are parsed in place and moved out, never copied.
  LogContents log;
  absl::StatusOr<LogScan> scan =
      ScanRecords(**records, name, SIZE_MAX, NoStart,
                  [&](const LogScan&, std::vector<GameRecord*>& games,
                      const std::vector<uint64_t>&) {
                    log.games.reserve(log.games.size() + games.size());
                    for (GameRecord* g : games)
                      log.games.push_back(std::move(*g));
                  });
  if (!scan.ok()) return scan.status();
  static_cast<LogScan&>(log) = *std::move(scan);
  return log;
}

absl::StatusOr<LogContents> ReadLog(const std::string& path) {
  if (absl::Status s = NotADirectory(path); !s.ok()) return s;
  std::error_code ec;
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok() && !std::filesystem::exists(path, ec))
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  if (!data.ok()) return data.status();
  return ParseLog(*data, path);
}

}  // namespace chess
