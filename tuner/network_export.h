// A config's network to bullet's quantised file and back
// (engine/network_file.h), with what the exported file evaluates differently
// measured on positions of seeded random games.
#ifndef TUNER_NETWORK_EXPORT_H_
#define TUNER_NETWORK_EXPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"
#include "engine/network_file.h"
#include "engine/position.h"

namespace chess {

// `count` positions from seeded random games (plies 8 to 120 of each).
std::vector<Position> RandomGamePositions(int count, uint64_t seed);

struct ExportedNetwork {
  BulletExport file;
  // |file's evaluation - config's| over the checked positions, centipawns.
  int positions = 0;
  int max_difference_cp = 0;
  double mean_difference_cp = 0;
  std::vector<std::string> provenance;  // the network's, then the export's
};

// The file of `config`'s network (PERSPECTIVE, the whole evaluation) in
// quantisation `q`, checked against the config on `check` positions.
absl::StatusOr<ExportedNetwork> ExportBulletNetwork(
    const EngineConfig& config, const Quantisation& q,
    const std::vector<Position>& check);

// `start` with its evaluation replaced by the network of the file at
// `path` (read in quantisation `q`, with `shape`'s buckets), its provenance
// naming the file.
absl::StatusOr<EngineConfig> ImportBulletNetwork(const std::string& path,
                                                 const Quantisation& q,
                                                 const NetworkShape& shape,
                                                 const EngineConfig& start);

}  // namespace chess

#endif  // TUNER_NETWORK_EXPORT_H_
