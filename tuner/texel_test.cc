#include "tuner/texel.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "common/sanitizer.h"
#include "engine/config.h"
#include "engine/evaluate.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

EvalWeights Load(const std::string& name) {
  auto config =
      LoadEngineConfig(absl::StrCat("configs/engines/", name, ".textproto"));
  EXPECT_TRUE(config.ok()) << config.status();
  return *EvalWeights::FromProto(config->eval());
}

double Sigma(double k, double q) {
  return 1 / (1 + std::pow(10.0, -k * q / 400));
}

// Positions from random games, labelled with the win probability `truth`
// predicts.
CoefficientSet Labelled(const EvalWeights& truth, double k, int games,
                        uint64_t seed) {
  CoefficientSet set;
  for (const Position& pos : testing::RandomPlayPositions(games, 60, seed)) {
    if (pos.InCheck()) continue;
    const int eval =
        ReferenceEvaluate(pos, truth) * (pos.side_to_move() == kWhite ? 1 : -1);
    set.Add(pos, float(Sigma(k, eval)), truth.phase_weight);
  }
  return set;
}

TEST(TexelTest, LinearEvalMatchesTheEngine) {
  const EvalWeights w = Load("pesto");
  const Weights weights = ToWeights(w);
  CoefficientSet set;
  std::vector<Position> positions = testing::RandomPlayPositions(30, 80, 3);
  for (const Position& p : positions) set.Add(p, 0.5f, w.phase_weight);
  for (size_t i = 0; i < positions.size(); ++i) {
    const int white = ReferenceEvaluate(positions[i], w) *
                      (positions[i].side_to_move() == kWhite ? 1 : -1);
    EXPECT_NEAR(LinearEval(set, i, weights), white,
                1.0);  // the engine rounds once
  }
}

// d Loss / d w[j] by central differences.
double NumericDerivative(const CoefficientSet& set, const Weights& w, size_t j,
                         double k) {
  const double h = 0.01;
  Weights up = w, down = w;
  up[j] += h;
  down[j] -= h;
  return (Loss(set, up, k, 1) - Loss(set, down, k, 1)) / (2 * h);
}

