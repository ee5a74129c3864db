#include "engine/eval_cache.h"

#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(EvalCache, ReturnsWhatWasStoredForTheSameKeyOnly) {
  EvalCache cache(1 << 4);
  const Key key = 0x123456789ABCDEF0ULL;
  EXPECT_FALSE(cache.Probe(key));
  cache.Store(key, -1234);
  ASSERT_TRUE(cache.Probe(key));
  EXPECT_EQ(*cache.Probe(key), -1234);
  // Same slot (low bits), another position: a miss, never its evaluation.
  EXPECT_FALSE(cache.Probe(key ^ (Key(1) << 40)));
  cache.Store(key ^ (Key(1) << 40), 77);
  EXPECT_FALSE(cache.Probe(key));
  EXPECT_EQ(*cache.Probe(key ^ (Key(1) << 40)), 77);
}

TEST(EvalCache, KeepsTheWholeSixteenBitRangeAndNothingBeyond) {
  EvalCache cache(1 << 4);
  for (int eval : {0, 1, -1, 32767, -32768}) {
    cache.Store(0xFFFF0001ULL, eval);
    ASSERT_TRUE(cache.Probe(0xFFFF0001ULL)) << eval;
    EXPECT_EQ(*cache.Probe(0xFFFF0001ULL), eval);
  }
  cache.Store(0xABCD0002ULL, 40000);
  EXPECT_FALSE(cache.Probe(0xABCD0002ULL));
}

TEST(EvalCache, ClearForgetsEverything) {
  EvalCache cache(1 << 4);
  cache.Store(0xFFFF0003ULL, 5);
  cache.Clear();
  EXPECT_FALSE(cache.Probe(0xFFFF0003ULL));
}

}  // namespace
}  // namespace chess
