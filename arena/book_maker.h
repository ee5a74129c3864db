// `arena book`: a balanced opening book from our own engine. Random plausible
// plies from the initial position, kept only when a check search finds the
// result close to equal; duplicates (by Zobrist key) dropped.
#ifndef ARENA_BOOK_MAKER_H_
#define ARENA_BOOK_MAKER_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/engine_config.pb.h"

namespace chess {

struct BookOptions {
  int positions = 600;
  int plies = 8;
  int margin_cp = 60;
  int check_depth = 7;
  int candidate_margin_cp = 40;  // 0: any legal move
  uint64_t seed = 1;
};

// FENs, deterministic for given options and config.
absl::StatusOr<std::vector<std::string>> MakeBook(const EngineConfig& config,
                                                  const BookOptions& options,
                                                  std::ostream* log);

}  // namespace chess

#endif  // ARENA_BOOK_MAKER_H_
