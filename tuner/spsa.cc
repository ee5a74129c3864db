#include "tuner/spsa.h"

#include <cmath>
#include <filesystem>
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
#include "tuner/tune.h"

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

absl::Status Validate(const SpsaConfig& config, size_t start_size) {
  if (config.parameters_size() == 0)
    return absl::InvalidArgumentError("spsa: no parameters");
  if (config.iterations() < 1)
    return absl::InvalidArgumentError("spsa: iterations must be at least 1");
  if (start_size != size_t(config.parameters_size()))
    return absl::InvalidArgumentError("spsa: one start value per parameter");
  for (const SpsaParameter& p : config.parameters()) {
    if (!(p.min() < p.max()) || !(p.c_end() > 0) || !(p.r_end() > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("spsa: parameter ", p.name(),
                       " needs min < max, c_end > 0, r_end > 0"));
    }
  }
  return absl::OkStatus();
}

// The checkpoint of this config, or a fresh state at `start`.
absl::StatusOr<SpsaState> LoadState(const SpsaConfig& config,
                                    const std::vector<double>& start,
                                    const std::string& path) {
  SpsaState state;
  if (!fs::exists(path)) {
    *state.mutable_config() = config;
    for (size_t i = 0; i < start.size(); ++i) {
      const SpsaParameter& p = config.parameters(int(i));
      state.add_theta(std::clamp(start[i], p.min(), p.max()));
    }
    *state.mutable_start_theta() = state.theta();
    return state;
  }
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  if (!google::protobuf::TextFormat::ParseFromString(*text, &state) ||
      !google::protobuf::util::MessageDifferencer::Equals(state.config(),
                                                          config) ||
      state.theta_size() != config.parameters_size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        path,
        ": a checkpoint of another SPSA run; remove it or choose another"));
  }
  return state;
}

}  // namespace

SpsaGains SpsaSchedule(const SpsaConfig& config, const SpsaParameter& parameter,
                       int k) {
  const double n = config.iterations();
  const double big_a = config.a_fraction() * n;
  // c and a are chosen so that c_n = c_end and a_n / c_n^2 = r_end.
  const double c = parameter.c_end() * std::pow(n, config.gamma());
  const double a_end =
      parameter.r_end() * parameter.c_end() * parameter.c_end();
  const double a = a_end * std::pow(big_a + n, config.alpha());
  SpsaGains gains;
  gains.c_k = c / std::pow(k, config.gamma());
  gains.r_k = a / std::pow(big_a + k, config.alpha()) / (gains.c_k * gains.c_k);
  return gains;
}

absl::StatusOr<std::vector<double>> RunSpsaIterations(
    const SpsaConfig& config, const std::vector<double>& start,
    const std::string& state_path, const SpsaMatch& match, std::ostream& log) {
  if (absl::Status s = Validate(config, start.size()); !s.ok()) return s;
  absl::StatusOr<SpsaState> state = LoadState(config, start, state_path);
  if (!state.ok()) return state.status();
  if (state->history_size() > 0)
    log << "resuming at iteration " << state->history_size() + 1 << "\n";
  const int n = config.parameters_size();
  std::vector<double> theta(state->theta().begin(), state->theta().end());
  for (int k = state->history_size() + 1; k <= config.iterations(); ++k) {
    std::mt19937_64 rng(Mix64(config.seed() * 1000003 + uint64_t(k)));
    std::vector<double> plus(n), minus(n), delta(n);
    std::vector<SpsaGains> gains(n);
    for (int i = 0; i < n; ++i) {
      const SpsaParameter& p = config.parameters(i);
      gains[i] = SpsaSchedule(config, p, k);
      delta[i] = (rng() & 1) ? 1 : -1;
      const double step = gains[i].c_k * delta[i];
      plus[i] = std::clamp(std::round(theta[i] + step), p.min(), p.max());
      minus[i] = std::clamp(std::round(theta[i] - step), p.min(), p.max());
    }
    absl::StatusOr<int> result = match(k, plus, minus);
    if (!result.ok()) return result.status();
    SpsaIteration* it = state->add_history();
    it->set_k(k);
    it->set_plus_points_x2(2 * *result);
    for (int i = 0; i < n; ++i) {
      const SpsaParameter& p = config.parameters(i);
      theta[i] = std::clamp(
          theta[i] + gains[i].r_k * gains[i].c_k * *result * delta[i], p.min(),
          p.max());
      it->add_theta(theta[i]);
    }
    state->mutable_theta()->Assign(theta.begin(), theta.end());
    if (absl::Status s = WriteTextProto(*state, state_path, ""); !s.ok())
      return s;
    std::string line = absl::StrFormat("iteration %d/%d  result %+d ", k,
                                       config.iterations(), *result);
    for (int i = 0; i < n; ++i)
      absl::StrAppendFormat(&line, " %s=%.2f", config.parameters(i).name(),
                            theta[i]);
    log << line << std::endl;
  }
  return theta;
}

