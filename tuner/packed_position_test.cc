#include "tuner/packed_position.h"

#include <string>

#include "gtest/gtest.h"

namespace chess {
namespace {

TrainingPosition Make(const std::string& fen, float result,
                      std::optional<int> score) {
  TrainingPosition p;
  p.set_fen(fen);
  p.set_result(result);
  if (score) p.set_score_cp(*score);
  return p;
}

TEST(PackedPositionTest, RoundTripsExactly) {
  for (const TrainingPosition& p : {
           Make("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0.5f, 35),
           Make(
               "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - "
               "12 340",
               1.0f, -32767),
           Make("8/8/8/8/8/8/8/K6k w - - 255 65535", 0.0f, std::nullopt),
           Make("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", 0.0f, 32767),
       }) {
    SCOPED_TRACE(p.fen());
    const std::optional<std::string> packed = PackPosition(p);
    ASSERT_TRUE(packed.has_value());
    EXPECT_EQ(packed->size(), size_t(kPackedPositionBytes));
    absl::StatusOr<TrainingPosition> back = UnpackPosition(*packed);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->fen(), p.fen());
    EXPECT_EQ(back->result(), p.result());
    EXPECT_EQ(back->has_score_cp(), p.has_score_cp());
    EXPECT_EQ(back->score_cp(), p.score_cp());
  }
}

TEST(PackedPositionTest, WhatItCannotHoldStaysAMessage) {
  const std::string start =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_FALSE(PackPosition(Make(start, 0.25f, 0)));       // result
  EXPECT_FALSE(PackPosition(Make(start, 1.0f, 40000)));    // score
  EXPECT_FALSE(PackPosition(Make(start, 1.0f, -32768)));   // sentinel
  EXPECT_FALSE(PackPosition(Make(start + " ", 1.0f, 0)));  // not canonical
  EXPECT_FALSE(PackPosition(
      Make("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1", 1, 0)));
  EXPECT_FALSE(PackPosition(
      Make("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 1, 0)));
  EXPECT_FALSE(PackPosition(Make(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 256 1", 1, 0)));
  EXPECT_FALSE(PackPosition(Make("8/8/8 w - - 0 1", 1, 0)));
  TrainingPosition signed_position = Make(start, 1.0f, 0);
  signed_position.set_player_sign(-1);
  EXPECT_FALSE(PackPosition(signed_position));
  EXPECT_TRUE(PackPosition(Make(start, 1.0f, 0)));
}

TEST(PackedPositionTest, DamagedBytesAreDataLoss) {
  std::string packed = *PackPosition(Make(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1.0f, 0));
  EXPECT_FALSE(UnpackPosition(packed.substr(1)).ok());
  std::string bad_result = packed;
  bad_result[26] = 3;
  EXPECT_EQ(UnpackPosition(bad_result).status().code(),
            absl::StatusCode::kDataLoss);
  std::string no_piece = packed;
  no_piece[8] = 0;  // the first occupied square's code
  EXPECT_EQ(UnpackPosition(no_piece).status().code(),
            absl::StatusCode::kDataLoss);
  std::string too_many = packed;
  for (int i = 0; i < 8; ++i) too_many[i] = char(0xFF);  // 64 squares
  EXPECT_EQ(UnpackPosition(too_many).status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace chess
