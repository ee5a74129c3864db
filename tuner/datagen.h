// `tuner datagen`: training data an engine makes from its own games. A player
// plays itself from random openings at a soft node limit; each position keeps
// the player's own search score and its game's result, so that no other
// engine's judgement enters the data. The games are an arena match, played in
// process or sharded on Slurm and resumed after a kill like any match; the
// positions are then filtered, deduplicated and written as a training set
// whose sources say where they came from.
#ifndef TUNER_DATAGEN_H_
#define TUNER_DATAGEN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "arena/match_log.pb.h"
#include "tuner/selfplay.h"
#include "tuner/training_data.h"
#include "tuner/tuning.pb.h"

namespace chess {

struct DatagenReport {
  std::string data_path;                   // the training set written
  int64_t games = 0;                       // in the match log
  int64_t new_games = 0;                   // of them, played by this run
  int64_t positions = 0;                   // kept
  std::map<std::string, int64_t> dropped;  // positions not kept, by why
  // This run's cost, over its new games: wall seconds of the match, the
  // cores it used, positions kept per hour of one core, and the share of the
  // cores' time spent inside the player's searches (the rest is the harness).
  double seconds = 0;
  int cores = 0;
  // Damaged records of the log left out (--played_only --drop_damaged).
  int64_t damaged_records = 0;
  double positions_per_core_hour = 0;
  double search_share = 0;
  // Wall seconds, after the games, to read the whole log, filter its
  // positions and write the set (one core).
  double write_seconds = 0;
};

// How a datagen run plays and writes.
struct DatagenOptions {
  Venue venue;  // none: the games in this process
  // No game is played: the set holds the games a run stopped early had
  // finished.
  bool played_only = false;
  // A log with damaged records is not refused: a run rewrites it without
  // them (the old one kept as games.log.damaged, as the arena's
  // --drop_damaged) and plays those games again; with `played_only`, the set
  // holds the intact games and the damaged ones are counted in the report.
  bool drop_damaged = false;
  // The training set's format; none: by its extension (training_data.h).
  std::optional<DatasetFormat> format;
};

// Plays (or resumes) the games in OUTPUT_DIR/games and writes the training set
// to `data_path`. Paths in the config are relative to `config_dir`.
absl::StatusOr<DatagenReport> RunDatagen(const DatagenConfig& config,
                                         const std::string& config_dir,
                                         const std::string& output_dir,
                                         const std::string& data_path,
                                         const DatagenOptions& options = {});

std::string FormatDatagenReport(const DatagenReport& report);

// The positions of one self-play game that pass `filters`, each labelled with
// its mover's recorded score and the game's result (White's side); `seen`
// holds the keys of positions kept before, for deduplication. Drops are
// counted in `out`.
absl::Status AddSelfPlayPositions(const GameRecord& game,
                                  const DatagenFilters& filters,
                                  absl::flat_hash_set<uint64_t>* seen,
                                  TrainingSink* out, int64_t* kept);

}  // namespace chess

#endif  // TUNER_DATAGEN_H_
