#include "tuner/network_training.h"

#include <string>
#include <vector>

#include "common/sanitizer.h"
#include "common/textproto.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"
#include "tuner/expected_score.h"

namespace chess {
namespace {

// The side to move's knights minus the enemy's, which no linear evaluation
// of zero knows: 150 cp each.
int KnightEdge(const Position& pos) {
  const Color us = pos.side_to_move();
  return 150 * (PopCount(pos.pieces(us, kKnight)) -
                PopCount(pos.pieces(~us, kKnight)));
}

// Positions of 300 random games; the tests of how training goes on use a third
// of them under a sanitizer (5-20x slower code).
NetworkSamples KnightSamples(uint64_t seed, bool short_run = false) {
  NetworkSamples samples;
  const int games = short_run && UnderSanitizer() ? 100 : 300;
  for (const Position& pos : testing::RandomPlayPositions(games, 160, seed))
    samples.Add(pos, 0, float(ExpectedScore(1.0, KnightEdge(pos))));
  return samples;
}

NetworkSettings SmallSettings() {
  NetworkSettings settings;
  settings.set_hidden_size(32);
  settings.set_epochs(12);
  settings.set_batch_size(64);
  settings.set_learning_rate(0.01);
  return settings;
}

// A network of 32 units trained for 3 epochs, for training to go on from.
NetworkParams StartNetwork(uint64_t seed) {
  NetworkSettings settings = SmallSettings();
  settings.set_epochs(3);
  return TrainNetwork(KnightSamples(seed, /*short_run=*/true), settings).params;
}

TEST(NetworkTrainingTest, LearnsWhatTheLinearEvaluationMisses) {
  const NetworkSamples train = KnightSamples(1), held_out = KnightSamples(2);
  ASSERT_GT(train.size(), 10000u);
  int epochs_seen = 0;
  const NetworkTraining trained = TrainNetwork(
      train, SmallSettings(), [&](int epoch, const NetworkParams&) {
        EXPECT_EQ(epoch, epochs_seen++);
      });
  EXPECT_EQ(epochs_seen, 12);
  ASSERT_EQ(trained.epoch_loss.size(), 12u);
  EXPECT_LT(trained.epoch_loss.back(), trained.epoch_loss.front());

  auto net = Network::FromProto(trained.params);
  ASSERT_TRUE(net.ok()) << net.status();
  const double before = NetworkLoss(held_out, Network(), 1.0);
  const double after = NetworkLoss(held_out, *net, 1.0);
  EXPECT_LT(after, before / 10) << before << " -> " << after;
  // The engine's integer evaluation is what was measured, from the position
  // as from its inputs.
  const Position pos = testing::RandomPlayPositions(1, 30, 9).back();
  NetworkSamples one;
  one.Add(pos, 0, 0.5f);
  EXPECT_EQ(net->Evaluate(pos),
            net->EvaluateInputs(one.inputs(0), one.input_count(0)));
  EXPECT_NEAR(net->Evaluate(pos), KnightEdge(pos), 40) << pos.ToFen();
}

TEST(NetworkTrainingTest, TheSameSeedTrainsTheSameNetwork) {
  const NetworkSamples train = KnightSamples(3, /*short_run=*/true);
  NetworkSettings settings = SmallSettings();
  settings.set_epochs(2);
  const NetworkParams a = TrainNetwork(train, settings).params;
  EXPECT_EQ(a.SerializeAsString(),
            TrainNetwork(train, settings).params.SerializeAsString());
  settings.set_seed(2);
  EXPECT_NE(a.SerializeAsString(),
            TrainNetwork(train, settings).params.SerializeAsString());
}

// Training can go on from a network: with no epochs it is returned exactly
// (the float weights round back to the same integers), and more epochs on new
// positions start from what it knew instead of from nothing.
TEST(NetworkTrainingTest, GoesOnFromAGivenNetwork) {
  const NetworkSamples more = KnightSamples(5, /*short_run=*/true);
  const NetworkParams start = StartNetwork(4);
  NetworkSettings settings = SmallSettings();
  settings.set_epochs(0);
  EXPECT_EQ(TrainNetwork(more, settings, {}, &start).params.SerializeAsString(),
            start.SerializeAsString());

  settings.set_epochs(1);
  const NetworkTraining continued = TrainNetwork(more, settings, {}, &start);
  const NetworkTraining afresh = TrainNetwork(more, settings);
  const double start_loss = NetworkLoss(more, *Network::FromProto(start), 1.0);
  EXPECT_LT(continued.epoch_loss[0], afresh.epoch_loss[0]);
  EXPECT_LT(NetworkLoss(more, *Network::FromProto(continued.params), 1.0),
            start_loss);
}

// A wider network than the one training goes on from keeps its units and
// adds new ones that say nothing yet: the same evaluation until it learns.
TEST(NetworkTrainingTest, WidensAGivenNetwork) {
  const NetworkSamples more = KnightSamples(7, /*short_run=*/true);
  const NetworkParams start = StartNetwork(6);
  NetworkSettings settings = SmallSettings();
  settings.set_hidden_size(64);
  settings.set_epochs(0);
  const NetworkParams wide = TrainNetwork(more, settings, {}, &start).params;
  ASSERT_EQ(wide.hidden_size(), 64);
  for (int input = 0; input < kNetworkInputs; ++input) {
    for (int j = 0; j < 32; ++j) {
      ASSERT_EQ(wide.input_weights(input * 64 + j),
                start.input_weights(input * 32 + j));
    }
  }
  for (int j = 32; j < 64; ++j) EXPECT_EQ(wide.output_weights(j), 0);
  auto start_net = Network::FromProto(start);
  auto wide_net = Network::FromProto(wide);
  ASSERT_TRUE(wide_net.ok()) << wide_net.status();
  for (size_t i = 0; i < more.size(); i += 97) {
    ASSERT_EQ(wide_net->EvaluateInputs(more.inputs(i), more.input_count(i)),
              start_net->EvaluateInputs(more.inputs(i), more.input_count(i)));
  }

  settings.set_epochs(1);
  const NetworkParams trained = TrainNetwork(more, settings, {}, &start).params;
  EXPECT_LT(NetworkLoss(more, *Network::FromProto(trained), 1.0),
            NetworkLoss(more, *start_net, 1.0));
}

// Targets are the side to move's: a recorded score and result from White's
// side are turned for Black, and blended by result_weight.
TEST(NetworkTrainingTest, TargetsAreTheSideToMoves) {
  const EngineConfig config;  // all weights zero: a linear evaluation of 0
  const Evaluator zero(*EvalWeights::FromProto(config.eval()));
  TrainingPosition white_wins;
  white_wins.set_result(1.0f);
  white_wins.set_score_cp(200);
  NetworkSamples samples;
  const Position start = Position::Start();
  const Position black_to_move = *Position::FromFen(
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  samples.Add(start, &zero, white_wins, 0.0, 1.0);
  samples.Add(black_to_move, &zero, white_wins, 0.0, 1.0);
  samples.Add(black_to_move, &zero, white_wins, 0.5, 1.0);
  TrainingPosition result_only;
  result_only.set_result(0.0f);
  samples.Add(black_to_move, nullptr, result_only, 0.0, 1.0);
  EXPECT_NEAR(samples.target(0), ExpectedScore(1.0, 200), 1e-6);
  EXPECT_NEAR(samples.target(1), 1 - ExpectedScore(1.0, 200), 1e-6);
  EXPECT_NEAR(samples.target(2), 0.5 * 0 + 0.5 * (1 - ExpectedScore(1.0, 200)),
              1e-6);
  EXPECT_FLOAT_EQ(samples.target(3), 1.0f);
  EXPECT_EQ(samples.input_count(0), 32);
  EXPECT_EQ(samples.linear(0), 0);
}

// Settings that would train a network the engine refuses, or that cannot
// train at all, are refused before any data is read, naming the field.
TEST(NetworkTrainingTest, ProvenanceNamesDataSettingsAndStart) {
  NetworkSettings settings;
  settings.set_result_weight(0.3);
  const std::vector<DatasetProvenance> data = {
      {"gen1.bin", {"datagen: self-play of \"tuned\"; labels: its own"}},
      {"old.epd", {}}};
  const std::vector<std::string> fresh =
      NetworkProvenance(data, settings, "tuned.textproto", nullptr);
  ASSERT_EQ(fresh.size(), 4u);
  EXPECT_EQ(fresh[0], "data: datagen: self-play of \"tuned\"; labels: its own");
  EXPECT_EQ(fresh[1], "data: old.epd (it names no source)");
  EXPECT_EQ(fresh[2].rfind("settings: side to move, hidden 64, 20 epochs", 0),
            0u);
  EXPECT_NE(fresh[2].find("result weight 0.3"), std::string::npos);
  EXPECT_EQ(fresh[3],
            "start: random weights (seed 1) on top of tuned.textproto's "
            "linear evaluation");
  // Going on from a network: its lines follow, indented.
  NetworkParams start;
  for (const std::string& line : fresh) start.add_provenance(line);
  const std::vector<std::string> more =
      NetworkProvenance({data[0]}, settings, "gen1.textproto", &start);
  ASSERT_EQ(more.size(), 3u + fresh.size());
  EXPECT_EQ(more[2], "start: the network of gen1.textproto");
  // Paths of the machine that trained it are not kept.
  EXPECT_EQ(NetworkProvenance({{"/tmp/x/old.epd", {}}}, settings,
                              "/tmp/x/gen1.textproto", &start)[0],
            "data: old.epd (it names no source)");
  EXPECT_EQ(more[3], "  " + fresh[0]);
  EXPECT_EQ(
      NetworkProvenance({}, settings, "x", &NetworkParams::default_instance())
          .back(),
      "  (it records no provenance)");
}

TEST(NetworkTrainingTest, RefusesSettingsItCannotTrainWith) {
  EXPECT_TRUE(ValidateNetworkSettings(SmallSettings()).ok());
  auto refused = [](void (*change)(NetworkSettings&), const char* field) {
    NetworkSettings settings = SmallSettings();
    change(settings);
    const absl::Status s = ValidateNetworkSettings(settings);
    EXPECT_FALSE(s.ok()) << field;
    EXPECT_NE(s.message().find(field), absl::string_view::npos) << s.message();
  };
  refused([](NetworkSettings& s) { s.set_hidden_size(40); }, "hidden_size");
  refused([](NetworkSettings& s) { s.set_hidden_size(2048); }, "hidden_size");
  refused([](NetworkSettings& s) { s.set_epochs(-1); }, "epochs");
  refused([](NetworkSettings& s) { s.set_batch_size(0); }, "batch_size");
  refused([](NetworkSettings& s) { s.set_learning_rate(0); }, "learning_rate");
  refused([](NetworkSettings& s) { s.set_k(-1); }, "k =");
  refused([](NetworkSettings& s) { s.set_result_weight(1.5); },
          "result_weight");
}

TEST(NetworkTrainingTest, TheShippedSettingsParse) {
  auto settings =
      ReadTextProto<NetworkSettings>("configs/tuning/network.textproto");
  ASSERT_TRUE(settings.ok()) << settings.status();
  EXPECT_EQ(settings->hidden_size(), 64);
  EXPECT_EQ(settings->result_weight(), 0.0);
}

}  // namespace
}  // namespace chess
