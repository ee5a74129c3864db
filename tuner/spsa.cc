#include "tuner/spsa.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "arena/openings.h"
#include "arena/player.h"
#include "arena/schedule.h"
#include "common/exit_code.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/config_option.h"
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

// The engine's options with theta's values (rounded, as spin options are
// whole numbers).
ExternalEngine WithOptions(const SpsaConfig& config,
                           const std::vector<double>& theta) {
  ExternalEngine engine = config.engine();
  for (int i = 0; i < config.parameters_size(); ++i)
    (*engine.mutable_options())[config.parameters(i).name()] =
        std::to_string(std::lround(theta[i]));
  return engine;
}

// Each parameter must be a spin option the engine advertises, within its
// range; the start is the fixed value in the config, else the engine's
// default.
absl::StatusOr<std::vector<double>> ExternalStart(const SpsaConfig& config) {
  absl::StatusOr<std::vector<UciOption>> advertised =
      ProbeUciOptions(config.engine());
  if (!advertised.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("spsa: engine: ", advertised.status().message()));
  }
  std::vector<double> start;
  for (const SpsaParameter& p : config.parameters()) {
    const auto option = std::find_if(
        advertised->begin(), advertised->end(), [&](const UciOption& o) {
          return absl::EqualsIgnoreCase(o.name, p.name());
        });
    if (option == advertised->end()) {
      std::vector<std::string> spins;
      for (const UciOption& o : *advertised)
        if (o.type == "spin") spins.push_back(o.name);
      return absl::InvalidArgumentError(absl::StrCat(
          "spsa: parameter ", p.name(),
          ": the engine has no such option (its "
          "spin options: ",
          spins.empty() ? "none" : absl::StrJoin(spins, ", "), ")"));
    }
    if (option->type != "spin" || !option->has_range) {
      return absl::InvalidArgumentError(absl::StrCat(
          "spsa: parameter ", p.name(), ": a ", option->type,
          " option; only spin options with min and max can be tuned"));
    }
    if (p.min() < option->min || p.max() > option->max) {
      return absl::InvalidArgumentError(
          absl::StrCat("spsa: parameter ", p.name(), ": [", p.min(), ", ",
                       p.max(), "] is outside the engine's range [",
                       option->min, ", ", option->max, "]"));
    }
    if (option->name != p.name()) {
      return absl::InvalidArgumentError(
          absl::StrCat("spsa: parameter ", p.name(),
                       ": the engine spells it \"", option->name, "\""));
    }
    const auto fixed = config.engine().options().find(p.name());
    const std::string& text = fixed != config.engine().options().end()
                                  ? fixed->second
                                  : option->default_value;
    double value;
    if (!absl::SimpleAtod(text, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("spsa: parameter ", p.name(), ": start value \"", text,
                       "\" is not a number"));
    }
    start.push_back(value);
  }
  return start;
}

// Iteration k's game pairs, theta+ ("plus") first; the caller sets the
// engines.
MatchRequest IterationMatch(const SpsaConfig& config, int k,
                            const std::vector<Opening>& openings,
                            const std::string& book,
                            const std::string& work_dir, const Venue& venue) {
  MatchRequest request;
  request.first_name = "plus";
  request.second_name = "minus";
  request.openings = &openings;
  request.book_path = book;
  request.venue = venue;
  request.games = 2 * config.pairs_per_iteration();
  request.nodes = config.nodes();
  request.seed = Mix64(config.seed() + uint64_t(k));
  request.concurrency = config.concurrency();
  request.output_dir =
      (fs::path(work_dir) / absl::StrCat("iteration-", k)).string();
  return request;
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

namespace {

// SPSA of another UCI engine: the same schedule and checkpoints, games of the
// engine with theta+ options against itself with theta-.
absl::Status RunExternalSpsa(const SpsaConfig& config,
                             const std::vector<Opening>& openings,
                             const std::string& book,
                             const std::string& state_path,
                             const std::string& work_dir, std::ostream& log,
                             const Venue& venue) {
  absl::StatusOr<std::vector<double>> start = ExternalStart(config);
  if (!start.ok()) return start.status();
  const SpsaMatch play_pairs =
      [&](int k, const std::vector<double>& plus,
          const std::vector<double>& minus) -> absl::StatusOr<int> {
    MatchRequest request =
        IterationMatch(config, k, openings, book, work_dir, venue);
    request.first_external = WithOptions(config, plus);
    request.second_external = WithOptions(config, minus);
    absl::StatusOr<MatchSummary> summary = PlayMatch(request);
    if (!summary.ok()) return summary.status();
    if (summary->exit_code() == kExitEngineFailure) {
      return absl::UnavailableError(
          absl::StrCat("spsa: the engine could not be started; see ",
                       request.output_dir, "/games.pgn"));
    }
    return summary->pairings(0).wins() - summary->pairings(0).losses();
  };
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  if (ec)
    return absl::InternalError(absl::StrCat(work_dir, ": ", ec.message()));
  absl::StatusOr<std::vector<double>> theta =
      RunSpsaIterations(config, *start, state_path, play_pairs, log);
  if (!theta.ok()) return theta.status();
  const std::string out = (fs::path(work_dir) / "final.textproto").string();
  if (absl::Status s = WriteTextProto(
          WithOptions(config, *theta), out,
          absl::StrCat("# tuner spsa: the engine's options after ",
                       config.iterations(),
                       " iterations (an arena ExternalEngine)\n"));
      !s.ok())
    return s;
  log << "final options (ExternalEngine): " << out << "\n";
  return absl::OkStatus();
}

}  // namespace

absl::Status RunSpsa(const SpsaConfig& config, const std::string& config_dir,
                     const std::string& state_path, const std::string& work_dir,
                     std::ostream& log, const Venue& venue) {
  const bool external = config.has_engine();
  if (external && !config.engine_config().empty()) {
    return absl::InvalidArgumentError(
        "spsa: set engine_config (ours) or engine (a UCI program), not both");
  }
  if (external && config.engine().argv().empty())
    return absl::InvalidArgumentError("spsa: engine.argv is empty");
  absl::StatusOr<EngineConfig> base =
      external
          ? EngineConfig()
          : LoadEngineConfig(ResolvePath(config_dir, config.engine_config()));
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
  if (external) {
    // Resolved like the config's other paths: a program named with a slash
    // is relative to the config.
    SpsaConfig resolved = config;
    std::string& program = *resolved.mutable_engine()->mutable_argv(0);
    if (program.find('/') != std::string::npos)
      program = ResolvePath(config_dir, program);
    if (!resolved.engine().working_dir().empty())
      resolved.mutable_engine()->set_working_dir(
          ResolvePath(config_dir, resolved.engine().working_dir()));
    return RunExternalSpsa(resolved, openings, book, state_path, work_dir, log,
                           venue);
  }
  for (const SpsaParameter& p : config.parameters()) {
    absl::StatusOr<double> v = GetNumericConfigOption(p.name(), *base);
    if (!v.ok()) return v.status();
    start.push_back(*v);
  }
  const SpsaMatch play_pairs =
      [&](int k, const std::vector<double>& plus,
          const std::vector<double>& minus) -> absl::StatusOr<int> {
    MatchRequest request =
        IterationMatch(config, k, openings, book, work_dir, venue);
    request.first = *base;
    request.second = *base;
    if (absl::Status s = Apply(config, plus, &request.first); !s.ok()) return s;
    if (absl::Status s = Apply(config, minus, &request.second); !s.ok())
      return s;
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
