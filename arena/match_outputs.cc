#include "arena/match_outputs.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "arena/pgn.h"
#include "arena/report.h"
#include "common/files.h"
#include "google/protobuf/text_format.h"

namespace chess {

namespace fs = std::filesystem;

// A match whose outputs could not all be written: exit code 4, unless it had
// already failed otherwise.
void MarkIoError(MatchSummary* summary) {
  if (summary->exit_code() != kExitOk) return;
  summary->set_exit_code(kExitIoError);
  summary->set_verdict(SummaryVerdict(*summary, kExitIoError));
}

namespace {

absl::Status WriteDerivedFiles(const std::string& dir, const std::string& pgn,
                               const MatchReportData& report,
                               const MatchHeader& header,
                               MatchSummary* summary) {
  // The PGN and the report first, so that result.textproto holds the final
  // exit code.
  absl::Status pgn_written =
      WriteFileAtomically((fs::path(dir) / "games.pgn").string(), pgn);
  if (!pgn_written.ok()) MarkIoError(summary);
  absl::Status report_written = WriteMatchReport(report, header, dir);
  if (!report_written.ok()) MarkIoError(summary);
  std::string text;
  google::protobuf::TextFormat::PrintToString(*summary, &text);
  absl::Status result =
      WriteFileAtomically((fs::path(dir) / "result.textproto").string(), text);
  return !pgn_written.ok()      ? pgn_written
         : !report_written.ok() ? report_written
                                : result;
}

}  // namespace

absl::Status WriteDerivedFiles(const std::string& dir, const LogContents& log,
                               MatchSummary* summary) {
  return WriteDerivedFiles(dir, LogToPgn(log),
                           BuildMatchReportData(log, *summary), log.header,
                           summary);
}

absl::Status WriteDerivedFiles(const std::string& dir,
                               const std::string& log_path,
                               MatchSummary* summary) {
  std::optional<PgnBuilder> pgn;
  std::optional<MatchReportBuilder> report;
  absl::StatusOr<LogScan> scan = ScanLogFile(
      log_path,
      [&](const LogScan& scan) {
        pgn.emplace(scan.header);
        report.emplace(scan.header);
      },
      [&](const LogScan&, absl::Span<const GameRecord* const> games) {
        pgn->Add(games);
        report->Add(games);
      });
  if (!scan.ok()) return scan.status();
  if (scan->empty())
    return absl::InvalidArgumentError(absl::StrCat(log_path, ": empty log"));
  return WriteDerivedFiles(dir, std::move(*pgn).Finish(),
                           std::move(*report).Finish(*summary), scan->header,
                           summary);
}

absl::StatusOr<MatchLog> ReadMatchLog(const std::string& log_path) {
  absl::StatusOr<LogContents> log = ReadLog(log_path);
  if (!log.ok()) return log.status();
  if (log->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(log_path, ": empty log"));
  }
  if (!log->damage.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        log_path,
        ": damaged records (see arena summary): ", log->damage.front()));
  }
  return MatchLog{std::move(log->header), std::move(log->games)};
}

absl::StatusOr<MatchSummary> SummarizeGames(GameScan games,
                                            absl::string_view name) {
  // A batch of games at a time: a large log is never held in memory.
  std::optional<Standings> standings;
  absl::StatusOr<LogScan> log = games(
      [&](const LogScan& scan) {
        standings.emplace(StandingsConfig(scan.header));
      },
      [&](const LogScan&, absl::Span<const GameRecord* const> games) {
        for (const GameRecord* g : games) standings->Add(*g);
      });
  if (!log.ok()) return log.status();
  if (log->empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": empty log"));
  return SummarizeScan(*log, *standings);
}

absl::StatusOr<MatchSummary> SummarizeLog(const std::string& log_path) {
  return SummarizeGames(
      [&](StartScan start, TakeGames take) {
        return ScanLogFile(log_path, start, take);
      },
      log_path);
}

std::string LogToPgn(const LogContents& log) {
  std::vector<const GameRecord*> games;
  for (const GameRecord& g : log.games) games.push_back(&g);
  PgnBuilder pgn(log.header);
  pgn.Add(games);
  return std::move(pgn).Finish();
}

absl::StatusOr<LogPgn> ReadGamesAsPgn(GameScan games, absl::string_view name) {
  std::optional<PgnBuilder> pgn;
  absl::StatusOr<LogScan> scan =
      games([&](const LogScan& scan) { pgn.emplace(scan.header); },
            [&](const LogScan&, absl::Span<const GameRecord* const> games) {
              pgn->Add(games);
            });
  if (!scan.ok()) return scan.status();
  if (scan->empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": empty log"));
  return LogPgn{*std::move(scan), std::move(*pgn).Finish()};
}

absl::StatusOr<LogPgn> ReadLogAsPgn(const std::string& log_path) {
  return ReadGamesAsPgn(
      [&](StartScan start, TakeGames take) {
        return ScanLogFile(log_path, start, take);
      },
      log_path);
}

absl::StatusOr<std::string> LogToPgn(const std::string& log_path) {
  absl::StatusOr<LogPgn> log = ReadLogAsPgn(log_path);
  if (!log.ok()) return log.status();
  if (!log->scan.damage.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(log_path, ": damaged: ", log->scan.damage.front()));
  }
  return std::move(log->pgn);
}

}  // namespace chess
