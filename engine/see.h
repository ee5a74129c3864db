// Static exchange evaluation: the material a capture wins or loses once every
// piece that attacks its square has recaptured, least valuable first, each
// side free to stop. Orders captures and prunes losing ones.
#ifndef ENGINE_SEE_H_
#define ENGINE_SEE_H_

#include "engine/position.h"

namespace chess {

// The classical piece values the exchanges count, by PieceType.
inline constexpr int kSeeValue[6] = {100, 300, 300, 500, 900, 20000};
// A captured piece's value; 0 for kNoPieceType (nothing captured).
inline int SeeValue(PieceType type) {
  return type == kNoPieceType ? 0 : kSeeValue[type];
}

// Whether `m` wins at least `threshold` centipawns of exchanged material (by
// the classical values 100/300/300/500/900). Pins and checks are ignored.
bool SeeAtLeast(const Position& pos, Move m, int threshold);

}  // namespace chess

#endif  // ENGINE_SEE_H_
