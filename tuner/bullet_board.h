// bullet's binary training record (jw1912/bulletformat's ChessBoard), the
// form the field's trainers read: 32 bytes per position, the board seen from
// the side to move.
//
// Layout, little-endian: bytes 0-7 the occupied squares; 8-23 a 4-bit code
// per occupied square in square order, low nibble first (bit 3 set for the
// side not to move, bits 0-2 pawn 0 to king 5); 24-25 the score in
// centipawns, 26 the result (0 loss, 1 draw, 2 win), both for the side to
// move; 27 the side to move's king square; 28 the other king's square
// mirrored vertically; 29-31 unused (written 0). When Black is to move the
// board is mirrored vertically and the colours swapped, so that the side to
// move is always "White": a record does not say which colour moved, nor the
// castling rights, en passant square or clocks.
#ifndef TUNER_BULLET_BOARD_H_
#define TUNER_BULLET_BOARD_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tuner/tuning.pb.h"

namespace chess {

inline constexpr int kBulletBoardBytes = 32;

// The record of a position with a score (InvalidArgument without one, or
// with a FEN that is no position, or a score beyond 16 bits).
absl::StatusOr<std::string> PackBulletBoard(const TrainingPosition& position);

// The position of a record, White to move (the side to move's view), no
// castling rights, no en passant, clocks 0 1; score and result from White's
// side as TrainingPosition keeps them. InvalidArgument, saying what is wrong,
// for bytes that are no legal record.
absl::StatusOr<TrainingPosition> UnpackBulletBoard(absl::string_view bytes);

// The position as a bulletformat record sees it: what a round trip through
// one gives back.
absl::StatusOr<TrainingPosition> AsBulletSeesIt(
    const TrainingPosition& position);

}  // namespace chess

#endif  // TUNER_BULLET_BOARD_H_
