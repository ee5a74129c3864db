// Loading a match: its config parsed and validated, engine configs resolved,
// the book read and the schedule made. Knows nothing of playing or logs.
#ifndef ARENA_MATCH_SETUP_H_
#define ARENA_MATCH_SETUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arena/match_config.pb.h"
#include "arena/openings.h"
#include "arena/schedule.h"

namespace chess {

struct LoadedMatch {
  MatchConfig
      config;  // config files resolved to inline configs, overrides merged
  std::vector<Opening> openings;
  std::vector<ScheduledGame> schedule;
  uint64_t book_fingerprint = 0;  // of `openings`: a match's identity
  std::string source;             // the config's file name, for messages
};

// Checks everything in a match config that does not need files; the error
// starts with the offending field's path.
absl::Status ValidateMatchShape(const MatchConfig& config);

// Makes a player ready to play: its config file read, its overrides merged
// and the result validated (in process), or its program's path made absolute
// (external); relative paths are relative to `base_dir`. Errors name the
// field, `at` first ("players[1].config_file: ...").
absl::Status ResolvePlayer(PlayerConfig* player, const std::string& base_dir,
                           absl::string_view at);

// Parses, validates and resolves a match config. Errors carry file:line:column.
absl::StatusOr<LoadedMatch> LoadMatch(const std::string& path);
absl::StatusOr<LoadedMatch> ParseMatch(absl::string_view text,
                                       absl::string_view source_name,
                                       const std::string& base_dir);

}  // namespace chess

#endif  // ARENA_MATCH_SETUP_H_
