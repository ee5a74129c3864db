// Matches the tuner needs (self-play, SPSA pairs, acceptance tests), described
// as the tuner thinks of them and played through the arena's front door
// (arena/venue.h): in process or, split into shards, on Slurm.
#ifndef TUNER_SELFPLAY_H_
#define TUNER_SELFPLAY_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/match.h"
#include "arena/venue.h"
#include "engine/engine_config.pb.h"

namespace chess {

struct MatchRequest {
  EngineConfig first, second;
  // Instead of `first` / `second`: a UCI program (SPSA of another engine).
  std::optional<ExternalEngine> first_external, second_external;
  std::string first_name = "first", second_name = "second";
  const std::vector<Opening>* openings = nullptr;  // none: the initial position
  std::string book_path;  // where `openings` came from: Slurm's shards read it
  int games = 2;
  int64_t nodes = 5000;
  int64_t soft_nodes = 0;  // > 0: `nodes` is the hard cap (TimeControl)
  int random_plies = 0;    // Openings.random_plies
  bool random_plies_per_game = false;  // Openings.random_plies_per_game
  // None: resign at 1000 cp for 4 moves, draw at 10 cp for 8 moves from move
  // 40, 200 moves at most.
  std::optional<Adjudication> adjudication;
  uint64_t seed = 1;
  int concurrency = 0;
  bool sprt = false;
  double elo0 = 0, elo1 = 10;
  // Receives games.log, games.pgn, result.textproto; on Slurm, match.textproto,
  // shard-I/ and merged/.
  std::string output_dir;
  // Where the match is played (arena/venue.h, the front door every match
  // goes through): in this process unless it names shards.
  Venue venue;
  // A log with damaged records is rewritten without them (as the arena's
  // --drop_damaged) instead of refused.
  bool drop_damaged = false;
};

// Plays (or resumes) the match; its standings, from the first player's side.
absl::StatusOr<MatchSummary> PlayMatch(const MatchRequest& request);

// The log of a match PlayMatch played: all its games, wherever they were
// played.
std::string PlayedLogPath(const MatchRequest& request);
// Whether that log holds games of the request's match, as a resumed match
// checks before it plays (SameMatch): for reading a log without playing.
absl::Status CheckPlayedLog(const MatchRequest& request);

// The arena binary beside this program's (bazel-bin/tuner/tuner ->
// bazel-bin/arena/arena), or "arena" from PATH.
std::string DefaultArenaBinary();

}  // namespace chess

#endif  // TUNER_SELFPLAY_H_
