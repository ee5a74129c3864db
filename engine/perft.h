// Perft: counts the leaf nodes of the legal move tree, for proving move
// generation exact.
#ifndef ENGINE_PERFT_H_
#define ENGINE_PERFT_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"

namespace chess {

// Leaves at `depth`, counted in bulk at the last ply.
uint64_t Perft(const Position& pos, int depth);

// The count below each legal root move, in generation order. With `stop`:
// once it reads true, the counting ends early, the counts then partial.
std::vector<std::pair<Move, uint64_t>> PerftDivide(
    const Position& pos, int depth, const std::atomic<bool>* stop = nullptr);

// One line of a perft suite in the usual EPD form: "FEN ;D1 20 ;D2 400 ...".
struct PerftCase {
  std::string fen;
  std::vector<std::pair<int, uint64_t>> expected;  // (depth, nodes)
};
absl::StatusOr<PerftCase> ParsePerftLine(absl::string_view line,
                                         bool chess960 = false);

}  // namespace chess

#endif  // ENGINE_PERFT_H_
