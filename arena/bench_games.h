// Games for the arena's benchmarks (not for tests): two real games played
// once, which a benchmark then copies into a log of any size.
#ifndef ARENA_BENCH_GAMES_H_
#define ARENA_BENCH_GAMES_H_

#include <array>
#include <string>

#include "absl/status/statusor.h"
#include "arena/match_log.pb.h"

namespace chess {

struct BenchGames {
  MatchHeader header;               // the 2-game match's log header
  std::array<GameRecord, 2> games;  // games[i] has index i
};

// Plays a 2-game match between two default engines at 2,000 nodes a move
// (80 moves at most) into `dir`/template and returns its header and games.
absl::StatusOr<BenchGames> PlayBenchGames(const std::string& dir);

}  // namespace chess

#endif  // ARENA_BENCH_GAMES_H_
