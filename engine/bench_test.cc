#include "engine/bench.h"

#include "engine/config.h"
#include "engine/position.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(BenchTest, AtLeastThirtyValidPositions) {
  EXPECT_GE(BenchPositions().size(), 30u);
  for (const std::string& fen : BenchPositions()) {
    EXPECT_TRUE(Position::FromFen(fen).ok()) << fen;
  }
}

// The signature of the default search: if this changes, the search's behaviour
// changed. When that is intended, update the number here (and log the strength
// change in docs/strength-log.md); `bazel run //engine:uci -- bench` prints it.
TEST(BenchTest, SignatureIsPinned) {
  constexpr uint64_t kSignature = 172658;
  EXPECT_EQ(RunBench(DefaultEngineConfig(), 8, nullptr).nodes, kSignature);
}

}  // namespace
}  // namespace chess
