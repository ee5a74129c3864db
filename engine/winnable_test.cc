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

int WhiteEndgameShare(const std::string& fen) {
  return EndgameShare(FromFen(fen), kWhite);
}

TEST(EndgameShareTest, OppositeColouredBishopsAloneKeepLittle) {
  // Light-squared d3 against dark-squared e7: three pawns up is still drawish.
  EXPECT_EQ(WhiteEndgameShare("8/4b3/4k3/8/8/3BK3/5PPP/8 w - - 0 1"), 22);
}

TEST(EndgameShareTest, OppositeColouredBishopsWithMorePiecesKeepMore) {
  // King, bishop, rook and three pawns: 22 + 3 * 6.
  EXPECT_EQ(WhiteEndgameShare("r7/4b3/4k3/8/8/3BK3/5PPP/R7 w - - 0 1"), 40);
}

TEST(EndgameShareTest, SameColouredBishopsCountPawns) {
  // Both bishops on light squares (d3, f7): 36 + 7 * 3.
  EXPECT_EQ(WhiteEndgameShare("8/5b2/4k3/8/8/3BK3/5PPP/8 w - - 0 1"), 57);
}

TEST(EndgameShareTest, FourPawnsOrMoreKeepEverything) {
  EXPECT_EQ(WhiteEndgameShare("8/8/4k3/8/8/4K3/4PPPP/R7 w - - 0 1"),
            kFullWinnable);
  EXPECT_EQ(WhiteEndgameShare("8/8/4k3/8/8/4K3/8/R7 w - - 0 1"), 36);
}

TEST(EndgameShareTest, ScalingTapersWithThePieces) {
  // Rook and two pawns against a rook: phase 4 of 24, share 50, so the
  // score keeps (64 * 4 + 50 * 20) / 24 = 52 of 64.
  const Position rooks = FromFen("r7/8/4k3/8/8/4K3/5PP1/R7 w - - 0 1");
  EXPECT_EQ(ScaleByEndgame(rooks, 640), 640 * 52 / 64);
  // The side behind keeps its (negative) score unscaled when it has pawns
  // enough, and Black to move sees the same scaling with the signs turned.
  EXPECT_EQ(ScaleByEndgame(FromFen("r7/8/4k3/8/8/4K3/5PP1/R7 b - - 0 1"), -640),
            -640 * 52 / 64);
  // Every piece on the board: no scaling at all.
  const Position start =
      FromFen("rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(ScaleByEndgame(start, 300), 300);
}

}  // namespace
}  // namespace chess
