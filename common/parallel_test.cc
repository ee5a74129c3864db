#include "common/parallel.h"

#include <atomic>
#include <vector>

#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(ForEachSliceTest, SlicesCoverTheRangeOnceInOrder) {
  for (size_t n : {0, 1, 5, 64, 1001}) {
    for (size_t parts : {0, 1, 2, 3, 7}) {
      std::vector<size_t> begins(std::max<size_t>(parts, 1)),
          ends(begins.size());
      std::vector<std::atomic<int>> visits(n);
      ForEachSlice(n, parts, [&](size_t part, size_t begin, size_t end) {
        begins[part] = begin;
        ends[part] = end;
        for (size_t i = begin; i < end; ++i) ++visits[i];
      });
      EXPECT_EQ(begins.front(), 0u);
      EXPECT_EQ(ends.back(), n);
      for (size_t p = 1; p < begins.size(); ++p)
        EXPECT_EQ(begins[p], ends[p - 1]) << n << " over " << parts;
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(visits[i], 1) << i;
    }
  }
}

TEST(ForEachIndexTest, EveryIndexOnce) {
  for (size_t n : {0, 1, 3, 500}) {
    for (size_t threads : {0, 1, 4, 600}) {
      std::vector<std::atomic<int>> visits(n);
      ForEachIndex(n, threads, [&](size_t i) { ++visits[i]; });
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(visits[i], 1) << i;
    }
  }
}

TEST(CoreCountTest, AtLeastOne) { EXPECT_GE(CoreCount(), 1u); }

}  // namespace
}  // namespace chess
