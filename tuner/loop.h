// `tuner loop`: generation after generation, self-play with the current best
// config, extract positions, tune, and keep the tuned weights only if the
// arena's SPRT says they are stronger.
#ifndef TUNER_LOOP_H_
#define TUNER_LOOP_H_

#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "tuner/selfplay.h"
#include "tuner/tuning.pb.h"

namespace chess {

// Its matches (self-play, SPRT, against the start) are played in process or
// as `venue` says.
absl::StatusOr<LoopReport> RunLoop(const LoopConfig& config,
                                   const std::string& config_dir,
                                   const std::string& output_dir,
                                   std::ostream& log, const Venue& venue = {});

std::string FormatLoopReport(const LoopReport& report);

}  // namespace chess

#endif  // TUNER_LOOP_H_
