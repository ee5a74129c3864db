// SPSA over named numeric engine parameters, with fishtest's schedule: A =
// a_fraction x iterations, a_k = a / (A + k)^alpha, c_k = c / k^gamma; each
// iteration plays game pairs of theta + c_k Delta against theta - c_k Delta
// (integers, within bounds).
#ifndef TUNER_SPSA_H_
#define TUNER_SPSA_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "tuner/tuning.pb.h"

namespace chess {

// Runs the remaining iterations of `config`, checkpointing to `state_path`
// after each (an existing checkpoint of the same config is resumed). Game logs
// go to `work_dir`.
absl::Status RunSpsa(const SpsaConfig& config, const std::string& config_dir,
                     const std::string& state_path, const std::string& work_dir,
                     std::ostream& log);

}  // namespace chess

#endif  // TUNER_SPSA_H_
