// The game schedule: a pure function of the match config, so that a match can
// be resumed and replayed exactly.
#ifndef ARENA_SCHEDULE_H_
#define ARENA_SCHEDULE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "arena/match_config.pb.h"
#include "common/random.h"  // Mix64, for the games' seeds

namespace chess {

struct ScheduledGame {
  int index = 0;
  int round = 0;             // game pair number within its pairing
  int pairing = 0;           // index into Pairings()
  int white = 0, black = 0;  // player indices
  int opening = 0;           // index into the book
  uint64_t seed = 0;
};

// Player index pairs; results are reported from the first one's side.
std::vector<std::pair<int, int>> Pairings(const MatchConfig& config);
int RoundsPerPairing(const MatchConfig& config);
// Games of one round and pairing: 2 (an opening with colours swapped), or 1
// for an unpaired match.
int GamesPerRound(const MatchConfig& config);
// Whether a game belongs to shard `index` of `count`: game pairs (the two
// games of one round and pairing) are dealt round-robin, and stay together.
bool InShard(int round, int pairing, int num_pairings, int index, int count);
// How many of a schedule's first `games` games shard `index` of `count` has,
// `games_per_round` being GamesPerRound of its match.
int ShardSize(int games, int index, int count, int games_per_round = 2);

// The schedule's length, without making it.
int64_t ScheduledGames(const MatchConfig& config);
// More would need gigabytes for the schedule alone; a longer match is a
// resumed one with a raised cap, or several.
inline constexpr int64_t kMaxScheduledGames = 10'000'000;
// Every round plays each pairing once, as a game pair from one opening with
// colours swapped; all pairings of a round share the opening.
std::vector<ScheduledGame> MakeSchedule(const MatchConfig& config,
                                        int num_openings);

}  // namespace chess

#endif  // ARENA_SCHEDULE_H_
