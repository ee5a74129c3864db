// Shared helpers for the engine's unit tests.
#ifndef ENGINE_TEST_UTIL_H_
#define ENGINE_TEST_UTIL_H_

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/movegen.h"
#include "gtest/gtest.h"

namespace chess::testing {

// The position of a FEN the test knows to be valid; a bad one fails the test.
inline Position FromFen(const std::string& fen) {
  absl::StatusOr<Position> pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

// A directory of ../shared (beside the checkout: books, tablebases), found
// through a file of the repository the test has among its data; empty when
// it is absent.
inline std::filesystem::path SharedDirectory(const std::string& name) {
  std::error_code error;
  const std::filesystem::path config =
      std::filesystem::canonical("configs/engines/default.textproto", error);
  if (error) return {};
  const std::filesystem::path dir =
      config.parent_path().parent_path().parent_path().parent_path() /
      "shared" / name;
  return std::filesystem::is_directory(dir, error) ? dir
                                                   : std::filesystem::path();
}

// Positions reached by seeded random play from the start, `count` games of up
// to `max_plies` plies each, every position along the way included.
inline std::vector<Position> RandomPlayPositions(int games, int max_plies,
                                                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> result;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::Start();
    for (int ply = 0; ply < max_plies; ++ply) {
      MoveList moves = LegalMoves(pos);
      if (moves.empty()) break;
      pos.MakeMove(moves[std::uniform_int_distribution<size_t>(
          0, moves.size() - 1)(rng)]);
      result.push_back(pos);
    }
  }
  return result;
}

}  // namespace chess::testing

#endif  // ENGINE_TEST_UTIL_H_
