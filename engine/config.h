// Loading and validating engine configs (text-format EngineConfig).
#ifndef ENGINE_CONFIG_H_
#define ENGINE_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine_config.pb.h"

namespace chess {

// Parses and validates a text-format EngineConfig. Errors read
// "<source_name>:<line>:<column>: <what is wrong>" and name the offending
// field.
absl::StatusOr<EngineConfig> ParseEngineConfig(absl::string_view text,
                                               absl::string_view source_name);
absl::StatusOr<EngineConfig> LoadEngineConfig(const std::string& path);

// Checks sizes and ranges of an already-built config; the error names the field
// path.
absl::Status ValidateEngineConfig(const EngineConfig& config);

// configs/engines/default.textproto, compiled into the binary.
const EngineConfig& DefaultEngineConfig();

// The range a numeric SearchParams field must lie in (ValidateEngineConfig),
// which UCI advertises too; nullopt for a field without one.
std::optional<std::pair<int64_t, int64_t>> SearchFieldRange(
    absl::string_view field);

// Turns off whatever makes a fixed-depth search differ from minimax
// (quiescence, the table, null move, reductions and pruning, extensions,
// aspiration windows): the score is then minimax's whatever the move order.
// A switch added to SearchParams that can change a score belongs here.
void DisableSelectiveSearch(SearchParams* params);

}  // namespace chess

#endif  // ENGINE_CONFIG_H_
