#include "arena/schedule.h"

#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace chess {
namespace {

MatchConfig WithPlayers(int players, MatchConfig::Pairing pairing, int games) {
  MatchConfig config;
  for (int i = 0; i < players; ++i) config.add_players()->set_name("p");
  config.set_pairing(pairing);
  config.set_games(games);
  return config;
}

TEST(PairingsTest, HeadToHeadGauntletAndRoundRobin) {
  using Pairs = std::vector<std::pair<int, int>>;
  EXPECT_EQ(Pairings(WithPlayers(2, MatchConfig::HEAD_TO_HEAD, 2)),
            (Pairs{{0, 1}}));
  EXPECT_EQ(Pairings(WithPlayers(4, MatchConfig::GAUNTLET, 2)),
            (Pairs{{0, 1}, {0, 2}, {0, 3}}));
  EXPECT_EQ(Pairings(WithPlayers(4, MatchConfig::ROUND_ROBIN, 2)),
            (Pairs{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
}

TEST(ScheduleTest, RoundsFromGamesOrRounds) {
  MatchConfig config = WithPlayers(2, MatchConfig::HEAD_TO_HEAD, 7);
  EXPECT_EQ(RoundsPerPairing(config), 4);  // an odd cap still plays pairs
  config.set_rounds(5);
  EXPECT_EQ(RoundsPerPairing(config), 5);
  EXPECT_EQ(ScheduledGames(config), 10);
}

TEST(ScheduleTest, GamePairsSwapColoursAndShareTheOpening) {
  MatchConfig config = WithPlayers(3, MatchConfig::ROUND_ROBIN, 6);
  const std::vector<ScheduledGame> schedule = MakeSchedule(config, 10);
  ASSERT_EQ(int64_t(schedule.size()), ScheduledGames(config));
  ASSERT_EQ(schedule.size(), 18u);
  for (size_t i = 0; i < schedule.size(); ++i) {
    const ScheduledGame& g = schedule[i];
    EXPECT_EQ(g.index, int(i));
    EXPECT_EQ(g.round, int(i) / 6);
    EXPECT_EQ(g.pairing, int(i % 6) / 2);
    if (i % 2 == 1) {
      const ScheduledGame& first = schedule[i - 1];
      EXPECT_EQ(g.white, first.black);
      EXPECT_EQ(g.black, first.white);
      EXPECT_EQ(g.opening, first.opening);
    }
    // Every pairing of a round starts from the round's opening.
    EXPECT_EQ(g.opening, schedule[g.round * 6].opening);
  }
  // Sequential book: round r plays opening r.
  EXPECT_EQ(schedule[12].opening, 2);
}

// Unpaired: one game per round and pairing, each round its own opening, the
// colours alternating by round; shards deal single games.
TEST(ScheduleTest, UnpairedGamesAlternateColoursOverNewOpenings) {
  MatchConfig config = WithPlayers(2, MatchConfig::HEAD_TO_HEAD, 5);
  config.set_unpaired(true);
  EXPECT_EQ(RoundsPerPairing(config), 5);
  EXPECT_EQ(ScheduledGames(config), 5);
  const std::vector<ScheduledGame> schedule = MakeSchedule(config, 10);
  ASSERT_EQ(schedule.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(schedule[i].round, i);
    EXPECT_EQ(schedule[i].opening, i);
    EXPECT_EQ(schedule[i].white, i % 2);
  }
  int total = 0;
  for (int shard = 0; shard < 2; ++shard) {
    int in_shard = 0;
    for (const ScheduledGame& g : schedule)
      in_shard += InShard(g.round, g.pairing, 1, shard, 2);
    EXPECT_EQ(in_shard, ShardSize(5, shard, 2, GamesPerRound(config)));
    total += in_shard;
  }
  EXPECT_EQ(total, 5);
}

TEST(ScheduleTest, IsAPureFunctionOfTheConfigAndSeedsDiffer) {
  MatchConfig config = WithPlayers(2, MatchConfig::HEAD_TO_HEAD, 200);
  config.mutable_openings()->set_order(Openings::SHUFFLED);
  const auto a = MakeSchedule(config, 50);
  const auto b = MakeSchedule(config, 50);
  std::set<uint64_t> seeds;
  std::set<int> openings;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].opening, b[i].opening);
    EXPECT_EQ(a[i].seed, b[i].seed);
    seeds.insert(a[i].seed);
    openings.insert(a[i].opening);
  }
  EXPECT_EQ(seeds.size(), a.size());
  EXPECT_EQ(openings.size(), 50u);  // 100 rounds cycle through all 50
  config.set_seed(2);
  const auto other = MakeSchedule(config, 50);
  int same = 0;
  for (size_t i = 0; i < a.size(); i += 2)
    same += a[i].opening == other[i].opening;
  EXPECT_LT(same, 20);  // another seed shuffles the book differently
}

TEST(ScheduleTest, StartIndexWrapsAroundTheBook) {
  MatchConfig config = WithPlayers(2, MatchConfig::HEAD_TO_HEAD, 6);
  config.mutable_openings()->set_start_index(4);
  const auto schedule = MakeSchedule(config, 5);
  EXPECT_EQ(schedule[0].opening, 4);
  EXPECT_EQ(schedule[2].opening, 0);
  EXPECT_EQ(schedule[4].opening, 1);
}

TEST(ShardTest, EveryGamePairIsInExactlyOneShardAndSizesAgree) {
  MatchConfig config = WithPlayers(3, MatchConfig::GAUNTLET, 14);
  const auto schedule = MakeSchedule(config, 1);
  const int pairings = int(Pairings(config).size());
  for (int count : {1, 2, 3, 5, 40}) {
    std::vector<int> sizes(count);
    for (const ScheduledGame& g : schedule) {
      int owners = 0;
      for (int index = 0; index < count; ++index) {
        if (InShard(g.round, g.pairing, pairings, index, count)) {
          ++owners;
          ++sizes[index];
        }
      }
      EXPECT_EQ(owners, 1);
    }
    for (int index = 0; index < count; ++index) {
      EXPECT_EQ(sizes[index], ShardSize(int(schedule.size()), index, count))
          << "shard " << index << " of " << count;
    }
  }
}

}  // namespace
}  // namespace chess
