#include "engine/tt.h"

#include <cstdint>

#include "common/sanitizer.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

// Keys that differ only in their low bits share a bucket in any table of up
// to 2^40 buckets (the bucket is the key's top bits).
constexpr Key kBucketBase = 0x9e3779b97f4a7c00ULL;
Key KeyInBucket(int i) { return kBucketBase + Key(i); }

bool Holds(const TranspositionTable& tt, int i) {
  return tt.Probe(KeyInBucket(i)).has_value();
}

// Memory that cannot be had gives a smaller table, never a crash; a table that
// was asked for stores and finds.
TEST(TranspositionTableTest, ImpossibleSizeFallsBackToWhatFits) {
  if (SanitizerName() == "tsan") {
    GTEST_SKIP() << "TSan's allocator writes every page of a huge table";
  }
  TranspositionTable tt;
  const size_t got = tt.Resize(size_t(1) << 40);  // a million terabytes
  EXPECT_LT(got, size_t(1) << 40);
  EXPECT_EQ(tt.megabytes(), got);
  EXPECT_EQ(tt.Resize(1), 1u);
  tt.Store(Key(12345), Move::None(), 17, 3, kBoundExact);
  ASSERT_TRUE(tt.Probe(Key(12345)).has_value());
  EXPECT_EQ(tt.Probe(Key(12345))->score, 17);
  tt.Clear();
  EXPECT_FALSE(tt.Probe(Key(12345)).has_value());
}

// Clear gives the table's pages back to the kernel: every slot reads empty
// after it, and the pages come back, zeroed, when written again.
TEST(TranspositionTableTest, ClearEmptiesEverySlotAndTheTableStillStores) {
  TranspositionTable tt;
  ASSERT_EQ(tt.Resize(5), 5u);  // not a whole number of 2 MiB pages
  constexpr int kKeys = 100000;
  auto key_of = [](int i) { return Key(i) * 0x9e3779b97f4a7c15ULL; };
  for (int round = 0; round < 2; ++round) {
    tt.NewSearch();
    for (int i = 0; i < kKeys; ++i)
      tt.Store(key_of(i), Move::None(), i % 1000, 5, kBoundExact);
    int found = 0;
    for (int i = 0; i < kKeys; ++i) {
      const std::optional<TTEntry> e = tt.Probe(key_of(i));
      if (!e) continue;
      ++found;
      EXPECT_EQ(e->score, i % 1000);
    }
    EXPECT_GT(found, kKeys * 3 / 4);  // 327,680 slots
    EXPECT_GT(tt.Hashfull(), 0);
    tt.Clear();
    for (int i = 0; i < kKeys; ++i) ASSERT_FALSE(tt.Probe(key_of(i))) << i;
    EXPECT_EQ(tt.Hashfull(), 0);
  }
}

TEST(TranspositionTableTest, ABucketHoldsFourPositionsAndDropsTheShallowest) {
  TranspositionTable tt;
  tt.Resize(1);
  tt.NewSearch();
  const int depths[] = {5, 2, 7, 4};
  for (int i = 0; i < 4; ++i)
    tt.Store(KeyInBucket(i), Move::None(), 10 * i, depths[i], kBoundExact);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(Holds(tt, i)) << i;
    EXPECT_EQ(tt.Probe(KeyInBucket(i))->score, 10 * i);
    EXPECT_EQ(tt.Probe(KeyInBucket(i))->depth, depths[i]);
  }
  // A fifth position takes the slot of the shallowest, even when shallower
  // itself: the newest result is the likeliest to be asked for again.
  tt.Store(KeyInBucket(4), Move::None(), 40, 1, kBoundLower);
  EXPECT_FALSE(Holds(tt, 1));
  EXPECT_TRUE(Holds(tt, 0) && Holds(tt, 2) && Holds(tt, 3) && Holds(tt, 4));
}

// A slot is worth its depth less 8 plies for each search since it was written.
TEST(TranspositionTableTest, EntriesOfEarlierSearchesGoFirstUnlessMuchDeeper) {
  TranspositionTable tt;
  tt.Resize(1);
  tt.NewSearch();
  tt.Store(KeyInBucket(0), Move::None(), 0, 20, kBoundExact);  // worth 12
  tt.Store(KeyInBucket(1), Move::None(), 0, 10, kBoundExact);  // worth 2
  tt.NewSearch();
  tt.Store(KeyInBucket(2), Move::None(), 0, 3, kBoundExact);  // worth 3
  tt.Store(KeyInBucket(3), Move::None(), 0, 3, kBoundExact);
  tt.Store(KeyInBucket(4), Move::None(), 0, 3, kBoundExact);
  EXPECT_FALSE(Holds(tt, 1));
  EXPECT_TRUE(Holds(tt, 0) && Holds(tt, 2) && Holds(tt, 3) && Holds(tt, 4));
  tt.Store(KeyInBucket(5), Move::None(), 0, 3, kBoundExact);
  EXPECT_TRUE(Holds(tt, 0));
  EXPECT_TRUE(Holds(tt, 5));
}

TEST(TranspositionTableTest, StoringAPositionAgainRewritesItsOwnSlot) {
  TranspositionTable tt;
  tt.Resize(1);
  tt.NewSearch();
  const Move move(MakeSquare(4, 1), MakeSquare(4, 3));  // e2e4
  for (int i = 0; i < 4; ++i) tt.Store(KeyInBucket(i), move, 0, 9, kBoundExact);
  // Shallower, no move: the slot is rewritten in place and keeps its move.
  tt.Store(KeyInBucket(2), Move::None(), -5, 1, kBoundUpper);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(Holds(tt, i)) << i;
  const TTEntry e = *tt.Probe(KeyInBucket(2));
  EXPECT_EQ(e.score, -5);
  EXPECT_EQ(e.depth, 1);
  EXPECT_EQ(e.bound, kBoundUpper);
  EXPECT_EQ(Move::FromBits(e.move), move);
}

}  // namespace
}  // namespace chess
