// Matches the tuner needs (self-play, SPSA pairs, acceptance tests), played by
// the arena in process.
#ifndef TUNER_SELFPLAY_H_
#define TUNER_SELFPLAY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/match.h"
#include "engine/engine_config.pb.h"

namespace chess {

struct MatchRequest {
  EngineConfig first, second;
  std::string first_name = "first", second_name = "second";
  const std::vector<Opening>* openings = nullptr;  // none: the initial position
  int games = 2;
  int64_t nodes = 5000;
  uint64_t seed = 1;
  int concurrency = 0;
  bool sprt = false;
  double elo0 = 0, elo1 = 10;
  std::string output_dir;  // receives games.log, games.pgn, result.textproto
};

// Plays (or resumes) the match; its standings, from the first player's side.
absl::StatusOr<MatchSummary> PlayMatch(const MatchRequest& request);


}  // namespace chess

#endif  // TUNER_SELFPLAY_H_
