// Benchmark, not a test: merging a large match from its shard logs.
//   bazel run //arena:merge_bench -- [GAMES=100000] [SHARDS=16]
// Plays two real games, copies them into GAMES game records dealt over SHARDS
// shard logs (the records a sharded match of that size would hold), then
// times `arena merge` (read, check every record and replay its moves, merge,
// write games.log, games.pgn and result.textproto) against the anchor of
// reading the same files' framing and checksums alone, in the same run.
#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "arena/bench_games.h"
#include "arena/match_outputs.h"
#include "arena/merge.h"
#include "common/record_io.h"
#include "common/stopwatch.h"

int main(int argc, char** argv) {
  int games = 100000, shards = 16;
  if (argc > 1 && !absl::SimpleAtoi(argv[1], &games)) return 2;
  if (argc > 2 && !absl::SimpleAtoi(argv[2], &shards)) return 2;
  games -= games % 2;
  namespace fs = std::filesystem;
  const std::string dir = (fs::temp_directory_path() / "merge_bench").string();
  fs::remove_all(dir);
  absl::StatusOr<chess::BenchGames> played = chess::PlayBenchGames(dir);
  if (!played.ok()) {
    std::cerr << played.status() << "\n";
    return 3;
  }
  const std::array<chess::GameRecord, 2>& pair = played->games;
  int moves = pair[0].moves_size() + pair[1].moves_size();

  chess::MatchHeader header = played->header;
  header.mutable_config()->set_games(games);
  header.set_scheduled_games(games);
  header.set_shard_count(shards);
  std::vector<std::string> paths;
  for (int s = 0; s < shards; ++s) {
    header.set_shard_index(s);
    std::vector<std::string> records = {header.SerializeAsString()};
    for (int p = s; p < games / 2; p += shards) {
      for (int swap = 0; swap < 2; ++swap) {
        chess::GameRecord g = pair[swap];
        g.set_index(2 * p + swap);
        g.set_round(p);
        records.push_back(g.SerializeAsString());
      }
    }
    const std::string shard_dir = absl::StrCat(dir, "/shard-", s);
    fs::create_directories(shard_dir);
    paths.push_back(shard_dir + "/games.log");
    if (!chess::ReplaceRecordFile(paths.back(), records).ok()) return 4;
  }
  uintmax_t bytes = 0;
  for (const std::string& p : paths) bytes += fs::file_size(p);

  chess::Stopwatch start;
  size_t records = 0;
  for (const std::string& p : paths)
    records += chess::ReadRecordFile(p)->records.size();
  const double anchor = start.Seconds();

  start.Restart();
  auto merged = chess::MergeLogs(paths, /*final_merge=*/true);
  if (!merged.ok()) {
    std::cerr << merged.status() << "\n";
    return 2;
  }
  const double merge_only = start.Seconds();
  auto summary = chess::WriteMerge(*merged, dir + "/merged");
  const double total = start.Seconds();
  if (!summary.ok() || summary->played_games() != games) return 4;
  start.Restart();
  const size_t pgn_bytes =
      chess::LogToPgn(dir + "/merged/games.log").value_or("").size();
  const double pgn = start.Seconds();
  std::cout << absl::StrCat(
      "merge of ", games, " games (", moves / 2,
      " moves each on average) from ", shards, " shard logs, ", bytes >> 20,
      " MiB:\n", "  framing and checksums only (anchor): ", anchor, " s for ",
      records, " records\n",
      "  arena merge, read and checked:       ", merge_only, " s\n",
      "  arena merge, written (log, PGN, result): ", total, " s (",
      total / anchor, "x the anchor)\n", "  of which the PGN alone (",
      pgn_bytes >> 20, " MiB):  ", pgn, " s\n");
  fs::remove_all(dir);
  return 0;
}
