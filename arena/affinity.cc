#include "arena/affinity.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace chess {

int ThreadsPerGame(const MatchConfig& config) {
  int most = 1;
  for (const PlayerConfig& p : config.players()) {
    int threads = 1;
    if (p.has_external()) {
      for (const auto& [name, value] : p.external().options()) {
        int n;
        // UCI option names are case-insensitive, as engines read them.
        if (absl::EqualsIgnoreCase(name, "Threads") &&
            absl::SimpleAtoi(value, &n))
          threads = std::max(threads, n);
      }
    } else {
      threads = p.config().search().threads();
    }
    most = std::max(most, threads);
  }
  return most;
}

absl::StatusOr<std::vector<std::vector<int>>> CoreSetsPerGame(
    int games_at_once, int threads_per_game) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
    return absl::InternalError(
        absl::StrCat("use_affinity: cannot read this process's cores: ",
                     std::strerror(errno)));
  }
  std::vector<int> cores;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cores.push_back(c);
  const int64_t needed = int64_t(games_at_once) * threads_per_game;
  if (needed > int64_t(cores.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "use_affinity: ", games_at_once, " games at once with ",
        threads_per_game, " threads each need ", needed, " cores; ",
        cores.size(),
        " are available (lower concurrency or the engines' threads)"));
  }
  std::vector<std::vector<int>> sets(static_cast<size_t>(games_at_once));
  for (int g = 0; g < games_at_once; ++g)
    sets[g].assign(cores.begin() + g * threads_per_game,
                   cores.begin() + (g + 1) * threads_per_game);
  return sets;
}

absl::Status PinCurrentThread(const std::vector<int>& cores) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cores) CPU_SET(c, &set);
  if (const int error =
          pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
      error != 0) {
    return absl::InternalError(
        absl::StrCat("use_affinity: cannot pin a game to its cores: ",
                     std::strerror(error)));
  }
  return absl::OkStatus();
}

}  // namespace chess
