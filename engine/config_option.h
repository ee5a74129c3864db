// Engine config fields named as UCI options: what `setoption`, the tuner's
// SPSA parameters and the fastchess command line's option.X= set.
#ifndef ENGINE_CONFIG_OPTION_H_
#define ENGINE_CONFIG_OPTION_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine_config.pb.h"

namespace chess {

// Lower case, surrounding spaces dropped, inner spaces as underscores: "Null
// Move" and "null_move" name the same option.
std::string NormalizeOptionName(absl::string_view name);

// Whether a field is offered under Stockfish's spelling instead of its own
// name ("Hash" for hash_mb, "MultiPV", "Threads", "Skill Level",
// "UCI_LimitStrength", "UCI_Elo", "SyzygyPath" and the other Syzygy options).
bool HasUciSpelling(absl::string_view field);

// Sets a field of `config` named as a UCI option: Stockfish's spelling (see
// HasUciSpelling), a SearchParams, EvalParams or TablebaseParams field name
// ("null_move", "hash_mb", "tempo_mg"), or an evaluation weight
// ("value.knight.mg", "pst.knight.e4.eg"). Names are
// case-insensitive; spaces count as underscores. NotFound: no such option;
// InvalidArgument: a value the field cannot hold. Ranges are checked later, by
// ValidateEngineConfig.
absl::Status SetConfigOption(absl::string_view name, absl::string_view value,
                             EngineConfig* config);

// The current value of a numeric option named as for SetConfigOption (bools are
// 0/1).
absl::StatusOr<double> GetNumericConfigOption(absl::string_view name,
                                              const EngineConfig& config);

}  // namespace chess

#endif  // ENGINE_CONFIG_OPTION_H_
