// Training positions in 32 bytes each, the form our training sets store them
// in (record chunks keep them checksummed): about half the size of a FEN in a
// message, and no parsing of text to read one back.
//
// Layout, little-endian: bytes 0-7 the occupied squares (bit i = square i,
// a1 = 0); 8-23 a 4-bit code per occupied square in square order, low nibble
// first (1-6 White's pawn to king, 9-14 Black's); 24-25 the score from
// White's side (-32768: none); 26 the result (0 Black won, 1 draw, 2 White
// won); 27 bit 0 Black to move, bits 1-4 castling K Q k q; 28 the en passant
// file + 1 (0: none); 29 the half-move clock; 30-31 the move number.
#ifndef TUNER_PACKED_POSITION_H_
#define TUNER_PACKED_POSITION_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tuner/tuning.pb.h"

namespace chess {

inline constexpr int kPackedPositionBytes = 32;

// The 32 bytes of a position, or nullopt for one this form cannot hold
// exactly (a FEN that is not in the canonical form the unpacking writes back,
// Chess960 castling, a result other than 0, 1/2, 1, a score beyond 16 bits,
// player_sign): such positions stay messages.
std::optional<std::string> PackPosition(const TrainingPosition& position);

// The board field of a FEN from a 4-bit code per square (a1 first): 0 empty,
// 1-6 White's pawn to king, 9-14 Black's (the packed form's codes).
std::string FenBoardField(const int codes[64]);

// The position of 32 bytes; an error for bytes no packing writes.
absl::StatusOr<TrainingPosition> UnpackPosition(absl::string_view bytes);

}  // namespace chess

#endif  // TUNER_PACKED_POSITION_H_
