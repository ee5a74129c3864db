#include "engine/network.h"

#include <algorithm>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "engine/config.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

// A network of `hidden` units with seeded weights of at most `magnitude`.
NetworkParams RandomParams(int hidden, int magnitude, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> weight(-magnitude, magnitude);
  NetworkParams params;
  params.set_hidden_size(hidden);
  for (int i = 0; i < kNetworkInputs * hidden; ++i)
    params.add_input_weights(weight(rng));
  for (int j = 0; j < hidden; ++j) {
    params.add_hidden_biases(weight(rng) + kNetworkActivationOne / 2);
    params.add_output_weights(weight(rng));
  }
  params.set_output_bias(weight(rng) * 100);
  return params;
}

// The definition, unit by unit in 64-bit arithmetic.
int Reference(const NetworkParams& params, const Position& pos) {
  const int hidden = params.hidden_size();
  int64_t out = params.output_bias();
  for (int j = 0; j < hidden; ++j) {
    int64_t sum = params.hidden_biases(j);
    for (Square s = 0; s < 64; ++s) {
      const Piece p = pos.piece_on(s);
      if (p == kNoPiece) continue;
      sum += params.input_weights(
          NetworkInput(pos.side_to_move(), p, s) * hidden + j);
    }
    const int64_t a = std::clamp<int64_t>(sum, 0, kNetworkActivationOne);
    out += a * a / kNetworkActivationOne * params.output_weights(j);
  }
  const int64_t cp = out * 100 / (kNetworkActivationOne * kNetworkOutputOne);
  return int(std::clamp<int64_t>(cp, -kMaxNetworkCp, kMaxNetworkCp));
}

// The position with colours swapped and the board mirrored: the same for
// the side to move.
Position ColourMirror(const Position& pos) {
  std::string board;
  for (int rank = 0; rank < 8; ++rank) {  // rank 1 first: it becomes rank 8
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = pos.piece_on(Square(rank * 8 + file));
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) board += char('0' + empty);
      empty = 0;
      const char c = "pnbrqk"[TypeOf(p)];
      board += ColorOf(p) == kWhite ? c : char(c - 'a' + 'A');
    }
    if (empty) board += char('0' + empty);
    if (rank < 7) board += '/';
  }
  board += pos.side_to_move() == kWhite ? " b - - 0 1" : " w - - 0 1";
  return *Position::FromFen(board);
}

TEST(NetworkTest, NoNetworkEvaluatesToZero) {
  EXPECT_TRUE(Network().empty());
  EXPECT_EQ(Network().Evaluate(Position::Start()), 0);
}

TEST(NetworkTest, FastEqualsReferenceAndIsColourSymmetric) {
  for (int hidden : {32, 64, 96}) {
    SCOPED_TRACE(hidden);
    const NetworkParams params = RandomParams(hidden, 60, hidden);
    auto net = Network::FromProto(params);
    ASSERT_TRUE(net.ok()) << net.status();
    EXPECT_EQ(net->hidden_size(), hidden);
    int nonzero = 0;
    for (const Position& pos : testing::RandomPlayPositions(40, 100, 5)) {
      const int score = net->Evaluate(pos);
      ASSERT_EQ(score, Reference(params, pos)) << pos.ToFen();
      ASSERT_EQ(score, net->Evaluate(ColourMirror(pos))) << pos.ToFen();
      nonzero += score != 0;
    }
    EXPECT_GT(nonzero, 100);  // the weights were not all clipped away
  }
}

// A 16-bit sum that could wrap would make the fast adds wrong: such networks
// are refused, as are wrong sizes and out-of-range weights.
TEST(NetworkTest, RefusesNetworksItCannotEvaluateExactly) {
  auto refused = [](const NetworkParams& params, const std::string& words) {
    absl::StatusOr<Network> net = Network::FromProto(params);
    EXPECT_FALSE(net.ok());
    EXPECT_TRUE(absl::StrContains(net.status().message(), words))
        << net.status();
  };
  NetworkParams params = RandomParams(32, 60, 1);
  ASSERT_TRUE(Network::FromProto(params).ok());

  NetworkParams odd = params;
  odd.set_hidden_size(33);
  refused(odd, "eval.network.hidden_size = 33 is not a multiple of 32");
  NetworkParams short_table = params;
  short_table.mutable_input_weights()->RemoveLast();
  refused(short_table, "eval.network.input_weights has 24575 values");
  NetworkParams no_biases = params;
  no_biases.clear_hidden_biases();
  refused(no_biases, "eval.network.hidden_biases has 0 values");
  NetworkParams wide = params;
  wide.set_output_weights(3, 40000);
  refused(wide, "eval.network.output_weights[3] = 40000 does not fit 16 bits");
  NetworkParams overflowing = params;
  for (int input = 0; input < kNetworkInputs; input += 2)
    overflowing.set_input_weights(input * 32 + 5, 1100);
  refused(overflowing, "hidden unit 5 can sum to");
}

TEST(NetworkTest, TheOutputIsClippedFarBelowMateScores) {
  NetworkParams params = RandomParams(32, 10, 4);
  params.set_output_bias(2000000000);
  auto net = Network::FromProto(params);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->Evaluate(Position::Start()), kMaxNetworkCp);
  params.set_output_bias(-2000000000);
  EXPECT_EQ(Network::FromProto(params)->Evaluate(Position::Start()),
            -kMaxNetworkCp);
}

TEST(NetworkTest, AConfigWithABadNetworkIsRefusedWithItsField) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_eval()->clear_network();
  config.mutable_eval()->mutable_network()->set_hidden_size(32);
  const absl::Status status = ValidateEngineConfig(config);
  EXPECT_TRUE(absl::StrContains(status.message(),
                                "eval.network.input_weights has 0 values"))
      << status;
}

}  // namespace
}  // namespace chess
