// The tuning reports in a real browser: a tiny `tuner loop`, a recorded
// `tuner texel` run and an `tuner spsa` checkpoint, each through `tuner
// report`, load from file:// without an error, with the figures of their
// records and the charts and heat maps drawn; screenshots are test outputs.
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/program.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "tests/report/browser.h"
#include "tuner/tuning.pb.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

std::string g_tuner;  // argv[1]

std::string Abs(const std::string& path) { return fs::absolute(path).string(); }

class TuningReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::path(::testing::TempDir()) / "tuning").string();
    std::string why;
    browser_ = Browser::Find(dir_ + "/chromium", &why);
    if (!browser_) GTEST_SKIP() << "skipped, no browser: " << why;
  }

  // Loads a report: no console message, no error shown, the script drew
  // `kind`, and a screenshot is kept as `png`.
  std::string LoadClean(const std::string& html, const std::string& kind,
                        const std::string& png) {
    const LoadedPage page = browser_->Load(FileUrl(html));
    EXPECT_EQ(page.exit_code, 0);
    EXPECT_TRUE(page.console.empty()) << absl::StrJoin(page.console, "\n");
    EXPECT_NE(page.dom.find("<div id=\"errors\" hidden=\"\">"),
              std::string::npos)
        << TextOfId(page.dom, "errors").value_or("");
    EXPECT_NE(page.dom.find(absl::StrCat("data-drawn=\"", kind, "\"")),
              std::string::npos);
    EXPECT_NE(page.dom.find("<polyline"), std::string::npos);
    const char* outputs = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
    EXPECT_TRUE(browser_->Screenshot(
        FileUrl(html), absl::StrCat(outputs ? outputs : dir_, "/", png), 1200,
        1800));
    return page.dom;
  }

  std::string dir_;
  std::optional<Browser> browser_;
};

TEST_F(TuningReportBrowserTest, LoopAndTexelReportsShowTheirRecords) {
  const std::string loop_config = dir_ + "/loop.textproto";
  ASSERT_TRUE(
      WriteFileAtomically(
          loop_config,
          absl::StrCat("name: \"tiny\"\nstart_config: \"",
                       Abs("configs/engines/simplified.textproto"),
                       "\"\ngenerations: 2\nselfplay_games: 16\n"
                       "selfplay_nodes: 600\nbook: \"",
                       Abs("configs/openings/balanced.epd"),
                       "\"\ntexel { epochs: 30 blocks: \"value\" blocks: "
                       "\"pst\" }\nsprt_games: 16\nconcurrency: 2\n"))
          .ok());
  const std::string loop = dir_ + "/loop";
  fs::remove_all(loop);
  ASSERT_EQ(RunProgram({g_tuner, "loop", loop_config, "--output_dir=" + loop})
                .exit_code,
            0);
  ASSERT_EQ(RunProgram({g_tuner, "report", loop}, true).exit_code, 0);
  const std::string dom =
      LoadClean(loop + "/report.html", "loop", "loop_report.png");
  auto text = ReadFile(loop + "/report.textproto");
  ASSERT_TRUE(text.ok());
  LoopReport report;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &report));
  ASSERT_EQ(report.generations_size(), 2);
  for (const GenerationRow& r : report.generations()) {
    const std::string id = absl::StrCat("gen", r.generation(), "-");
    EXPECT_EQ(TextOfId(dom, id + "positions"), absl::StrCat(r.positions()));
    EXPECT_EQ(TextOfId(dom, id + "loss"), absl::StrFormat("%.5f", r.loss()));
    EXPECT_EQ(TextOfId(dom, id + "elo-previous"),
              absl::StrFormat("%+.1f ± %.1f", r.elo_vs_previous(),
                              r.elo_vs_previous_error()));
  }
  EXPECT_NE(dom.find("class=\"heat\""), std::string::npos);

  // Texel on the loop's data, recorded, then reported.
  const std::string data = dir_ + "/data.txt";
  ASSERT_EQ(RunProgram({g_tuner, "extract", "--out=" + data,
                        loop + "/gen1/selfplay/games.log"})
                .exit_code,
            0);
  const std::string record = dir_ + "/texel_run.textproto";
  ASSERT_EQ(
      RunProgram({g_tuner, "texel", "--data=" + data,
                  "--start=" + Abs("configs/engines/simplified.textproto"),
                  "--out=" + dir_ + "/texel_out.textproto",
                  "--record=" + record, "--epochs=20"})
          .exit_code,
      0);
  ASSERT_EQ(RunProgram({g_tuner, "report", record}).exit_code, 0);
  const std::string texel =
      LoadClean(dir_ + "/texel_run.html", "texel", "texel_report.png");
  text = ReadFile(record);
  ASSERT_TRUE(text.ok());
  TuningRun run;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &run));
  EXPECT_EQ(run.epoch_loss_size(), 20);
  EXPECT_GT(run.k_fit_size(), 10);
  EXPECT_EQ(TextOfId(texel, "run-final-loss"),
            absl::StrFormat("%.6f", run.final_loss()));
  EXPECT_EQ(TextOfId(texel, "run-k"), absl::StrFormat("%.4f", run.k()));
}

TEST_F(TuningReportBrowserTest, SpsaReportShowsTheta) {
  const std::string config = dir_ + "/spsa.textproto";
  ASSERT_TRUE(
      WriteFileAtomically(
          config,
          absl::StrCat("engine_config: \"",
                       Abs("configs/engines/default.textproto"), "\"\nbook: \"",
                       Abs("configs/openings/balanced.epd"),
                       "\"\niterations: 4\npairs_per_iteration: 1\n"
                       "nodes: 500\nparameters { name: \"lmr_base_x100\" "
                       "min: 0 max: 200 c_end: 10 }\n"))
          .ok());
  const std::string state = dir_ + "/spsa.state";
  fs::remove(state);
  ASSERT_EQ(RunProgram({g_tuner, "spsa", config, "--state=" + state,
                        "--work_dir=" + dir_ + "/spsa"})
                .exit_code,
            0);
  ASSERT_EQ(
      RunProgram({g_tuner, "report", state, "--out=" + dir_ + "/spsa.html"})
          .exit_code,
      0);
  const std::string dom =
      LoadClean(dir_ + "/spsa.html", "spsa", "spsa_report.png");
  auto text = ReadFile(state);
  ASSERT_TRUE(text.ok());
  SpsaState s;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &s));
  EXPECT_EQ(TextOfId(dom, "param0-now"), absl::StrFormat("%.2f", s.theta(0)));
  EXPECT_EQ(TextOfId(dom, "param0-start"),
            absl::StrFormat("%.2f", s.start_theta(0)));
}

TEST_F(TuningReportBrowserTest, NoReportFromWhatIsNotATuningRun) {
  fs::create_directories(dir_ + "/empty");
  EXPECT_EQ(RunProgram({g_tuner, "report", dir_ + "/empty"}).exit_code, 2);
  EXPECT_EQ(RunProgram({g_tuner, "report", dir_ + "/none.textproto"}).exit_code,
            2);
}

}  // namespace
}  // namespace chess

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: tuning_report_browser_test TUNER\n");
    return 2;
  }
  chess::g_tuner = argv[1];
  return RUN_ALL_TESTS();
}
