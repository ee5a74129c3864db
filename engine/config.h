// Loading and validating engine configs (text-format EngineConfig).
#ifndef ENGINE_CONFIG_H_
#define ENGINE_CONFIG_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/files.h"  // ReadFile, WriteFileAtomically
#include "engine/engine_config.pb.h"
#include "google/protobuf/message.h"

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

// Parses any text-format message, then calls `validate` (if given). Errors read
// "<source_name>:<line>:<column>: ..."; for a validation error, the location is
// that of the field path the message starts with ("players.name is empty"
// points at "players").
absl::Status ParseTextProto(absl::string_view text,
                            absl::string_view source_name,
                            google::protobuf::Message* message,
                            const std::function<absl::Status()>& validate);

// A path named in a config file: relative paths are relative to the config's
// directory.
std::string ResolvePath(const std::string& base_dir, const std::string& path);

// A path given on the command line: relative to where the user ran the command,
// also under `bazel run` (which changes into the runfiles and says where the
// user was).
std::string CommandLinePath(const std::string& path);

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