TEST(TexelTest, GradientEqualsFiniteDifferences) {
  const EvalWeights w = Load("simplified");
  CoefficientSet set = Labelled(Load("pesto"), 1.1, 40, 5);
  Weights weights = ToWeights(w);
  Weights gradient;
  Loss(set, weights, 1.1, 2, &gradient);
  int checked = 0;
  for (int f : {kValueFeatures + kKnight, kPstFeatures + kPawn * 64 + 36,
                kPstFeatures + kKnight * 64 + 45, kTempoFeature}) {
    for (int phase = 0; phase < 2; ++phase) {
      const size_t j = phase * kNumFeatures + f;
      const double numeric = NumericDerivative(set, weights, j, 1.1);
      EXPECT_NEAR(gradient[j], numeric, 1e-6 + 1e-3 * std::abs(numeric))
          << f << " " << phase;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8);
}

TEST(TexelTest, ResultsDoNotDependOnThreads) {
  CoefficientSet set = Labelled(Load("pesto"), 1.0, 40, 6);
  const Weights w = ToWeights(Load("simplified"));
  Weights g1, g3;
  EXPECT_NEAR(Loss(set, w, 1.0, 1, &g1), Loss(set, w, 1.0, 3, &g3), 1e-12);
  for (size_t j = 0; j < g1.size(); ++j) ASSERT_NEAR(g1[j], g3[j], 1e-12);
}

TEST(TexelTest, FitKRecoversTheLabellingK) {
  const EvalWeights truth = Load("pesto");
  for (double k : {0.6, 1.0, 1.7}) {
    CoefficientSet set = Labelled(truth, k, 60, 7);
    EXPECT_NEAR(FitK(set, ToWeights(truth), 2), k, 0.01);
  }
}

TEST(TexelTest, TargetsBlendResultAndScore) {
  CoefficientSet set;
  set.Add(Position::Start(), 1.0f, {0, 1, 1, 2, 4, 0}, 0);
  set.Add(Position::Start(), 0.0f, {0, 1, 1, 2, 4, 0});
  set.BlendTargets(0.5, 1.0);
  EXPECT_FLOAT_EQ(set.result(0), 0.75f);  // 0.5 * 1 + 0.5 * sigma(0)
  EXPECT_FLOAT_EQ(set.result(1), 0.0f);   // no score: the result alone
}

// A player that wins 80 % of its games whatever the position, and mostly
// moves first when it has White: the side to move (the tempo feature) says who
// plays, not who wins. Tuning from the results alone credits the tempo; with
// the player's colour known, its offset takes the edge and the tempo stays 0.
CoefficientSet PlayerWinsEightyPercent(bool record_player) {
  Position white_to_move = Position::Start();
  absl::StatusOr<Position> black_to_move = Position::FromFen(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_TRUE(black_to_move.ok());
  const std::array<int, 6> phase = Load("pesto").phase_weight;
  CoefficientSet set;
  auto add = [&](const Position& pos, int player_sign, int copies) {
    const float white_result = player_sign > 0 ? 0.8f : 0.2f;
    for (int i = 0; i < copies; ++i)
      set.Add(pos, white_result, phase, std::nullopt,
              record_player ? player_sign : 0);
  };
  for (int repeat = 0; repeat < 50; ++repeat) {
    add(white_to_move, +1, 3);
    add(white_to_move, -1, 1);
    add(*black_to_move, +1, 1);
    add(*black_to_move, -1, 3);
  }
  return set;
}

TEST(TexelTest, PlayerOffsetTakesThePlayersEdgeAwayFromTheEvaluation) {
  TexelSettings settings;
  settings.set_epochs(600);
  settings.set_learning_rate(2.0);
  settings.set_k(1.0);
  settings.set_threads(1);
  settings.set_l2(0);
  settings.add_blocks("tempo");
  const Weights start = ToWeights(Load("pesto"));
  ASSERT_EQ(start[kTempoFeature], 0);

  CoefficientSet blind = PlayerWinsEightyPercent(false);
  EXPECT_FALSE(blind.has_player());
  const TexelResult fooled = TuneTexel(blind, start, settings);
  EXPECT_FALSE(fooled.player_offset.has_value());
  // White to move scores 65 %: about 108 cp of tempo.
  EXPECT_GT(fooled.weights[kTempoFeature], 80);

  CoefficientSet known = PlayerWinsEightyPercent(true);
  EXPECT_TRUE(known.has_player());
  const TexelResult r = TuneTexel(known, start, settings);
  ASSERT_TRUE(r.player_offset.has_value());
  EXPECT_NEAR(*r.player_offset, 400 * std::log10(4.0), 3);  // 80 %: 241 cp
  EXPECT_NEAR(r.weights[kTempoFeature], 0, 3);
  EXPECT_EQ(r.weights.size(), start.size()) << "the offset is not a weight";
  EXPECT_LT(r.final_loss, fooled.final_loss);

  // The L2 pull keeps the weights near their start, not the player's offset.
  settings.set_l2(1e-3);
  const TexelResult pulled = TuneTexel(known, start, settings);
  EXPECT_NEAR(*pulled.player_offset, 400 * std::log10(4.0), 3);
}

TEST(TexelTest, PlayerOffsetGradientEqualsFiniteDifferences) {
  CoefficientSet set = PlayerWinsEightyPercent(true);
  Weights w = ToWeights(Load("pesto"));
  w.push_back(57);  // the player's offset
  Weights gradient;
  Loss(set, w, 1.1, 2, &gradient);
  ASSERT_EQ(gradient.size(), w.size());
  const double numeric = NumericDerivative(set, w, kPlayerOffset, 1.1);
  EXPECT_NEAR(gradient[kPlayerOffset], numeric,
              1e-6 + 1e-3 * std::abs(numeric));
  EXPECT_NEAR(LinearEval(set, 0, w), 57, 1e-9)
      << "start position, player White";
}

// The weights as the engine will use them: integers.
Weights Rounded(Weights w) {
  for (double& x : w) x = double(std::lround(x));
  return w;
}

TEST(TexelTest, RefitAfterRoundingTheTermsLosesLessThanRoundingAlone) {
  // Labels from PeSTO with half-centipawn mobility weights: the fit finds
  // them, and rounding them costs up to half a centipawn per square.
  Weights truth = ToWeights(Load("pesto"));
  const double mobility[4] = {4.5, 3.5, 2.5, 1.5};
  for (int t = 0; t < 4; ++t) {
    truth[kTermFeatures + kMobilityKnight + t] = mobility[t];
    truth[kNumFeatures + kTermFeatures + kMobilityKnight + t] = -mobility[t];
  }
  const EvalWeights pesto = Load("pesto");
  std::vector<Position> positions;
  for (const Position& pos :
       testing::RandomPlayPositions(UnderSanitizer() ? 40 : 200, 60, 21)) {
    if (!pos.InCheck()) positions.push_back(pos);
  }
  CoefficientSet unlabelled, set;
  for (const Position& pos : positions)
    unlabelled.Add(pos, 0.5f, pesto.phase_weight);
  for (size_t i = 0; i < positions.size(); ++i) {
    set.Add(positions[i], float(Sigma(1.0, LinearEval(unlabelled, i, truth))),
            pesto.phase_weight);
  }
  TexelSettings settings;
  settings.set_epochs(UnderSanitizer() ? 30 : 300);
  settings.set_learning_rate(1.0);
  settings.set_k(1.0);
  settings.set_threads(1);
  settings.set_l2(0);
  for (const char* block : {"value", "pst", "mobility"})
    settings.add_blocks(block);
  const Weights start = ToWeights(pesto);
  const TexelResult plain = TuneTexel(set, start, settings);
  settings.set_refit_epochs(settings.epochs());
  const TexelResult refit = TuneTexel(set, start, settings);
  EXPECT_EQ(refit.epoch_loss.size(), 2 * plain.epoch_loss.size());
  for (int t = 0; t < 4; ++t) {
    const double w = refit.weights[kTermFeatures + kMobilityKnight + t];
    EXPECT_EQ(w, std::round(w)) << "terms are rounded before the refit";
  }
  EXPECT_LT(Loss(set, Rounded(refit.weights), 1.0, 1),
            Loss(set, Rounded(plain.weights), 1.0, 1));

  // With l2, the refit is pulled towards the first fit, not back towards the
  // start: it is a second run from the first fit with its terms rounded.
  settings.set_l2(1e-4);
  settings.set_refit_epochs(0);
  Weights first = TuneTexel(set, start, settings).weights;
  for (int p = 0; p < 2; ++p) {
    for (int f = kTermFeatures; f < kNumFeatures; ++f)
      first[p * kNumFeatures + f] = std::round(first[p * kNumFeatures + f]);
  }
  TexelSettings second = settings;
  second.clear_blocks();
  second.add_blocks("value");
  second.add_blocks("pst");
  const TexelResult two_runs = TuneTexel(set, first, second);
  settings.set_refit_epochs(settings.epochs());
  EXPECT_EQ(TuneTexel(set, start, settings).weights, two_runs.weights);
}

TEST(TexelTest, TuningRecoversKnownWeights) {
  // Under a sanitizer, a short run of the same code: it must only go downhill.
  const bool short_run = UnderSanitizer();
  // Labels from PeSTO's weights; start from the founding documents' tables.
  const EvalWeights truth = Load("pesto");
  CoefficientSet train = Labelled(truth, 1.0, short_run ? 150 : 1500, 11);
  CoefficientSet held_out = Labelled(truth, 1.0, 100, 12);
  TexelSettings settings;
  settings.set_epochs(short_run ? 20 : 400);
  settings.set_learning_rate(3.0);
  settings.set_k(1.0);
  settings.set_threads(2);
  settings.set_l2(0);
  EvalWeights start = Load("simplified");
  start.weight[kMg][kValueFeatures + kKing] =
      start.weight[kEg][kValueFeatures + kKing] = 0;
  const TexelResult r = TuneTexel(train, ToWeights(start), settings);
  if (short_run) {
    EXPECT_LT(r.final_loss, r.start_loss);
    return;
  }
  EXPECT_LT(r.final_loss, r.start_loss / 20);
  // Values and tables are only identified together: compare what the evaluation
  // says.
  double error = 0, before = 0;
  const Weights truth_w = ToWeights(truth), start_w = ToWeights(start);
  for (size_t i = 0; i < held_out.size(); ++i) {
    error += std::abs(LinearEval(held_out, i, r.weights) -
                      LinearEval(held_out, i, truth_w));
    before += std::abs(LinearEval(held_out, i, start_w) -
                       LinearEval(held_out, i, truth_w));
  }
  error /= held_out.size();
  before /= held_out.size();
  EXPECT_LT(error, 15.0) << "mean |tuned - true| eval in cp; before tuning "
                         << before;
  // A frequent square: a knight on f3 (value + table), middle game.
  const int f3 = kPstFeatures + kKnight * 64 + 45;
  const double tuned = r.weights[kValueFeatures + kKnight] + r.weights[f3];
  const double real =
      truth.weight[kMg][kValueFeatures + kKnight] + truth.weight[kMg][f3];
  EXPECT_NEAR(tuned, real, 25);
}

}  // namespace
}  // namespace chess
