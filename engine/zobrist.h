// Zobrist hashing keys, generated at compile time from a fixed seed.
#ifndef ENGINE_ZOBRIST_H_
#define ENGINE_ZOBRIST_H_

#include "engine/types.h"

namespace chess {

struct ZobristKeys {
  Key piece_square[16][64];  // indexed by Piece; colour * 8 + type
  Key castling[16];          // one per set of rights
  Key en_passant_file[8];
  Key black_to_move;
};

namespace internal {
constexpr ZobristKeys MakeZobristKeys() {
  ZobristKeys keys{};
  uint64_t state = 0x2545F4914F6CDD1DULL;
  auto next = [&state]() {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& piece : keys.piece_square)
    for (Key& k : piece) k = next();
  for (Key& k : keys.castling) k = next();
  for (Key& k : keys.en_passant_file) k = next();
  keys.black_to_move = next();
  return keys;
}
}  // namespace internal

inline constexpr ZobristKeys kZobrist = internal::MakeZobristKeys();

}  // namespace chess

#endif  // ENGINE_ZOBRIST_H_
