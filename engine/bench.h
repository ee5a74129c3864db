// "bench": a fixed search over fixed positions whose total node count is a
// signature of the search's behaviour, plus the minimax / alpha-beta /
// full-search comparison table.
#ifndef ENGINE_BENCH_H_
#define ENGINE_BENCH_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "engine/engine_config.pb.h"

namespace chess {

const std::vector<std::string>& BenchPositions();

struct BenchResult {
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  uint64_t nps() const {
    return time_ms ? nodes * 1000 / time_ms : nodes * 1000;
  }
};

// Searches every bench position to `depth` with a fresh game each; logs a line
// per position to `log` when given.
BenchResult RunBench(const EngineConfig& config, int depth, std::ostream* log);

// Prints nodes and time by depth from the start position for plain minimax,
// plain alpha-beta (both without quiescence or any other technique, so their
// scores must agree) and the full search of `config`.
void RunAlgorithmComparison(const EngineConfig& config, int max_depth,
                            std::ostream& out);

}  // namespace chess

#endif  // ENGINE_BENCH_H_
