#include "tuner/spsa.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/openings.h"
#include "arena/schedule.h"
#include "engine/config.h"
#include "engine/uci.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "tuner/selfplay.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

absl::Status Apply(const SpsaConfig& config, const std::vector<double>& theta,
                   EngineConfig* e) {
  for (int i = 0; i < config.parameters_size(); ++i) {
    const auto value = std::to_string(std::lround(theta[i]));
    if (absl::Status s = SetConfigOption(config.parameters(i).name(), value, e);
        !s.ok())
      return s;
  }
  return ValidateEngineConfig(*e);
}

absl::Status SaveState(const SpsaState& state, const std::string& path) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(state, &text);
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << text;
  std::error_code ec;
  fs::rename(tmp, path,
             ec);  // atomic: a crash leaves the old or the new checkpoint
  if (ec) return absl::InternalError(absl::StrCat(path, ": ", ec.message()));
  return absl::OkStatus();
}

}  // namespace

absl::Status RunSpsa(const SpsaConfig& config, const std::string& config_dir,
                     const std::string& state_path, const std::string& work_dir,
                     std::ostream& log) {
  absl::StatusOr<EngineConfig> base =
      LoadEngineConfig(ResolvePath(config_dir, config.engine_config()));
  if (!base.ok()) return base.status();
  std::vector<Opening> openings;
  if (!config.book().empty()) {
    absl::StatusOr<std::vector<Opening>> loaded =
        LoadBook(ResolvePath(config_dir, config.book()), /*max_plies=*/0);
    if (!loaded.ok()) return loaded.status();
    openings = *std::move(loaded);
  }
  const int n = config.parameters_size();
  if (n == 0) return absl::InvalidArgumentError("spsa: no parameters");
  SpsaState state;
  if (absl::StatusOr<std::string> text = ReadFile(state_path); text.ok()) {
    if (!google::protobuf::TextFormat::ParseFromString(*text, &state) ||
        !google::protobuf::util::MessageDifferencer::Equals(state.config(),
                                                            config)) {
      return absl::FailedPreconditionError(absl::StrCat(
          state_path,
          ": a checkpoint of another SPSA run; remove it or choose another"));
    }
    log << "resuming at iteration " << state.history_size() + 1 << "\n";
  } else {
    *state.mutable_config() = config;
    for (const SpsaParameter& p : config.parameters()) {
      absl::StatusOr<double> v = GetNumericConfigOption(p.name(), *base);
      if (!v.ok()) return v.status();
      if (!(p.min() < p.max()) || p.c_end() <= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "spsa: parameter ", p.name(), " needs min < max and c_end > 0"));
      }
      state.add_theta(*v);
    }
  }
  std::vector<double> theta(state.theta().begin(), state.theta().end());
  const int iterations = config.iterations();
  const double big_a = config.a_fraction() * iterations;
  for (int k = state.history_size() + 1; k <= iterations; ++k) {
    std::mt19937_64 rng(Mix64(config.seed() * 1000003 + uint64_t(k)));
    std::vector<double> plus(n), minus(n), delta(n), c_k(n), r_k(n);
    for (int i = 0; i < n; ++i) {
      const SpsaParameter& p = config.parameters(i);
      const double c = p.c_end() * std::pow(iterations, config.gamma());
      const double a_end = p.r_end() * p.c_end() * p.c_end();
      const double a = a_end * std::pow(big_a + iterations, config.alpha());
      c_k[i] = c / std::pow(k, config.gamma());
      const double a_k = a / std::pow(big_a + k, config.alpha());
      r_k[i] = a_k / (c_k[i] * c_k[i]);
      delta[i] = (rng() & 1) ? 1 : -1;
      plus[i] = std::clamp(std::round(theta[i] + c_k[i] * delta[i]), p.min(),
                           p.max());
      minus[i] = std::clamp(std::round(theta[i] - c_k[i] * delta[i]), p.min(),
                            p.max());
    }
    MatchRequest request;
    request.first = *base;
    request.second = *base;
    if (absl::Status s = Apply(config, plus, &request.first); !s.ok()) return s;
    if (absl::Status s = Apply(config, minus, &request.second); !s.ok())
      return s;
    request.first_name = "plus";
    request.second_name = "minus";
    request.openings = &openings;
    request.games = 2 * config.pairs_per_iteration();
    request.nodes = config.nodes();
    request.seed = Mix64(config.seed() + uint64_t(k));
    request.concurrency = config.concurrency();
    request.output_dir =
        (fs::path(work_dir) / absl::StrCat("iteration-", k)).string();
    absl::StatusOr<MatchSummary> summary = PlayMatch(request);
    if (!summary.ok()) return summary.status();
    const PairingSummary& p = summary->pairings(0);
    const int result = p.wins() - p.losses();
    SpsaIteration* it = state.add_history();
    it->set_k(k);
    it->set_plus_points_x2(2 * result);
    for (int i = 0; i < n; ++i) {
      const SpsaParameter& param = config.parameters(i);
      theta[i] = std::clamp(theta[i] + r_k[i] * c_k[i] * result * delta[i],
                            param.min(), param.max());
      it->add_theta(theta[i]);
    }
    state.mutable_theta()->Assign(theta.begin(), theta.end());
    if (absl::Status s = SaveState(state, state_path); !s.ok()) return s;
    std::string line =
        absl::StrFormat("iteration %d/%d  result %+d ", k, iterations, result);
    for (int i = 0; i < n; ++i)
      absl::StrAppendFormat(&line, " %s=%.2f", config.parameters(i).name(),
                            theta[i]);
    log << line << std::endl;
  }
  return absl::OkStatus();
}

}  // namespace chess
