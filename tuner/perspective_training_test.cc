#include "tuner/perspective_training.h"

#include <cmath>

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
