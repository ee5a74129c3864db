#include "engine/winnable.h"

#include <string>

#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::chess::testing::FromFen;

int WhiteShare(const std::string& fen) {
  return WinnableShare(FromFen(fen), kWhite);
}

TEST(WinnableTest, PawnsKeepTheWholeAdvantage) {
  EXPECT_EQ(WhiteShare("8/8/4k3/8/8/3BK3/7P/8 w - - 0 1"), kFullWinnable);
}

TEST(WinnableTest, AMinorPieceWithoutPawnsWinsNothing) {
  EXPECT_EQ(WhiteShare("8/8/4k3/8/5p2/3BK3/8/8 w - - 0 1"), 0);  // B v P
  EXPECT_EQ(WhiteShare("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), 0);    // N v -
  EXPECT_EQ(WhiteShare("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1"), 0);   // NN v -
}

TEST(WinnableTest, RookAgainstMinorAndRookMinorAgainstRookAreDrawish) {
  EXPECT_EQ(WhiteShare("8/8/4k3/8/3n4/4K3/8/R7 w - - 0 1"), 4);
  EXPECT_EQ(WhiteShare("8/8/4k3/8/3r4/4K3/8/R5B1 w - - 0 1"), 14);
}

TEST(WinnableTest, EnoughExtraMaterialStillWins) {
  EXPECT_EQ(WhiteShare("8/8/4k3/8/8/4K3/8/R7 w - - 0 1"), kFullWinnable);
  EXPECT_EQ(WhiteShare("8/8/4k3/8/8/2BNK3/8/8 w - - 0 1"), kFullWinnable);
  EXPECT_EQ(WhiteShare("8/8/4k3/8/3r4/4K3/8/Q7 w - - 0 1"), kFullWinnable);
}

TEST(WinnableTest, TheScoreIsScaledForWhoeverItFavours) {
  // White to move with a lone bishop against a pawn: a plus for White is
  // scaled to nothing, a plus for Black (the pawn side) is kept.
  const Position pos = FromFen("8/8/4k3/8/8/3BK3/6p1/8 w - - 0 1");
  EXPECT_EQ(ScaleByWinnable(pos, 150), 0);
  EXPECT_EQ(ScaleByWinnable(pos, -40), -40);
  // The same position with Black to move: signs are the mover's.
  const Position black = FromFen("8/8/4k3/8/8/3BK3/6p1/8 b - - 0 1");
  EXPECT_EQ(ScaleByWinnable(black, -150), 0);
  EXPECT_EQ(ScaleByWinnable(black, 40), 40);
}

}  // namespace
}  // namespace chess
