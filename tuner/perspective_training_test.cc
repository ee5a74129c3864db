#include "tuner/perspective_training.h"

#include <cmath>
#include <memory>
#include <string>

#include "common/sanitizer.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"
#include "tuner/expected_score.h"

namespace chess {
namespace {

// Material from the side to move, which a network of zero knows nothing of:
// what a whole evaluation must learn first.
int Material(const Position& pos) {
  static constexpr int kValues[] = {100, 300, 320, 500, 900, 0};
  const Color us = pos.side_to_move();
  int score = 0;
  for (int t = kPawn; t < kKing; ++t) {
    score += kValues[t] * (PopCount(pos.pieces(us, PieceType(t))) -
                           PopCount(pos.pieces(~us, PieceType(t))));
  }
  return score;
}

// Positions of 200 random games; the tests that do not measure learning use a
// third of them under a sanitizer (5-20x slower code).
NetworkSamples MaterialSamples(uint64_t seed, bool short_run = false) {
  NetworkSamples samples;
  const int games = short_run && UnderSanitizer() ? 70 : 200;
  for (const Position& pos : testing::RandomPlayPositions(games, 160, seed))
    samples.Add(pos, 0, float(ExpectedScore(1.0, Material(pos))));
  return samples;
}

NetworkSettings PerspectiveSettings() {
  NetworkSettings settings;
  settings.set_layout(NetworkParams::PERSPECTIVE);
  settings.set_whole_evaluation(true);
  settings.set_hidden_size(32);
  settings.set_epochs(8);
  settings.set_batch_size(128);
  settings.set_learning_rate(0.01);
  settings.set_schedule(NetworkSettings::COSINE);
  settings.set_final_learning_rate(0.001);
  settings.set_weight_decay(0.01);
  settings.set_threads(2);
  return settings;
}

TEST(PerspectiveTrainingTest, LearnsMaterialAsAWholeEvaluation) {
  const NetworkSamples train = MaterialSamples(1),
                       held_out = MaterialSamples(2);
  ASSERT_GT(train.size(), 10000u);
  int epochs_seen = 0;
  const NetworkTraining trained =
      TrainPerspectiveNetwork(train, PerspectiveSettings(),
                              [&](int epoch, const NetworkParams& params) {
                                EXPECT_EQ(epoch, epochs_seen++);
                                EXPECT_TRUE(Network::FromProto(params).ok());
                              });
  EXPECT_EQ(epochs_seen, 8);
  EXPECT_LT(trained.epoch_loss.back(), trained.epoch_loss.front());
  ASSERT_EQ(trained.params.layout(), NetworkParams::PERSPECTIVE);
  auto net = Network::FromProto(trained.params);
  ASSERT_TRUE(net.ok()) << net.status();
  const double before = NetworkLoss(held_out, Network(), 1.0);
  const double after = NetworkLoss(held_out, *net, 1.0);
  EXPECT_LT(after, before / 10) << before << " -> " << after;
  const Position pos = *Position::FromFen(
      "r1bqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 3");
  EXPECT_NEAR(net->Evaluate(pos), -300, 80);
}

// Threads split each batch in fixed slices: the same seed and threads give
// the same network, byte for byte.
TEST(PerspectiveTrainingTest, TheSameSeedAndThreadsTrainTheSameNetwork) {
  const NetworkSamples train = MaterialSamples(3, /*short_run=*/true);
  NetworkSettings settings = PerspectiveSettings();
  settings.set_epochs(1);
  const NetworkParams a = TrainPerspectiveNetwork(train, settings).params;
  EXPECT_EQ(
      a.SerializeAsString(),
      TrainPerspectiveNetwork(train, settings).params.SerializeAsString());
  settings.set_seed(2);
  EXPECT_NE(
      a.SerializeAsString(),
      TrainPerspectiveNetwork(train, settings).params.SerializeAsString());
}

// Every weight stays within the layout's limits however far the learning
// rate pushes it, so the rounded network always loads.
TEST(PerspectiveTrainingTest, WeightsStayWithinTheEnginesLimits) {
  const NetworkSamples train = MaterialSamples(4, /*short_run=*/true);
  NetworkSettings settings = PerspectiveSettings();
  settings.set_epochs(2);
  settings.set_learning_rate(0.9);
  settings.set_final_learning_rate(0.9);
  const NetworkParams params = TrainPerspectiveNetwork(train, settings).params;
  ASSERT_TRUE(Network::FromProto(params).ok());
  for (int w : params.output_weights())
    EXPECT_LE(std::abs(w), kMaxPerspectiveOutputWeight);
  for (int w : params.input_weights())
    EXPECT_LE(std::abs(w), std::lround(kMaxPerspectiveWeight * 255));
}

TEST(PerspectiveTrainingTest, GoesOnFromAGivenNetworkExactly) {
  const NetworkSamples train = MaterialSamples(5, /*short_run=*/true);
  NetworkSettings settings = PerspectiveSettings();
  settings.set_epochs(1);
  const NetworkParams start = TrainPerspectiveNetwork(train, settings).params;
  settings.set_epochs(0);
  EXPECT_EQ(TrainPerspectiveNetwork(train, settings, {}, &start)
                .params.SerializeAsString(),
            start.SerializeAsString());
}

TEST(PerspectiveTrainingTest, MirrorsOnlyPositionsWithoutCastlingRights) {
  NetworkSamples samples;
  samples.Add(Position::Start(), 0, 0.5f);
  samples.Add(*Position::FromFen("4k3/8/8/8/8/8/5PPP/4K3 w - - 0 1"), 0, 0.6f);
  NetworkSettings settings = PerspectiveSettings();
  EXPECT_EQ(PerspectiveTrainingItems(samples, settings),
            (std::vector<size_t>{0, 2}));
  settings.set_mirror_files(true);
  EXPECT_EQ(PerspectiveTrainingItems(samples, settings),
            (std::vector<size_t>{0, 2, 3}));
  EXPECT_EQ(PerspectiveTrainingItemCount(samples, settings), 3u);
  settings.set_mirror_files(false);
  EXPECT_EQ(PerspectiveTrainingItemCount(samples, settings), 2u);
}

// Kingside pawns are worth a pawn more, queenside ones a pawn less: a
// lopsided target that mirrored training must average away.
TEST(PerspectiveTrainingTest, MirroredFilesTeachMirrorsTheSameValue) {
  NetworkSamples train;
  const int games = UnderSanitizer() ? 70 : 200;
  for (const Position& pos : testing::RandomPlayPositions(games, 160, 6)) {
    if (pos.castling_rights() != 0) continue;
    const Color us = pos.side_to_move();
    const int lopsided =
        100 * (PopCount(pos.pieces(us, kPawn) & 0xf0f0f0f0f0f0f0f0ull) -
               PopCount(pos.pieces(us, kPawn) & 0x0f0f0f0f0f0f0f0full));
    train.Add(pos, 0, float(ExpectedScore(1.0, Material(pos) + lopsided)));
  }
  const Position kingside =
      *Position::FromFen("4k3/8/8/8/8/8/5PPP/4K3 w - - 0 1");
  const Position queenside =
      *Position::FromFen("3k4/8/8/8/8/8/PPP5/3K4 w - - 0 1");
  NetworkSettings settings = PerspectiveSettings();
  auto gap = [&] {
    auto net =
        Network::FromProto(TrainPerspectiveNetwork(train, settings).params);
    EXPECT_TRUE(net.ok()) << net.status();
    return net.ok() ? net->Evaluate(kingside) - net->Evaluate(queenside) : 0;
  };
  const int lopsided_gap = gap();
  settings.set_mirror_files(true);
  const int mirrored_gap = gap();
  EXPECT_GT(lopsided_gap, 150);
  EXPECT_LT(std::abs(mirrored_gap), lopsided_gap / 3)
      << lopsided_gap << " " << mirrored_gap;
}

TEST(PerspectiveTrainingTest, CosineScheduleFallsToItsFinalRate) {
  NetworkSettings settings = PerspectiveSettings();
  settings.set_epochs(4);
  EXPECT_DOUBLE_EQ(LearningRateAt(settings, 0), 0.01);
  EXPECT_NEAR(LearningRateAt(settings, 2), 0.0055, 1e-12);
  EXPECT_NEAR(LearningRateAt(settings, 4), 0.001, 1e-12);
  settings.set_schedule(NetworkSettings::STEP);
  EXPECT_DOUBLE_EQ(LearningRateAt(settings, 2.9), 0.01);
  EXPECT_DOUBLE_EQ(LearningRateAt(settings, 3.0), 0.001);
}

// King buckets (two, by the king's half of the board) and output buckets
// (bullet's MaterialCount<8>): trained, rounded, and the engine's integer
// evaluation of them learns as the plain network does.
TEST(PerspectiveTrainingTest, LearnsWithKingAndOutputBuckets) {
  const NetworkSamples train = MaterialSamples(1),
                       held_out = MaterialSamples(2);
  NetworkSettings settings = PerspectiveSettings();
  for (int s = 0; s < 64; ++s) settings.add_king_buckets(s < 32 ? 0 : 1);
  settings.set_output_buckets(8);
  ASSERT_TRUE(ValidateNetworkSettings(settings).ok());
  const NetworkTraining trained = TrainPerspectiveNetwork(train, settings);
  EXPECT_EQ(trained.params.king_buckets_size(), 64);
  EXPECT_EQ(trained.params.output_buckets(), 8);
  EXPECT_EQ(trained.params.output_biases_size(), 8);
  EXPECT_EQ(trained.params.input_weights_size(), 2 * 768 * 32);
  auto net = Network::FromProto(trained.params);
  ASSERT_TRUE(net.ok()) << net.status();
  const double before = NetworkLoss(held_out, Network(), 1.0);
  const double after = NetworkLoss(held_out, *net, 1.0);
  EXPECT_LT(after, before / 10) << before << " -> " << after;
  // Going on from it keeps its buckets, whatever the settings say.
  NetworkSettings plain = PerspectiveSettings();
  plain.set_epochs(1);
  const NetworkTraining more =
      TrainPerspectiveNetwork(train, plain, {}, &trained.params);
  EXPECT_EQ(more.params.output_buckets(), 8);
  EXPECT_EQ(more.params.king_buckets_size(), 64);

  settings.set_king_buckets(0, 1);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: king_buckets[0] = 1 but [7] = 0: files e-h are "
            "mirrored onto a-d, so they must match");
}

// A plain network given buckets to grow into: no epoch later, every output
// bucket evaluates as the plain network did, and so does every king bucket
// while both kings stand on files a-d (on e-h the engine mirrors the files).
TEST(PerspectiveTrainingTest, APlainStartGrowsBucketsThatEvaluateAsItDid) {
  const NetworkSamples train = MaterialSamples(1, /*short_run=*/true);
  NetworkSettings settings = PerspectiveSettings();
  settings.set_epochs(1);
  const NetworkTraining plain = TrainPerspectiveNetwork(train, settings);
  NetworkSettings grow = settings;
  grow.set_epochs(0);
  for (int s = 0; s < 64; ++s) grow.add_king_buckets(s < 16 ? 0 : 1);
  grow.set_output_buckets(8);
  ASSERT_TRUE(ValidateNetworkSettings(grow).ok());
  const NetworkTraining grown =
      TrainPerspectiveNetwork(train, grow, {}, &plain.params);
  EXPECT_EQ(grown.params.output_buckets(), 8);
  EXPECT_EQ(grown.params.king_buckets_size(), 64);
  EXPECT_EQ(grown.params.input_weights_size(), 2 * 768 * 32);
  auto before = Network::FromProto(plain.params);
  auto after = Network::FromProto(grown.params);
  ASSERT_TRUE(before.ok() && after.ok());
  int compared = 0;
  for (const Position& pos : testing::RandomPlayPositions(40, 160, 7)) {
    const bool kings_on_a_to_d = FileOf(pos.king_square(kWhite)) < 4 &&
                                 FileOf(pos.king_square(kBlack)) < 4;
    if (!kings_on_a_to_d) continue;
    ASSERT_EQ(after->Evaluate(pos), before->Evaluate(pos)) << pos.ToFen();
    ++compared;
  }
  EXPECT_GT(compared, 100);
  // Output buckets alone: every position as before.
  grow.clear_king_buckets();
  const NetworkTraining outputs =
      TrainPerspectiveNetwork(train, grow, {}, &plain.params);
  auto output_only = Network::FromProto(outputs.params);
  ASSERT_TRUE(output_only.ok());
  for (const Position& pos : testing::RandomPlayPositions(10, 160, 8))
    ASSERT_EQ(output_only->Evaluate(pos), before->Evaluate(pos)) << pos.ToFen();
}

// A set spooled to disk in blocks trains as well as one in memory, the same
// seed giving the same network; the spool gives back what it was given.
TEST(PerspectiveTrainingTest, TrainsFromBlocksOnDisk) {
  const NetworkSamples train = MaterialSamples(1),
                       held_out = MaterialSamples(2);
  std::string bytes;
  train.AppendBytes(&bytes);
  NetworkSamples all;
  ASSERT_TRUE(all.AddBytes(bytes).ok());
  ASSERT_EQ(all.size(), train.size());
  for (size_t i = 0; i < train.size(); ++i) {
    ASSERT_EQ(all.target(i), train.target(i));
    ASSERT_EQ(all.input_count(i), train.input_count(i));
    ASSERT_EQ(all.mirrorable(i), train.mirrorable(i));
  }
  absl::StatusOr<std::unique_ptr<SampleSpool>> spool =
      SampleSpool::Create(::testing::TempDir());
  ASSERT_TRUE(spool.ok()) << spool.status();
  // Blocks of 5,000 samples, cut from the whole set's bytes.
  const size_t block_size = 5000;
  size_t at = 0;
  for (size_t first = 0; first < train.size(); first += block_size) {
    const size_t last = std::min(train.size(), first + block_size);
    size_t end = at;
    for (size_t i = first; i < last; ++i)
      end += 1 + 2 * size_t(train.input_count(i)) + 9;
    NetworkSamples piece;
    ASSERT_TRUE(
        piece.AddBytes(absl::string_view(bytes).substr(at, end - at)).ok());
    ASSERT_TRUE((*spool)->Add(piece).ok());
    at = end;
  }
  EXPECT_EQ((*spool)->size(), train.size());
  EXPECT_EQ((*spool)->blocks(), (train.size() + block_size - 1) / block_size);
  NetworkSettings settings = PerspectiveSettings();
  settings.set_mirror_files(true);
  absl::StatusOr<NetworkTraining> trained =
      TrainPerspectiveNetwork(**spool, settings);
  ASSERT_TRUE(trained.ok()) << trained.status();
  auto net = Network::FromProto(trained->params);
  ASSERT_TRUE(net.ok()) << net.status();
  const double before = NetworkLoss(held_out, Network(), 1.0);
  const double after = NetworkLoss(held_out, *net, 1.0);
  EXPECT_LT(after, before / 10) << before << " -> " << after;
  absl::StatusOr<double> streamed_loss = SourceLoss(**spool, *net, 1.0);
  ASSERT_TRUE(streamed_loss.ok());
  EXPECT_NEAR(*streamed_loss, NetworkLoss(train, *net, 1.0), 1e-9);
  // The same seed, the same network (an epoch is enough to tell).
  settings.set_epochs(1);
  absl::StatusOr<NetworkTraining> once =
      TrainPerspectiveNetwork(**spool, settings);
  absl::StatusOr<NetworkTraining> again =
      TrainPerspectiveNetwork(**spool, settings);
  ASSERT_TRUE(once.ok() && again.ok());
  EXPECT_TRUE(again->params.SerializeAsString() ==
              once->params.SerializeAsString());
  NetworkSamples damaged;
  EXPECT_FALSE(damaged.AddBytes(bytes.substr(0, 7)).ok());
}

TEST(PerspectiveTrainingTest, BadSettingsNameTheirField) {
  NetworkSettings settings = PerspectiveSettings();
  ASSERT_TRUE(ValidateNetworkSettings(settings).ok());
  settings.set_weight_decay(-1);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: weight_decay = -1 is not in [0, 1)");
  settings = PerspectiveSettings();
  settings.set_final_learning_rate(1);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: final_learning_rate = 1 is not in [0, learning_rate]");
  settings = PerspectiveSettings();
  settings.set_threads(-2);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: threads = -2 is not in [0, 256]");
  settings = PerspectiveSettings();
  settings.set_layout(NetworkParams::SIDE_TO_MOVE);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: weight_decay needs layout PERSPECTIVE (AdamW)");
  settings = PerspectiveSettings();
  settings.set_whole_evaluation(false);
  settings.set_mirror_files(true);
  EXPECT_EQ(ValidateNetworkSettings(settings).message(),
            "settings: mirror_files needs layout PERSPECTIVE and "
            "whole_evaluation");
}

}  // namespace
}  // namespace chess
