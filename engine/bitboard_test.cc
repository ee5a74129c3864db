#include "engine/bitboard.h"

#include <random>

#include "gtest/gtest.h"

namespace chess {
namespace {

Bitboard SlowRay(Square s, Bitboard occupied, int df, int dr) {
  Bitboard result = 0;
  for (int f = FileOf(s) + df, r = RankOf(s) + dr;
       f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
    result |= SquareBB(MakeSquare(f, r));
    if (occupied & SquareBB(MakeSquare(f, r))) break;
  }
  return result;
}

TEST(Bitboard, MagicAttacksMatchRayWalk) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    Bitboard occupied = rng() & rng();
    for (Square s = 0; s < 64; ++s) {
      Bitboard rook = SlowRay(s, occupied, 1, 0) | SlowRay(s, occupied, -1, 0) |
                      SlowRay(s, occupied, 0, 1) | SlowRay(s, occupied, 0, -1);
      Bitboard bishop =
          SlowRay(s, occupied, 1, 1) | SlowRay(s, occupied, 1, -1) |
          SlowRay(s, occupied, -1, 1) | SlowRay(s, occupied, -1, -1);
      ASSERT_EQ(RookAttacks(s, occupied), rook) << s;
      ASSERT_EQ(BishopAttacks(s, occupied), bishop) << s;
    }
  }
}

TEST(Bitboard, BetweenAndLine) {
  EXPECT_EQ(Between(kA1, kH8), Between(kH8, kA1));
  EXPECT_EQ(PopCount(Between(kA1, kH8)), 6);
  EXPECT_EQ(Between(kA1, kA1 + 17 - 0), 0u);
  EXPECT_EQ(PopCount(Line(kA1, kA1 + 18)), 8);
  EXPECT_EQ(Line(kE1, kH1), kRank1);
  EXPECT_EQ(Between(kE1, kF1), 0u);
}

TEST(Bitboard, LeaperAttacks) {
  EXPECT_EQ(PopCount(KnightAttacks(kA1)), 2);
  EXPECT_EQ(PopCount(KingAttacks(kE1)), 5);
  EXPECT_EQ(PawnAttacks(kWhite, kE1 + 8),
            SquareBB(kE1 + 15) | SquareBB(kE1 + 17));
  EXPECT_EQ(PawnAttacks(kBlack, kA8 - 8), SquareBB(kA8 - 15));
}

}  // namespace
}  // namespace chess
