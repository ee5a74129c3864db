#include "engine/network_file.h"

#include <fstream>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "engine/network.h"
#include "engine/position.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

NetworkParams RandomPerspective(int hidden, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> input(-300, 300), output(-127, 127);
  NetworkParams params;
  params.set_layout(NetworkParams::PERSPECTIVE);
  params.set_whole_evaluation(true);
  params.set_hidden_size(hidden);
  for (int i = 0; i < kNetworkInputs * hidden; ++i)
    params.add_input_weights(input(rng));
  for (int j = 0; j < hidden; ++j) params.add_hidden_biases(input(rng) + 128);
  for (int j = 0; j < 2 * hidden; ++j) params.add_output_weights(output(rng));
  params.set_output_bias(output(rng) * 40);
  return params;
}

const char* const kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 4 9",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 w - - 5 50"};

TEST(NetworkFileTest, BulletsFormatRoundTripsExactly) {
  NetworkParams params = RandomPerspective(64, 1);
  params.set_activation_one(255);
  params.set_output_one(64);
  params.set_output_scale(400);
  const Quantisation q;  // 255, 64, 400
  absl::StatusOr<BulletExport> file = SerializeBulletNetwork(params, q);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_TRUE(file->exact);
  // 768 x 64 + 64 + 128 + 1 values, padded to 64 bytes.
  EXPECT_EQ(file->bytes.size(), 98752u);
  absl::StatusOr<NetworkParams> back = ParseBulletNetwork(file->bytes, q, "x");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->SerializeAsString() == params.SerializeAsString());
}

// Our networks' output is in pawns (scale 100, QB 64): a QB four times as
// large holds them exactly in bullet's scale of 400; QB 64 rounds.
TEST(NetworkFileTest, AnotherScaleIsExactWhereTheRatioHoldsIt) {
  const NetworkParams ours = RandomPerspective(32, 2);
  const Network net = *Network::FromProto(ours);
  absl::StatusOr<BulletExport> exact =
      SerializeBulletNetwork(ours, {255, 256, 400});
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_TRUE(exact->exact);
  EXPECT_EQ(exact->output_factor, 1);
  const Network loaded = *Network::FromProto(
      *ParseBulletNetwork(exact->bytes, {255, 256, 400}, "x"));
  absl::StatusOr<BulletExport> rounded = SerializeBulletNetwork(ours, {});
  ASSERT_TRUE(rounded.ok()) << rounded.status();
  EXPECT_FALSE(rounded->exact);
  EXPECT_EQ(rounded->output_factor, 0.25);
  const Network approximate =
      *Network::FromProto(*ParseBulletNetwork(rounded->bytes, {}, "x"));
  for (const char* fen : kFens) {
    const Position pos = *Position::FromFen(fen);
    EXPECT_EQ(loaded.Evaluate(pos), net.Evaluate(pos)) << fen;
    EXPECT_NEAR(approximate.Evaluate(pos), net.Evaluate(pos), 30) << fen;
  }
}

TEST(NetworkFileTest, BucketedNetworksRoundTripInBulletsLayout) {
  NetworkParams params = RandomPerspective(32, 4);
  params.set_activation_one(255);
  params.set_output_one(64);
  params.set_output_scale(400);
  for (int s = 0; s < 64; ++s) params.add_king_buckets(s < 16 ? 0 : 1);
  for (int i = 0; i < kNetworkInputs * 32; ++i)
    params.add_input_weights(params.input_weights(i) / 2);
  params.set_output_buckets(8);
  params.clear_output_bias();
  for (int i = 0; i < 7 * 64; ++i) params.add_output_weights(i % 101 - 50);
  for (int b = 0; b < 8; ++b) params.add_output_biases(100 * b - 300);
  ASSERT_TRUE(Network::FromProto(params).ok());
  const absl::StatusOr<BulletExport> file = SerializeBulletNetwork(params, {});
  ASSERT_TRUE(file.ok()) << file.status();
  // 2 x 768 x 32 input weights, 32 biases, 8 x 64 output weights, 8 biases.
  EXPECT_EQ(file->bytes.size(), 99456u);
  const NetworkShape shape = ShapeOf(params);
  EXPECT_EQ(DescribeShape(shape),
            "2 king buckets (mirrored), 8 output buckets");
  EXPECT_EQ(DescribeShape({{}, 8}), "no king buckets, 8 output buckets");
  EXPECT_EQ(DescribeShape({}), "no buckets");
  absl::StatusOr<NetworkParams> back =
      ParseBulletNetwork(file->bytes, {}, "x", shape);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->SerializeAsString() == params.SerializeAsString());
  // Read without its buckets, the size says it is no such network.
  EXPECT_FALSE(ParseBulletNetwork(file->bytes, {}, "x").ok());
  EXPECT_EQ(ParseKingBuckets("0, 1 2").status().message(),
            "king buckets: 3 numbers, not 64 (a1 first)");
  EXPECT_TRUE(ParseKingBuckets("")->empty());
}

TEST(NetworkFileTest, BadFilesGetClearErrors) {
  NetworkParams params = RandomPerspective(32, 3);
  params.set_output_scale(400);
  const std::string bytes = SerializeBulletNetwork(params, {})->bytes;
  auto refused = [](absl::string_view file, const std::string& words) {
    absl::StatusOr<NetworkParams> parsed =
        ParseBulletNetwork(file, {}, "f.bin");
    ASSERT_FALSE(parsed.ok());
    EXPECT_TRUE(absl::StrContains(parsed.status().message(), words))
        << parsed.status();
  };
  refused(bytes.substr(0, bytes.size() - 64), "f.bin: 49344 bytes is no");
  refused(bytes.substr(0, 1000), "a truncated file, or another architecture");
  refused("", "0 bytes is no");
  std::string padded = bytes;
  padded.back() = 1;
  refused(padded, "of the padding after the output bias is not 0");
  std::string overflowing = bytes;
  for (int input = 0; input < 40; ++input) {
    overflowing[2 * (input * 32 + 7)] = char(0xff);
    overflowing[2 * (input * 32 + 7) + 1] = char(0x7f);
  }
  refused(overflowing, "hidden unit 7 can sum to");
  EXPECT_FALSE(ParseBulletNetwork(bytes, {0, 64, 400}, "f.bin").ok());
  EXPECT_TRUE(absl::IsNotFound(
      ReadBulletNetwork(::testing::TempDir() + "/missing.bin", {}).status()));
  NetworkParams side_to_move = params;
  side_to_move.set_layout(NetworkParams::SIDE_TO_MOVE);
  EXPECT_FALSE(SerializeBulletNetwork(side_to_move, {}).ok());
  EXPECT_FALSE(SerializeBulletNetwork(params, {181, 64, 400}).ok());
}

}  // namespace
}  // namespace chess
