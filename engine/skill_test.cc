#include "engine/skill.h"

#include <vector>

#include "engine/config.h"
#include "engine/search.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(SkillTest, EloMapsToLevelsMonotonically) {
  double previous = -1;
  for (int elo = 1200; elo <= 2400; elo += 20) {
    const double level = LevelForElo(elo);
    EXPECT_GE(level, previous) << elo;
    EXPECT_GE(level, 0);
    EXPECT_LE(level, kFullStrength);
    previous = level;
  }
  EXPECT_EQ(LevelForElo(1000), 1);  // below the weakest level measured
  EXPECT_NEAR(LevelForElo(1877), 10, 1e-9);
  EXPECT_EQ(LevelForElo(2400), kFullStrength);
  SearchParams params;
  params.set_skill_level(7);
  EXPECT_EQ(SkillLevel(params), 7);
  params.set_limit_strength(true);
  params.set_elo(2400);
  EXPECT_EQ(SkillLevel(params), kFullStrength);
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
