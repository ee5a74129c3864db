#include "tuner/bullet_board.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "engine/position.h"
#include "tuner/packed_position.h"

namespace chess {
namespace {

constexpr int kPiecesAt = 8, kScoreAt = 24, kResultAt = 26, kKingAt = 27,
              kOtherKingAt = 28;
constexpr int kMaxPieces = 32;

void PutLittleEndian(uint64_t value, int bytes, char* out) {
  for (int i = 0; i < bytes; ++i) out[i] = char((value >> (8 * i)) & 0xff);
}

uint64_t GetLittleEndian(const unsigned char* in, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint64_t(in[i]) << (8 * i);
  return value;
}

}  // namespace

absl::StatusOr<std::string> PackBulletBoard(const TrainingPosition& position) {
  if (!position.has_score_cp())
    return absl::InvalidArgumentError("a bulletformat record needs a score");
  if (position.score_cp() < INT16_MIN || position.score_cp() > INT16_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        "score ", position.score_cp(), " does not fit bulletformat's 16 bits"));
  }
  absl::StatusOr<Position> pos = Position::FromFen(position.fen());
  if (!pos.ok()) return pos.status();
  const Color us = pos->side_to_move();
  // The side to move's view: Black's board mirrored vertically.
  const int flip = us == kWhite ? 0 : 56;
  uint8_t codes[64];
  std::memset(codes, 0xff, sizeof(codes));
  for (Bitboard b = pos->occupied(); b;) {
    const Square s = PopLowest(b);
    const Piece p = pos->piece_on(s);
    codes[s ^ flip] = uint8_t((ColorOf(p) == us ? 0 : 8) | TypeOf(p));
  }
  std::string record(kBulletBoardBytes, '\0');
  uint64_t occupied = 0;
  int index = 0;
  for (int s = 0; s < 64; ++s) {
    if (codes[s] == 0xff) continue;
    occupied |= uint64_t(1) << s;
    record[kPiecesAt + index / 2] |= char(codes[s] << (4 * (index % 2)));
    ++index;
  }
  PutLittleEndian(occupied, 8, record.data());
  const int sign = us == kWhite ? 1 : -1;
  PutLittleEndian(uint16_t(int16_t(sign * position.score_cp())), 2,
                  record.data() + kScoreAt);
  const float result = us == kWhite ? position.result() : 1 - position.result();
  record[kResultAt] = char(result == 1 ? 2 : result == 0 ? 0 : 1);
  record[kKingAt] = char(pos->king_square(us) ^ flip);
  record[kOtherKingAt] = char(pos->king_square(Color(us ^ 1)) ^ flip ^ 56);
  return record;
}

absl::StatusOr<TrainingPosition> UnpackBulletBoard(absl::string_view bytes) {
  if (bytes.size() != kBulletBoardBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("a bulletformat record is ", kBulletBoardBytes,
                     " bytes, not ", bytes.size()));
  }
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  const uint64_t occupied = GetLittleEndian(in, 8);
  const int count = std::popcount(occupied);
  if (count > kMaxPieces) {
    return absl::InvalidArgumentError(
        absl::StrCat(count, " occupied squares, more than 32 pieces"));
  }
  uint8_t codes[64];
  std::memset(codes, 0xff, sizeof(codes));
  int index = 0;
  for (uint64_t b = occupied; b; b &= b - 1, ++index) {
    const uint8_t code = (in[kPiecesAt + index / 2] >> (4 * (index % 2))) & 15;
    if ((code & 7) > 5)
      return absl::InvalidArgumentError(
          absl::StrCat("piece code ", int(code), " is no piece"));
    codes[std::countr_zero(b)] = code;
  }
  for (int i = count; i < kMaxPieces; ++i) {
    if ((in[kPiecesAt + i / 2] >> (4 * (i % 2))) & 15) {
      return absl::InvalidArgumentError(
          "piece codes beyond the occupied squares' are not 0");
    }
  }
  const int result = in[kResultAt];
  if (result > 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("result ", result, " is not 0, 1 or 2"));
  }
  const int king = in[kKingAt], other_king = in[kOtherKingAt];
  if (king > 63 || codes[king] != 5 || other_king > 63 ||
      codes[other_king ^ 56] != 13) {
    return absl::InvalidArgumentError(
        "the king squares are not where the kings stand");
  }
  // The packed form's codes: 1-6 White's (the side to move's), 9-14 Black's.
  int board[64];
  for (int sq = 0; sq < 64; ++sq)
    board[sq] =
        codes[sq] == 0xff ? 0 : (codes[sq] & 8 ? 9 : 1) + (codes[sq] & 7);
  absl::StatusOr<Position> pos =
      Position::FromFen(FenBoardField(board) + " w - - 0 1");
  if (!pos.ok()) return pos.status();
  TrainingPosition position;
  position.set_fen(pos->ToFen());
  position.set_score_cp(int16_t(GetLittleEndian(in + kScoreAt, 2)));
  position.set_result(float(result) / 2);
  return position;
}

absl::StatusOr<TrainingPosition> AsBulletSeesIt(
    const TrainingPosition& position) {
  absl::StatusOr<std::string> record = PackBulletBoard(position);
  if (!record.ok()) return record.status();
  return UnpackBulletBoard(*record);
}

}  // namespace chess
