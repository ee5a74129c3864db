#include "arena/schedule.h"

#include <numeric>
#include <random>

namespace chess {

std::vector<std::pair<int, int>> Pairings(const MatchConfig& config) {
  const int n = config.players_size();
  std::vector<std::pair<int, int>> pairs;
  switch (config.pairing()) {
    case MatchConfig::HEAD_TO_HEAD:
      pairs.emplace_back(0, 1);
      break;
    case MatchConfig::GAUNTLET:
      for (int i = 1; i < n; ++i) pairs.emplace_back(0, i);
      break;
    case MatchConfig::ROUND_ROBIN:
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
      break;
  }
  return pairs;
}

int RoundsPerPairing(const MatchConfig& config) {
  if (config.unpaired())
    return config.rounds() > 0 ? config.rounds() : config.games();
  return config.rounds() > 0 ? config.rounds()
                             : int((int64_t(config.games()) + 1) / 2);
}

int GamesPerRound(const MatchConfig& config) {
  return config.unpaired() ? 1 : 2;
}

bool InShard(int round, int pairing, int num_pairings, int index, int count) {
  return (int64_t(round) * num_pairings + pairing) % count == index;
}

int ShardSize(int games, int index, int count, int games_per_round) {
  const int units = games / games_per_round;
  return index >= units
             ? 0
             : games_per_round * ((units - index + count - 1) / count);
}

int64_t ScheduledGames(const MatchConfig& config) {
  return int64_t(RoundsPerPairing(config)) * GamesPerRound(config) *
         int64_t(Pairings(config).size());
}

std::vector<ScheduledGame> MakeSchedule(const MatchConfig& config,
                                        int num_openings) {
  std::vector<int> order(std::max(num_openings, 1));
  std::iota(order.begin(), order.end(), 0);
  if (config.openings().order() == Openings::SHUFFLED) {
    SeededShuffle(order, config.seed());
  }
  const auto pairings = Pairings(config);
  std::vector<ScheduledGame> schedule;
  const int rounds = RoundsPerPairing(config);
  for (int round = 0; round < rounds; ++round) {
    const int opening =
        order[(int64_t(config.openings().start_index()) + round) %
              int64_t(order.size())];
    for (size_t p = 0; p < pairings.size(); ++p) {
      // Unpaired: one game, the colours alternating by round.
      const int first_swap = config.unpaired() ? round % 2 : 0;
      for (int swap = first_swap; swap < first_swap + GamesPerRound(config);
           ++swap) {
        ScheduledGame g;
        g.index = int(schedule.size());
        g.round = round;
        g.pairing = int(p);
        g.white = swap ? pairings[p].second : pairings[p].first;
        g.black = swap ? pairings[p].first : pairings[p].second;
        g.opening = opening;
        g.seed =
            Mix64(config.seed() * 0x9E3779B97F4A7C15ull + uint64_t(g.index));
        schedule.push_back(g);
      }
    }
  }
  return schedule;
}

}  // namespace chess
