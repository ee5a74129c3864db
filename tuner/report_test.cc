#include "tuner/report.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "common/files.h"
#include "engine/config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

EngineConfig Load(const std::string& name) {
  auto config = LoadEngineConfig("configs/engines/" + name + ".textproto");
  EXPECT_TRUE(config.ok()) << config.status();
  return config.ok() ? *config : EngineConfig();
}

LoopReport TwoGenerations() {
  LoopReport report;
  report.mutable_config()->set_name("demo <loop>");
  report.mutable_config()->set_generations(3);
  for (int g = 1; g <= 2; ++g) {
    GenerationRow* row = report.add_generations();
    row->set_generation(g);
    row->set_games(400);
    row->set_positions(40000 * g);
    row->set_start_loss(0.081);
    row->set_loss(0.0791 - 0.001 * g);
    row->set_k(1.2);
    row->set_elo_vs_previous(12.5 * g);
    row->set_elo_vs_previous_error(20.25);
    row->set_accepted(g == 2);
    if (g == 2) {
      row->set_elo_vs_start(30);
      row->set_elo_vs_start_error(18);
    }
  }
  return report;
}

TEST(TuningReportTest, LoopShowsEveryGenerationAndTheEvaluations) {
  const std::string html =
      LoopReportHtml(TwoGenerations(), Load("simplified"), Load("pesto"));
  EXPECT_THAT(html, HasSubstr("Tuner loop demo &lt;loop&gt;"));
  EXPECT_THAT(html,
              HasSubstr("<td id=\"gen2-elo-previous\">+25.0 ± 20.2</td>"));
  EXPECT_THAT(html, HasSubstr("<td id=\"gen2-elo-start\">+30.0 ± 18.0</td>"));
  EXPECT_THAT(html, HasSubstr("<td id=\"gen1-accepted\">no</td>"));
  // simplified's knight is 320; PeSTO's 337 in the middle game.
  EXPECT_THAT(html, HasSubstr("<td id=\"value-knight-start-mg\">320</td>"));
  EXPECT_THAT(html, HasSubstr("<td id=\"value-knight-learned-mg\">337</td>"));
  EXPECT_THAT(html, HasSubstr("\"kind\":\"loop\""));
  EXPECT_THAT(html, HasSubstr("\"pst\":[[["));
}

TEST(TuningReportTest, TexelShowsLossEpochsAndKFit) {
  TuningRun run;
  run.set_output_config("out.textproto");
  run.set_positions(1234);
  run.set_k(1.1);
  run.set_start_loss(0.09);
  run.set_final_loss(0.08);
  run.add_epoch_loss(0.088);
  run.add_epoch_loss(0.085);
  KFitPoint* p = run.add_k_fit();
  p->set_k(0.5);
  p->set_loss(0.1);
  const std::string html =
      TexelReportHtml(run, Load("simplified"), Load("simplified"));
  EXPECT_THAT(html, HasSubstr("id=\"run-positions\">1234</td>"));
  EXPECT_THAT(html, HasSubstr("<td id=\"run-epochs\">2</td>"));
  EXPECT_THAT(html,
              HasSubstr("\"epochLoss\":[0.088,0.085],\"kFit\":[[0.5,0.1]]"));
}

TEST(TuningReportTest, SpsaShowsTrajectoriesFromTheStart) {
  SpsaState state;
  SpsaParameter* p = state.mutable_config()->add_parameters();
  p->set_name("lmr_base_x100");
  p->set_min(0);
  p->set_max(200);
  state.mutable_config()->set_iterations(10);
  state.add_start_theta(80);
  for (int k = 1; k <= 2; ++k) {
    SpsaIteration* it = state.add_history();
    it->set_k(k);
    it->add_theta(80 + k);
    it->set_plus_points_x2(2);
  }
  state.add_theta(82);
  const std::string html = SpsaReportHtml(state);
  EXPECT_THAT(html, HasSubstr("id=\"param0-now\">82.00</td>"));
  EXPECT_THAT(html, HasSubstr("\"theta\":[[0,80],[1,81],[2,82]]"));
  EXPECT_THAT(html, HasSubstr("\"cumulative\":[[1,1],[2,2]]"));
}

TEST(TuningReportTest, ReadsEachKindAndRefusesOthers) {
  const fs::path dir = fs::path(::testing::TempDir()) / "tuning_report";
  fs::remove_all(dir);
  fs::create_directories(dir / "loop");
  auto not_loop = MakeTuningReport((dir / "loop").string());
  ASSERT_FALSE(not_loop.ok());
  EXPECT_THAT(not_loop.status().message(),
              HasSubstr("no report.textproto here"));

  ASSERT_TRUE(WriteFileAtomically((dir / "loop/report.textproto").string(),
                                  TwoGenerations().DebugString())
                  .ok());
  ASSERT_TRUE(fs::copy_file("configs/engines/simplified.textproto",
                            dir / "loop/start.textproto"));
  auto loop = MakeTuningReport((dir / "loop").string());
  ASSERT_TRUE(loop.ok()) << loop.status();
  EXPECT_EQ(loop->kind, "loop");
  EXPECT_EQ(loop->default_path, (dir / "loop/report.html").string());

  const std::string junk = (dir / "junk.textproto").string();
  ASSERT_TRUE(WriteFileAtomically(junk, "what: 1\n").ok());
  auto bad = MakeTuningReport(junk);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("neither a tuner loop"));
  EXPECT_TRUE(absl::IsNotFound(
      MakeTuningReport((dir / "missing.textproto").string()).status()));
}

// An SPSA state named x.html once had its report written over it.
TEST(TuningReportTest, NeverWritesOverItsInput) {
  const fs::path dir = fs::path(::testing::TempDir()) / "tuning_report_self";
  fs::remove_all(dir);
  fs::create_directories(dir);
  SpsaState state;
  state.mutable_config()->set_engine_config("x.textproto");
  const std::string input = (dir / "x.html").string();
  ASSERT_TRUE(WriteFileAtomically(input, state.DebugString()).ok());
  auto report = MakeTuningReport(input);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->default_path, (dir / "x.report.html").string());
  EXPECT_TRUE(CheckReportPath(input, report->default_path).ok());
  EXPECT_TRUE(absl::IsInvalidArgument(CheckReportPath(input, input)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      CheckReportPath(input, (dir / "." / "x.html").string())));
  EXPECT_TRUE(absl::IsInvalidArgument(CheckReportPath(input, dir.string())));
}

}  // namespace
}  // namespace chess
