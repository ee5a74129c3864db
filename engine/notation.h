// Move notation: UCI long algebraic ("e2e4", "e7e8q") and SAN ("Nbd7",
// "exd8=Q+", "O-O").
#ifndef ENGINE_NOTATION_H_
#define ENGINE_NOTATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/movegen.h"
#include "engine/position.h"

namespace chess {

std::string ToUci(Move m);
// The legal move of `pos` written `text` in UCI notation, or an error saying
// why not.
absl::StatusOr<Move> ParseUci(const Position& pos, absl::string_view text);

// `m` must be legal in `pos`.
std::string ToSan(const Position& pos, Move m);
// Accepts standard SAN plus common variants: "0-0", missing or extra "+"/"#",
// annotation marks ("!", "?"), promotion without "=", and the "e.p." suffix.
absl::StatusOr<Move> ParseSan(const Position& pos, absl::string_view text);

}  // namespace chess

#endif  // ENGINE_NOTATION_H_
