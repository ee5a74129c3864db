// Benchmark, not a test: the report of a large match.
//   bazel run //arena:report_bench -- [GAMES=100000]
// Plays two real games, copies them into a GAMES-game log, then times
// `arena report` (read and check the log, summarize, render, write) against
// the anchor of `arena summary` on the same log (read, check, summarize), in
// the same run, and prints the size of the page and of its move chunks.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "arena/match.h"
#include "common/record_io.h"
#include "arena/report.h"
#include "arena/standings.h"
#include "common/stopwatch.h"

namespace {


}  // namespace

int main(int argc, char** argv) {
  int games = 100000;
  if (argc > 1 && !absl::SimpleAtoi(argv[1], &games)) return 2;
  games -= games % 2;
  namespace fs = std::filesystem;
  const std::string dir = (fs::temp_directory_path() / "report_bench").string();
  fs::remove_all(dir);
  auto match = chess::ParseMatch(
      "players { name: \"a\" config { search { hash_mb: 1 } } }\n"
      "players { name: \"b\" config { search { hash_mb: 1 } } }\n"
      "games: 2\ntime_control { nodes: 2000 }\nadjudication { max_moves: 80 "
      "}\n",
      "bench.textproto", ".");
  if (!match.ok()) return 2;
  std::ostringstream quiet;
  chess::RunOptions options{
      .output_dir = dir + "/template", .progress = false, .out = &quiet};
  if (chess::RunMatch(*match, options) != 0) return 3;
  auto played = chess::ReadLog(dir + "/template/games.log");
  if (!played.ok() || played->games.size() != 2) return 3;
  chess::MatchHeader header = played->header;
  header.mutable_config()->set_games(games);
  header.set_scheduled_games(games);
  std::vector<std::string> records = {header.SerializeAsString()};
  int plies = 0;
  for (int i = 0; i < games; ++i) {
    chess::GameRecord g =
        played->games[played->games[0].index() == i % 2 ? 0 : 1];
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
  auto log = chess::ReadLog(log_path);
  log = chess::LogContents();
  chess::Stopwatch start;
  log = chess::ReadLog(log_path);
  if (!log.ok()) return 2;
  const chess::MatchSummary summary = chess::SummarizeLog(*log);
  const double anchor = start.Seconds();
  log = chess::LogContents();  // the second read starts from the same memory
  start.Restart();
  log = chess::ReadLog(log_path);
  const chess::MatchSummary again = chess::SummarizeLog(*log);
  const double read = start.Seconds();
  chess::Stopwatch phase;
  const chess::MatchReportData data = chess::BuildMatchReportData(*log, again);
  const double build = phase.Seconds();
  phase.Restart();
  const size_t rendered = chess::RenderMatchReport(data, log->header).size();
  const double render = phase.Seconds();
  if (absl::Status s = chess::WriteMatchReport(*log, again, dir + "/big");
      !s.ok()) {
    std::cerr << s << "\n";
    return 4;
  }
  const double total = start.Seconds() - build - render;
  uintmax_t chunk_bytes = 0;
  int chunks = 0;
  for (const auto& e : fs::directory_iterator(dir + "/big/report-games")) {
    chunk_bytes += e.file_size();
    ++chunks;
  }
  std::cout << absl::StrCat(
      "report of ", games, " games (", plies / games, " plies each), log ",
      fs::file_size(log_path) >> 20, " MiB:\n",
      "  arena summary (anchor: read, check, summarize): ", anchor, " s\n",
      "  arena report (the same, then render and write): ", total, " s (",
      total / anchor, "x the anchor; ", total - read,
      " s for the report itself: data ", build, " s, rendering ", render,
      " s into ", rendered, " files)\n",
      "  report.html: ", fs::file_size(dir + "/big/report.html") / 1024,
      " KiB; moves in ", chunks, " chunks: ", chunk_bytes >> 20, " MiB\n");
  fs::remove_all(dir);
  return summary.played_games() == games ? 0 : 3;
}