absl::Status RunSpsa(const SpsaConfig& config, const std::string& config_dir,
                     const std::string& state_path, const std::string& work_dir,
                     std::ostream& log, const SlurmOptions& slurm) {
  absl::StatusOr<EngineConfig> base =
      LoadEngineConfig(ResolvePath(config_dir, config.engine_config()));
  if (!base.ok()) return base.status();
  std::vector<Opening> openings;
  const std::string book =
      config.book().empty() ? "" : ResolvePath(config_dir, config.book());
  if (!book.empty()) {
    absl::StatusOr<std::vector<Opening>> loaded =
        LoadBook(book, /*max_plies=*/0);
    if (!loaded.ok()) return loaded.status();
    openings = *std::move(loaded);
  }
  std::vector<double> start;
  for (const SpsaParameter& p : config.parameters()) {
    absl::StatusOr<double> v = GetNumericConfigOption(p.name(), *base);
    if (!v.ok()) return v.status();
    start.push_back(*v);
  }
  const SpsaMatch play_pairs =
      [&](int k, const std::vector<double>& plus,
          const std::vector<double>& minus) -> absl::StatusOr<int> {
    MatchRequest request;
    request.first = *base;
    request.second = *base;
    if (absl::Status s = Apply(config, plus, &request.first); !s.ok()) return s;
    if (absl::Status s = Apply(config, minus, &request.second); !s.ok())
      return s;
    request.first_name = "plus";
    request.second_name = "minus";
    request.openings = &openings;
    request.book_path = book;
    request.slurm = slurm;
    request.games = 2 * config.pairs_per_iteration();
    request.nodes = config.nodes();
    request.seed = Mix64(config.seed() + uint64_t(k));
    request.concurrency = config.concurrency();
    request.output_dir =
        (fs::path(work_dir) / absl::StrCat("iteration-", k)).string();
    absl::StatusOr<MatchSummary> summary = PlayMatch(request);
    if (!summary.ok()) return summary.status();
    return summary->pairings(0).wins() - summary->pairings(0).losses();
  };
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  if (ec)
    return absl::InternalError(absl::StrCat(work_dir, ": ", ec.message()));
  absl::StatusOr<std::vector<double>> theta =
      RunSpsaIterations(config, start, state_path, play_pairs, log);
  if (!theta.ok()) return theta.status();
  EngineConfig final_config = *base;
  if (absl::Status s = Apply(config, *theta, &final_config); !s.ok()) return s;
  const std::string out = (fs::path(work_dir) / "final.textproto").string();
  if (absl::Status s = WriteTextProto(
          final_config, out,
          absl::StrCat("# tuner spsa: ", config.engine_config(), " after ",
                       config.iterations(), " iterations\n"));
      !s.ok())
    return s;
  log << "final config: " << out << "\n";
  return absl::OkStatus();
}

}  // namespace chess
