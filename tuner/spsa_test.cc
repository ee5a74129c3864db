#include "tuner/spsa.h"

#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "common/sanitizer.h"
#include "engine/config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

SpsaParameter* AddParameter(SpsaConfig* config, const std::string& name,
                            double min, double max, double c_end) {
  SpsaParameter* p = config->add_parameters();
  p->set_name(name);
  p->set_min(min);
  p->set_max(max);
  p->set_c_end(c_end);
  return p;
}

TEST(SpsaScheduleTest, FishtestGains) {
  SpsaConfig config;
  config.set_iterations(1000);
  const SpsaParameter& p = *AddParameter(&config, "x", 0, 100, 4);
  // fishtest: c = c_end * N^gamma, a = r_end * c_end^2 * (A + N)^alpha, A =
  // N / 10; c_k = c / k^gamma, a_k = a / (A + k)^alpha.
  const double c = 4 * std::pow(1000, 0.101);
  const double a = 0.002 * 16 * std::pow(1100, 0.602);
  for (int k : {1, 7, 500, 1000}) {
    const SpsaGains g = SpsaSchedule(config, p, k);
    const double c_k = c / std::pow(k, 0.101);
    const double a_k = a / std::pow(100 + k, 0.602);
    EXPECT_NEAR(g.c_k, c_k, 1e-9) << k;
    EXPECT_NEAR(g.r_k, a_k / (c_k * c_k), 1e-12) << k;
  }
  const SpsaGains last = SpsaSchedule(config, p, 1000);
  EXPECT_NEAR(last.c_k, 4, 1e-9);
  EXPECT_NEAR(last.r_k, 0.002, 1e-12);
}

// Noisy game pairs between two parameter vectors whose strength falls with the
// squared distance from `target`: SPSA must walk from the start to the target.
// Under a sanitizer, a short run (every iteration rewrites the checkpoint) that
// must only get closer.
TEST(SpsaTest, ConvergesOnASyntheticObjective) {
  const bool short_run = UnderSanitizer();
  SpsaConfig config;
  config.set_iterations(short_run ? 200 : 2000);
  config.set_pairs_per_iteration(8);
  AddParameter(&config, "x", -200, 200, 4)->set_r_end(0.01);
  AddParameter(&config, "y", -200, 200, 4)->set_r_end(0.01);
  const std::vector<double> target = {60, -40};
  std::mt19937_64 rng(7);
  auto strength = [&](const std::vector<double>& t) {
    return -(std::pow(t[0] - target[0], 2) + std::pow(t[1] - target[1], 2)) /
           400.0;
  };
  const SpsaMatch match = [&](int, const std::vector<double>& plus,
                              const std::vector<double>& minus) {
    const double p_win =
        1 / (1 + std::exp(-(strength(plus) - strength(minus))));
    std::bernoulli_distribution win(p_win);
    int result = 0;
    for (int g = 0; g < 2 * config.pairs_per_iteration(); ++g)
      result += win(rng) ? 1 : -1;
    return absl::StatusOr<int>(result);
  };
  std::ostringstream log;
  absl::StatusOr<std::vector<double>> theta = RunSpsaIterations(
      config, {0, 0}, ::testing::TempDir() + "synthetic.state", match, log);
  ASSERT_TRUE(theta.ok()) << theta.status();
  const double tolerance = short_run ? 30 : 10;
  EXPECT_NEAR((*theta)[0], 60, tolerance);
  EXPECT_NEAR((*theta)[1], -40, tolerance);
}

TEST(SpsaTest, RejectsBadParameters) {
  SpsaConfig config;
  config.set_iterations(10);
  AddParameter(&config, "x", 10, 0, 4);
  std::ostringstream log;
  const SpsaMatch never = [](int, const std::vector<double>&,
                             const std::vector<double>&) {
    return absl::StatusOr<int>(0);
  };
  absl::StatusOr<std::vector<double>> theta = RunSpsaIterations(
      config, {5}, ::testing::TempDir() + "bad.state", never, log);
  EXPECT_FALSE(theta.ok());
  EXPECT_THAT(theta.status().message(), HasSubstr("min < max"));
}

TEST(SpsaTest, GamesCheckpointResumeAndFinalConfig) {
  SpsaConfig config;
  config.set_engine_config("configs/engines/default.textproto");
  config.set_book("configs/openings/balanced.epd");
  config.set_iterations(2);
  config.set_pairs_per_iteration(1);
  config.set_nodes(300);
  AddParameter(&config, "lmr_base_x100", 0, 300, 10);
  std::ostringstream log;
  const std::string state = ::testing::TempDir() + "spsa.state";
  const std::string work = ::testing::TempDir() + "spsa";
  ASSERT_TRUE(RunSpsa(config, ".", state, work, log).ok());
  EXPECT_THAT(log.str(), HasSubstr("iteration 2/2"));
  EXPECT_TRUE(std::filesystem::exists(work + "/iteration-2/games.log"));
  EXPECT_TRUE(LoadEngineConfig(work + "/final.textproto").ok());
  std::ostringstream again;
  ASSERT_TRUE(RunSpsa(config, ".", state, work, again).ok());
  EXPECT_THAT(again.str(), HasSubstr("resuming at iteration 3"));
  config.set_iterations(3);  // another run: refused, not mixed
  absl::Status other = RunSpsa(config, ".", state, work, again);
  EXPECT_THAT(other.message(), HasSubstr("checkpoint of another SPSA run"));
}

}  // namespace
}  // namespace chess
