// Training positions from arena match logs: sampled, resolved to quiet
// positions by following the quiescence search's principal variation, and
// labelled with the game's result. (How sets are stored: training_data.h.)
#ifndef TUNER_EXTRACT_H_
#define TUNER_EXTRACT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena/match_log.pb.h"
#include "engine/engine_config.pb.h"
#include "tuner/training_data.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct ExtractOptions {
  int skip_plies = 0;    // after the book plies, which are always skipped
  int max_per_game = 0;  // 0: every position
  uint64_t seed = 1;     // for sampling when max_per_game > 0
  EngineConfig qsearch_config;  // whose quiescence search resolves positions
  // When set, each position records which colour this player had
  // (TrainingPosition.player_sign), and games it did not play are dropped.
  std::string player;
};

// Whether a game's result says something about its positions: finished, and
// not by a crash, a time forfeit or an illegal move.
bool ResultIsMeaningful(const GameRecord& game);
// 1 White won, 0.5 draw, 0 Black won (TrainingPosition.result).
float WhiteResult(GameRecord::Result result);

// Adds the positions of every finished game of the log to `out`, and counts
// what was dropped and why.
absl::Status ExtractFromLog(const std::string& log_path,
                            const ExtractOptions& options, TrainingSink* out);

}  // namespace chess

#endif  // TUNER_EXTRACT_H_
