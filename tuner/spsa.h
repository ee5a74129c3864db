// SPSA over named numeric engine parameters, with fishtest's schedule: A =
// a_fraction x iterations, a_k = a / (A + k)^alpha, c_k = c / k^gamma; each
// iteration plays game pairs of theta + c_k Delta against theta - c_k Delta
// (integers, within bounds).
#ifndef TUNER_SPSA_H_
#define TUNER_SPSA_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tuner/selfplay.h"
#include "tuner/tuning.pb.h"

namespace chess {

// The gains of one parameter at iteration k (1-based).
struct SpsaGains {
  double c_k = 0;  // perturbation
  double r_k = 0;  // a_k / c_k^2: step per point of result per unit of c_k
};
SpsaGains SpsaSchedule(const SpsaConfig& config, const SpsaParameter& parameter,
                       int k);

// Plays iteration k between the two parameter vectors; returns the first's
// wins minus losses.
using SpsaMatch = std::function<absl::StatusOr<int>(
    int k, const std::vector<double>& plus, const std::vector<double>& minus)>;

// Runs the remaining iterations, checkpointing to `state_path` after each (an
// existing checkpoint of the same config is resumed, and `start` is then
// unused). Returns the final theta.
absl::StatusOr<std::vector<double>> RunSpsaIterations(
    const SpsaConfig& config, const std::vector<double>& start,
    const std::string& state_path, const SpsaMatch& match, std::ostream& log);

// RunSpsaIterations with arena games from `config.engine_config()`; game logs
// go to `work_dir`, and the engine config with the final theta to
// `work_dir`/final.textproto. Each iteration's pairs are one match, played in
// process or as `venue` says.
absl::Status RunSpsa(const SpsaConfig& config, const std::string& config_dir,
                     const std::string& state_path, const std::string& work_dir,
                     std::ostream& log, const Venue& venue = {});

}  // namespace chess

#endif  // TUNER_SPSA_H_
