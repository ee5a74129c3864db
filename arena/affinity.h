// -use-affinity (fastchess): each game that runs at once gets its own cores,
// as many as its players use threads, so that SMP engines measured side by
// side do not share cores. A game's worker thread pins itself; the engines it
// starts (processes, in-process helper threads) inherit the set.
#ifndef ARENA_AFFINITY_H_
#define ARENA_AFFINITY_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena/match_config.pb.h"

namespace chess {

// The most threads any player of the match searches with: an in-process
// config's search.threads, an external engine's "Threads" option (1 when
// not set).
int ThreadsPerGame(const MatchConfig& config);

// `games_at_once` disjoint sets of `threads_per_game` cores each, from the
// cores this process may run on; an error naming the shortfall when there
// are not enough.
absl::StatusOr<std::vector<std::vector<int>>> CoreSetsPerGame(
    int games_at_once, int threads_per_game);

// Pins the calling thread (and what it starts from now on) to `cores`.
absl::Status PinCurrentThread(const std::vector<int>& cores);

}  // namespace chess

#endif  // ARENA_AFFINITY_H_
