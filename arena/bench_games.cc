#include "arena/bench_games.h"

#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "arena/log_reader.h"
#include "arena/match.h"
#include "arena/match_setup.h"

namespace chess {

absl::StatusOr<BenchGames> PlayBenchGames(const std::string& dir) {
  absl::StatusOr<LoadedMatch> match = ParseMatch(
      "players { name: \"a\" config { search { hash_mb: 1 } } }\n"
      "players { name: \"b\" config { search { hash_mb: 1 } } }\n"
      "games: 2\ntime_control { nodes: 2000 }\n"
      "adjudication { max_moves: 80 }\n",
      "bench.textproto", ".");
  if (!match.ok()) return match.status();
  std::ostringstream quiet;
  const RunOptions options{
      .output_dir = dir + "/template", .progress = false, .out = &quiet};
  if (RunMatch(*match, options) != 0) {
    return absl::InternalError("the benchmark's 2-game match failed: " +
                               quiet.str());
  }
  absl::StatusOr<LogContents> played = ReadLog(dir + "/template/games.log");
  if (!played.ok()) return played.status();
  if (played->games.size() != 2) {
    return absl::InternalError("the benchmark's match did not log 2 games");
  }
  BenchGames bench{.header = played->header,
                   .games = {played->games[0], played->games[1]}};
  if (bench.games[0].index() == 1) std::swap(bench.games[0], bench.games[1]);
  return bench;
}

}  // namespace chess
