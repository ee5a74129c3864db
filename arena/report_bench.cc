// Benchmark, not a test: the report of a large match.
//   bazel run //arena:report_bench -- [GAMES=100000] [--keep]
// Plays two real games, copies them into a GAMES-game log, then times
// `arena report` (read and check the log, summarize, render, write) against
// the anchor of `arena summary` on the same log (read, check, summarize), in
// the same run, and prints the size of the page and of its move chunks; then
// the end of a match (PGN, report and result written from the log), read a
// batch at a time against the whole log held in memory. With --keep the log
// and its report stay in the temporary directory, for timing the `arena`
// binary on them.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "arena/bench_games.h"
#include "arena/log_reader.h"
#include "arena/match_outputs.h"
#include "arena/report.h"
#include "arena/standings.h"
#include "common/files.h"
#include "common/record_io.h"
#include "common/stopwatch.h"

namespace {

// Where the reading goes, phase by phase, on one core, parsing into one
// reused message as the batch reader does: the file, its framing and
// checksums, the protobuf parse, the checks and the replay of every move.
std::string ReadPhases(const std::string& log_path) {
  chess::Stopwatch phase;
  absl::StatusOr<std::string> data = chess::ReadFile(log_path);
  if (!data.ok()) return "unreadable";
  const double read = phase.Seconds();
  phase.Restart();
  absl::StatusOr<chess::RecordFile> file =
      chess::ParseRecordFile(*data, log_path);
  if (!file.ok() || file->records.empty()) return "unframed";
  const double framing = phase.Seconds();
  chess::MatchHeader header;
  header.ParseFromArray(file->records[0].data(), int(file->records[0].size()));
  chess::GameRecord game;
  chess::Stopwatch::Clock::duration parse{}, check{};
  for (size_t i = 1; i < file->records.size(); ++i) {
    chess::Stopwatch step;
    game.ParseFromArray(file->records[i].data(), int(file->records[i].size()));
    parse += step.Elapsed();
    step.Restart();
    if (!chess::ValidateGameRecord(game, header).ok()) return "invalid";
    check += step.Elapsed();
  }
  auto seconds = [](chess::Stopwatch::Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  };
  return absl::StrCat("file ", read, " s, framing and checksums ", framing,
                      " s, protobuf parse ", seconds(parse),
                      " s, checks and replay ", seconds(check), " s");
}

}  // namespace

int main(int argc, char** argv) {
  int games = 100000;
  if (argc > 1 && !absl::SimpleAtoi(argv[1], &games)) return 2;
  const bool keep = argc > 2 && std::string(argv[2]) == "--keep";
  games -= games % 2;
  namespace fs = std::filesystem;
  const std::string dir = (fs::temp_directory_path() / "report_bench").string();
  fs::remove_all(dir);
  absl::StatusOr<chess::BenchGames> played = chess::PlayBenchGames(dir);
  if (!played.ok()) {
    std::cerr << played.status() << "\n";
    return 3;
  }
  chess::MatchHeader header = played->header;
  header.mutable_config()->set_games(games);
  header.set_scheduled_games(games);
  std::vector<std::string> records = {header.SerializeAsString()};
  int plies = 0;
  for (int i = 0; i < games; ++i) {
    chess::GameRecord g = played->games[i % 2];
    g.set_index(i);
    g.set_round(i / 2);
    plies += g.moves_size();
    records.push_back(g.SerializeAsString());
  }
  const std::string log_path = dir + "/big/games.log";
  fs::create_directories(dir + "/big");
  if (!chess::ReplaceRecordFile(log_path, records).ok()) return 4;

  // A first read, not timed: the file's pages cached and the heap grown, as
  // for each timed read after it.
  if (!chess::SummarizeLog(log_path).ok()) return 2;
  // The anchor: `arena summary`, which reads and checks every game as the
  // report does.
  chess::Stopwatch start;
  const absl::StatusOr<chess::MatchSummary> summary =
      chess::SummarizeLog(log_path);
  const double anchor = start.Seconds();
  // `arena report`: the same reading, the report's data taken on the way,
  // then rendered and written.
  start.Restart();
  absl::StatusOr<chess::ReportedLog> reported =
      chess::ReadLogForReport(log_path);
  if (!reported.ok()) return 2;
  const double read = start.Seconds();
  chess::Stopwatch phase;
  const size_t rendered =
      chess::RenderMatchReport(reported->data, reported->header).size();
  const double render = phase.Seconds();
  phase.Restart();
  if (absl::Status s = chess::WriteMatchReport(reported->data, reported->header,
                                               dir + "/big");
      !s.ok()) {
    std::cerr << s << "\n";
    return 4;
  }
  const double total = read + phase.Seconds();
  // The end of a match: games.pgn, report.html and result.textproto from the
  // log read a batch at a time, and (as before) from the whole log held in
  // memory, as `arena merge` still reads it.
  chess::MatchSummary match_summary = reported->data.summary;
  start.Restart();
  const bool streamed =
      chess::WriteDerivedFiles(dir + "/big", log_path, &match_summary).ok();
  const double streamed_end = start.Seconds();
  start.Restart();
  absl::StatusOr<chess::LogContents> held_log = chess::ReadLog(log_path);
  const bool held = held_log.ok();
  const double held_read = start.Seconds();
  const bool held_written =
      held &&
      chess::WriteDerivedFiles(dir + "/big", *held_log, &match_summary).ok();
  const double held_end = start.Seconds();
  held_log = absl::InternalError("released");
  const std::string phases = ReadPhases(log_path);
  uintmax_t chunk_bytes = 0;
  int chunks = 0;
  // A small match's moves stay inside report.html: no chunk directory.
  std::error_code no_chunks;
  for (const auto& e :
       fs::directory_iterator(dir + "/big/report-games", no_chunks)) {
    chunk_bytes += e.file_size();
    ++chunks;
  }
  std::cout << absl::StrCat(
      "report of ", games, " games (", plies / games, " plies each), log ",
      fs::file_size(log_path) >> 20, " MiB:\n",
      "  arena summary (anchor: read and check every game, summarize): ",
      anchor, " s\n",
      "  arena report (the same, then render and write): ", total, " s (",
      total / anchor, "x the anchor; reading with the report's data ", read,
      " s; rendering ", render, " s into ", rendered,
      " files, then rendering and writing ", total - read, " s)\n",
      "  the end of a match (games.pgn, report.html, result.textproto) from ",
      "the log read a batch at a time: ", streamed_end, " s (",
      streamed_end / anchor, "x the anchor); from the whole log held in ",
      "memory: ", held_end, " s (", held_end / anchor,
      "x the anchor, of which reading ", held_read, " s)\n",
      "  reading the log on one core: ", phases, "\n",
      "  report.html: ", fs::file_size(dir + "/big/report.html") / 1024,
      " KiB; moves in ", chunks, " chunks: ", chunk_bytes >> 20, " MiB\n");
  if (keep) {
    std::cout << "  kept: " << dir << "/big\n";
  } else {
    fs::remove_all(dir);
  }
  return held && held_written && streamed && summary.ok() &&
                 summary->played_games() == games &&
                 reported->data.summary.played_games() == games
             ? 0
             : 3;
}
