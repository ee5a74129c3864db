// Loading and validating engine configs (text-format EngineConfig).
#ifndef ENGINE_CONFIG_H_
#define ENGINE_CONFIG_H_

#include <string>

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

// Reads a whole file; the error names the path.
absl::StatusOr<std::string> ReadFile(const std::string& path);

}  // namespace chess

#endif  // ENGINE_CONFIG_H_
