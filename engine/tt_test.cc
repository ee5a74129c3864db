#include "engine/tt.h"

#include <cstdint>

#include "common/sanitizer.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

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

}  // namespace
}  // namespace chess
