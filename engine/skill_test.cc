#include "engine/skill.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "engine/config.h"
#include "engine/search.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(SkillTest, EloMapsToLevelsMonotonically) {
  double previous = -1;
  for (int elo = kLowestElo; elo < kLowestNodeCapElo; elo += 20) {
    const double level = LevelForElo(elo);
    EXPECT_GE(level, previous) << elo;
    EXPECT_GE(level, 0);
    EXPECT_LT(level, kFullStrength);
    previous = level;
  }
  EXPECT_EQ(LevelForElo(1000), 1);  // below the weakest level measured
  EXPECT_NEAR(LevelForElo(1877), 10, 1e-9);
  SearchParams params;
  params.set_skill_level(7);
  EXPECT_EQ(HandicapFor(params).level, 7);
  EXPECT_EQ(HandicapFor(params).nodes_per_move, 0u);
  params.set_limit_strength(true);
  params.set_elo(1500);
  EXPECT_EQ(HandicapFor(params).level, LevelForElo(1500));
  EXPECT_EQ(HandicapFor(params).nodes_per_move, 0u);
}

// The upper range: full strength, more nodes a move the higher the setting.
TEST(SkillTest, EloMapsToNodeCapsMonotonically) {
  uint64_t previous = 0;
  for (int elo = kLowestNodeCapElo; elo <= kHighestElo; elo += 20) {
    const uint64_t nodes = NodesForElo(elo);
    EXPECT_GT(nodes, previous) << elo;
    previous = nodes;
  }
  EXPECT_EQ(NodesForElo(1000), NodesForElo(kLowestNodeCapElo));
  // docs/engine.md quotes these.
  EXPECT_EQ(NodesForElo(1850), 6516u);
  EXPECT_EQ(NodesForElo(2000), 34392u);
  EXPECT_EQ(NodesForElo(2400), 2904351u);
  EXPECT_EQ(NodesForElo(4000), 0u);  // above every point: no cap
  SearchParams params;
  params.set_limit_strength(true);
  params.set_elo(2200);
  EXPECT_EQ(HandicapFor(params).level, kFullStrength);
  EXPECT_EQ(HandicapFor(params).nodes_per_move, NodesForElo(2200));
}

TEST(SkillTest, ANodeCappedSearchStopsAtItsCapAndRepeats) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  config.mutable_search()->set_limit_strength(true);
  config.mutable_search()->set_elo(kLowestNodeCapElo);
  const uint64_t cap = NodesForElo(kLowestNodeCapElo);
  SearchLimits limits;
  limits.depth = 40;
  Engine a(config), b(config);
  const SearchInfo first = a.Search(Position::Start(), {}, limits);
  const SearchInfo second = b.Search(Position::Start(), {}, limits);
  EXPECT_GE(first.nodes, cap);
  EXPECT_LT(first.nodes, cap + 200);
  EXPECT_EQ(first.nodes, second.nodes);
  EXPECT_EQ(first.best_move, second.best_move);
  EXPECT_EQ(first.lines.size(), 0u);  // one line: full strength
  limits.nodes = cap / 2;             // a smaller limit of the search wins
  EXPECT_LT(a.Search(Position::Start(), {}, limits).nodes, cap);
}

// A pondering search that reaches its node limit still waits for ponderhit.
TEST(SkillTest, APonderingSearchAtItsNodeCapWaitsForPonderhit) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  config.mutable_search()->set_limit_strength(true);
  config.mutable_search()->set_elo(kLowestNodeCapElo);
  Engine engine(config);
  std::atomic<bool> done{false};
  SearchInfo info;
  engine.BeginPonder();
  std::thread searcher([&] {
    info = engine.Search(Position::Start(), {}, SearchLimits());
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(done);
  engine.PonderHit();
  searcher.join();
  EXPECT_FALSE(info.best_move.is_none());
  EXPECT_LT(info.nodes, NodesForElo(kLowestNodeCapElo) + 200);
}

// Weaker levels play worse lines more often; a strong level mostly the best.
TEST(SkillTest, LowerLevelsPickWorseLinesMoreOften) {
  const std::vector<int> scores = {50, 30, 10, -40};
  auto best_share = [&](double level) {
    int best = 0;
    for (uint64_t draw = 1; draw <= 2000; ++draw)
      best += PickLine(scores, level, draw * 0x9E3779B97F4A7C15ull) == 0;
    return best / 2000.0;
  };
  const double weak = best_share(0), strong = best_share(19);
  EXPECT_LT(weak, strong);
  EXPECT_GT(strong, 0.4);
  EXPECT_LT(weak, 0.6);
  EXPECT_EQ(PickLine({7}, 0, 12345), 0u);
}

TEST(SkillTest, AWeakenedSearchIsShallowAndRepeatable) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  config.mutable_search()->set_skill_level(2);
  SearchLimits limits;
  limits.depth = 12;
  Engine a(config), b(config);
  const SearchInfo first = a.Search(Position::Start(), {}, limits);
  const SearchInfo second = b.Search(Position::Start(), {}, limits);
  EXPECT_EQ(first.depth, 3);
  EXPECT_EQ(first.lines.size(), 4u);
  EXPECT_EQ(first.best_move, second.best_move);
  EXPECT_FALSE(first.best_move.is_none());
}

}  // namespace
}  // namespace chess
