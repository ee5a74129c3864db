#include "engine/network.h"

#include <algorithm>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "engine/accumulator.h"
#include "engine/config.h"
#include "engine/search.h"
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

// A PERSPECTIVE network: output weights within the layout's limit.
NetworkParams RandomPerspectiveParams(int hidden, int magnitude,
                                      uint64_t seed) {
  NetworkParams params = RandomParams(hidden, magnitude, seed);
  params.set_layout(NetworkParams::PERSPECTIVE);
  std::mt19937_64 rng(seed + 1);
  std::uniform_int_distribution<int> weight(-kMaxPerspectiveOutputWeight,
                                            kMaxPerspectiveOutputWeight);
  params.clear_output_weights();
  for (int j = 0; j < 2 * hidden; ++j) params.add_output_weights(weight(rng));
  return params;
}

// The perspective layout's definition in 64-bit arithmetic: the side to
// move's units, then the other side's.
int PerspectiveReference(const NetworkParams& params, const Position& pos) {
  const int hidden = params.hidden_size();
  int64_t products = 0;
  for (int side = 0; side < 2; ++side) {
    const Color view = side == 0 ? pos.side_to_move() : ~pos.side_to_move();
    for (int j = 0; j < hidden; ++j) {
      int64_t sum = params.hidden_biases(j);
      for (Square s = 0; s < 64; ++s) {
        const Piece p = pos.piece_on(s);
        if (p == kNoPiece) continue;
        sum += params.input_weights(NetworkInput(view, p, s) * hidden + j);
      }
      const int64_t a = std::clamp<int64_t>(sum, 0, params.activation_one());
      products += a * a * params.output_weights(side * hidden + j);
    }
  }
  const int64_t out = products / params.activation_one() + params.output_bias();
  const int64_t cp = out * params.output_scale() /
                     (params.activation_one() * params.output_one());
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

// A perspective network with 4 king buckets (by rank pairs, the same on
// both halves of the board) and 8 output buckets, weights seeded.
NetworkParams BucketedParams(int hidden, uint64_t seed) {
  NetworkParams params = RandomPerspectiveParams(hidden, 15, seed);
  std::mt19937_64 rng(seed + 2);
  std::uniform_int_distribution<int> input(-15, 15), output(-127, 127);
  for (int s = 0; s < 64; ++s) params.add_king_buckets(s / 16);
  params.clear_input_weights();
  for (int i = 0; i < 4 * kNetworkInputs * hidden; ++i)
    params.add_input_weights(input(rng));
  params.set_output_buckets(8);
  params.clear_output_weights();
  for (int i = 0; i < 8 * 2 * hidden; ++i)
    params.add_output_weights(output(rng));
  for (int b = 0; b < 8; ++b) params.add_output_biases(output(rng) * 300);
  return params;
}

// bullet's ChessBucketsMirrored and MaterialCount<8>, input by input in
// 64-bit arithmetic.
int BucketedReference(const NetworkParams& params, const Position& pos) {
  const int hidden = params.hidden_size();
  const int pieces = PopCount(pos.occupied());
  const int bucket = (pieces - 2) / 4;
  int64_t products = 0;
  for (int side = 0; side < 2; ++side) {
    const Color view = side == 0 ? pos.side_to_move() : ~pos.side_to_move();
    const int king =
        view == kWhite ? pos.king_square(view) : pos.king_square(view) ^ 56;
    const int flip = king % 8 > 3 ? 7 : 0;
    const int offset = params.king_buckets(king) * kNetworkInputs;
    for (int j = 0; j < hidden; ++j) {
      int64_t sum = params.hidden_biases(j);
      for (Square s = 0; s < 64; ++s) {
        const Piece p = pos.piece_on(s);
        if (p == kNoPiece) continue;
        const int input = offset + (NetworkInput(view, p, s) ^ flip);
        sum += params.input_weights(input * hidden + j);
      }
      const int64_t a = std::clamp<int64_t>(sum, 0, params.activation_one());
      products +=
          a * a * params.output_weights((2 * bucket + side) * hidden + j);
    }
  }
  const int64_t out =
      products / params.activation_one() + params.output_biases(bucket);
  const int64_t cp = out * params.output_scale() /
                     (params.activation_one() * params.output_one());
  return int(std::clamp<int64_t>(cp, -kMaxNetworkCp, kMaxNetworkCp));
}

TEST(NetworkTest, BucketsEvaluateAsBulletDefinesThem) {
  const NetworkParams params = BucketedParams(32, 5);
  const absl::StatusOr<Network> net = Network::FromProto(params);
  ASSERT_TRUE(net.ok()) << net.status();
  for (const Position& pos : testing::RandomPlayPositions(8, 150, 11)) {
    ASSERT_EQ(net->Evaluate(pos), BucketedReference(params, pos))
        << pos.ToFen();
    ASSERT_EQ(net->Evaluate(ColourMirror(pos)), net->Evaluate(pos))
        << pos.ToFen();
  }
}

TEST(NetworkTest, BucketedAccumulatorsEqualAFreshEvaluationWhateverThePath) {
  const Network net = *Network::FromProto(BucketedParams(64, 6));
  AccumulatorStack stack;
  stack.Reset(net, 20);
  std::mt19937_64 rng(8);
  std::uniform_int_distribution<int> ply(0, 20);
  for (const Position& pos : testing::RandomPlayPositions(20, 120, 9)) {
    const int at = ply(rng);
    ASSERT_EQ(stack.Evaluate(net, pos, at), net.Evaluate(pos))
        << pos.ToFen() << " at ply " << at;
  }
  // A search walks king moves in and out of buckets: the same tree twice.
  EngineConfig config = DefaultEngineConfig();
  *config.mutable_eval()->mutable_network() = BucketedParams(64, 6);
  config.mutable_eval()->mutable_network()->set_whole_evaluation(true);
  ASSERT_TRUE(ValidateEngineConfig(config).ok());
  SearchLimits limits;
  limits.nodes = 20000;
  const Game game(
      *Position::FromFen("8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 w - - 0 50"));
  const SearchInfo first = Engine(config).Search(game, limits);
  const SearchInfo again = Engine(config).Search(game, limits);
  EXPECT_EQ(again.nodes, first.nodes);
  EXPECT_EQ(again.pv, first.pv);
}

TEST(NetworkTest, BucketLayoutsThatAreNotBulletsAreRefused) {
  NetworkParams asymmetric = BucketedParams(32, 7);
  asymmetric.set_king_buckets(4, 1);
  absl::StatusOr<Network> net = Network::FromProto(asymmetric);
  ASSERT_FALSE(net.ok());
  EXPECT_TRUE(absl::StrContains(net.status().message(),
                                "files e-h are mirrored onto a-d"))
      << net.status();
  NetworkParams side_to_move = RandomParams(32, 10, 1);
  side_to_move.set_output_buckets(8);
  EXPECT_FALSE(Network::FromProto(side_to_move).ok());
  NetworkParams few_biases = BucketedParams(32, 7);
  few_biases.mutable_output_biases()->RemoveLast();
  EXPECT_FALSE(Network::FromProto(few_biases).ok());
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

TEST(NetworkTest, PerspectiveLayoutEqualsReferenceAndIsColourSymmetric) {
  for (int hidden : {32, 256, 1024}) {
    SCOPED_TRACE(hidden);
    const NetworkParams params = RandomPerspectiveParams(hidden, 15, hidden);
    auto net = Network::FromProto(params);
    ASSERT_TRUE(net.ok()) << net.status();
    EXPECT_TRUE(net->perspective());
    int nonzero = 0;
    for (const Position& pos : testing::RandomPlayPositions(10, 100, 6)) {
      const int score = net->Evaluate(pos);
      ASSERT_EQ(score, PerspectiveReference(params, pos)) << pos.ToFen();
      ASSERT_EQ(score, net->Evaluate(ColourMirror(pos))) << pos.ToFen();
      nonzero += score != 0;
    }
    EXPECT_GT(nonzero, 100);
  }
}

// The largest activations and weights the layout allows, on every unit: the
// 32-bit lanes of the vectorised output must not wrap.
TEST(NetworkTest, PerspectiveOutputIsExactAtItsLimits) {
  NetworkParams params = RandomPerspectiveParams(kMaxNetworkHidden, 0, 1);
  for (int j = 0; j < kMaxNetworkHidden; ++j)
    params.set_hidden_biases(j, kNetworkActivationOne);
  for (int j = 0; j < 2 * kMaxNetworkHidden; ++j)
    params.set_output_weights(j, kMaxPerspectiveOutputWeight);
  params.set_output_bias(-int64_t(2) * kMaxNetworkHidden *
                         kNetworkActivationOne * kMaxPerspectiveOutputWeight);
  auto net = Network::FromProto(params);
  ASSERT_TRUE(net.ok()) << net.status();
  const Position start = Position::Start();
  EXPECT_EQ(net->Evaluate(start), PerspectiveReference(params, start));
  EXPECT_EQ(net->Evaluate(start), 0);
}

// Sums made from another ply's, whichever, equal sums made afresh: along
// random games, at plies that jump about as a search's do.
TEST(NetworkTest, AccumulatorsEqualAFreshEvaluationWhateverThePath) {
  const NetworkParams params = RandomPerspectiveParams(64, 15, 3);
  const Network net = *Network::FromProto(params);
  AccumulatorStack stack;
  stack.Reset(net, 20);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> ply(0, 20);
  for (const Position& pos : testing::RandomPlayPositions(20, 120, 8)) {
    const int at = ply(rng);
    ASSERT_EQ(stack.Evaluate(net, pos, at), net.Evaluate(pos))
        << pos.ToFen() << " at ply " << at;
    ASSERT_EQ(stack.Evaluate(net, pos, at), net.Evaluate(pos));
  }
}

TEST(NetworkTest, ASearchWithAPerspectiveNetworkRepeatsExactly) {
  EngineConfig config = DefaultEngineConfig();
  *config.mutable_eval()->mutable_network() =
      RandomPerspectiveParams(128, 15, 9);
  config.mutable_eval()->mutable_network()->set_whole_evaluation(true);
  ASSERT_TRUE(ValidateEngineConfig(config).ok());
  SearchLimits limits;
  limits.nodes = 20000;
  const Game game(*Position::FromFen(
      "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"));
  const SearchInfo first = Engine(config).Search(game, limits);
  const SearchInfo again = Engine(config).Search(game, limits);
  EXPECT_EQ(again.nodes, first.nodes);
  EXPECT_EQ(again.score, first.score);
  EXPECT_EQ(again.pv, first.pv);
  // The whole evaluation: the linear terms no longer count, whatever they are,
  // while added to the network they change the search.
  EngineConfig other_linear = config;
  other_linear.mutable_eval()->mutable_value_mg()->set_knight(
      config.eval().value_mg().knight() + 200);
  const SearchInfo other = Engine(other_linear).Search(game, limits);
  EXPECT_EQ(other.score, first.score);
  EXPECT_EQ(other.pv, first.pv);
  other_linear.mutable_eval()->mutable_network()->set_whole_evaluation(false);
  ASSERT_TRUE(ValidateEngineConfig(other_linear).ok());
  EXPECT_NE(Engine(other_linear).Search(game, limits).score, first.score);
}

// The vector forms (AVX2 where built for it) and the plain C++ a processor
// without AVX2 runs give the same sums and products, wrapping included.
TEST(NetworkTest, VectorAndPortableFormsAgree) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> any(-32768, 32767);
  std::uniform_int_distribution<int> weight(-kMaxPerspectiveOutputWeight,
                                            kMaxPerspectiveOutputWeight);
  const int hidden = 256;
  std::vector<std::vector<int16_t>> rows(9, std::vector<int16_t>(hidden));
  for (auto& row : rows)
    for (int16_t& x : row) x = int16_t(any(rng));
  const int16_t* added[] = {rows[1].data(), rows[2].data(), rows[3].data(),
                            rows[4].data()};
  const int16_t* removed[] = {rows[5].data(), rows[6].data(), rows[7].data()};
  std::vector<int16_t> vector_sums(hidden), portable_sums(hidden);
  AddRows(rows[0].data(), added, 4, removed, 3, hidden, vector_sums.data());
  AddRowsPortable(rows[0].data(), added, 4, removed, 3, hidden,
                  portable_sums.data());
  EXPECT_EQ(vector_sums, portable_sums);
  std::vector<int16_t> weights(hidden);
  for (int16_t& w : weights) w = int16_t(weight(rng));
  EXPECT_EQ(
      SquaredActivationDot(rows[8].data(), weights.data(), hidden),
      SquaredActivationDotPortable(rows[8].data(), weights.data(), hidden));
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
  NetworkParams perspective = RandomPerspectiveParams(32, 60, 1);
  ASSERT_TRUE(Network::FromProto(perspective).ok());
  NetworkParams side_to_move_scaled = params;
  side_to_move_scaled.set_output_scale(400);
  refused(side_to_move_scaled,
          "eval.network.output_scale = 400: only a PERSPECTIVE network");
  NetworkParams zero_qb = perspective;
  zero_qb.set_output_one(0);
  refused(zero_qb, "eval.network.output_one = 0 is not in [1, 32767]");
  perspective.mutable_output_weights()->Truncate(32);
  refused(perspective,
          "eval.network.output_weights has 32 values; "
          "hidden_size asks for 64");
}

// bullet's networks: any QA, QB and scale, output weights beyond the fast
// product's 127, evaluated by bullet's formula.
TEST(NetworkTest, AnyQuantisationEvaluatesByBulletsFormula) {
  const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
      "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 4 9",
      "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 5 50"};
  struct Case {
    int qa, qb, scale, max_output_weight;
  };
  for (const Case& c : {Case{255, 64, 400, 127}, Case{181, 64, 400, 127},
                        Case{255, 64, 400, 500}, Case{400, 128, 340, 60}}) {
    SCOPED_TRACE(::testing::Message() << c.qa << " " << c.qb << " " << c.scale
                                      << " " << c.max_output_weight);
    NetworkParams params = RandomPerspectiveParams(64, 60, c.qa);
    params.set_activation_one(c.qa);
    params.set_output_one(c.qb);
    params.set_output_scale(c.scale);
    std::mt19937_64 rng(c.qb);
    std::uniform_int_distribution<int> weight(-c.max_output_weight,
                                              c.max_output_weight);
    for (int j = 0; j < params.output_weights_size(); ++j)
      params.set_output_weights(j, weight(rng));
    const absl::StatusOr<Network> net = Network::FromProto(params);
    ASSERT_TRUE(net.ok()) << net.status();
    for (const std::string& fen : fens) {
      const Position pos = *Position::FromFen(fen);
      EXPECT_EQ(net->Evaluate(pos), PerspectiveReference(params, pos)) << fen;
    }
  }
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
