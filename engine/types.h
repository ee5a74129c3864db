// Basic chess types: colours, pieces, squares (a1 = 0 … h8 = 63) and a 16-bit
// move.
#ifndef ENGINE_TYPES_H_
#define ENGINE_TYPES_H_

#include <cstdint>

namespace chess {

using Bitboard = uint64_t;
using Key = uint64_t;

enum Color : uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t {
  kPawn = 0,
  kKnight,
  kBishop,
  kRook,
  kQueen,
  kKing,
  kNoPieceType
};

// A piece is colour * 8 + type, so that colour and type are a shift and a mask
// away.
enum Piece : uint8_t { kNoPiece = 15 };
constexpr Piece MakePiece(Color c, PieceType t) { return Piece(c * 8 + t); }
constexpr Color ColorOf(Piece p) { return Color(p >> 3); }
constexpr PieceType TypeOf(Piece p) { return PieceType(p & 7); }

using Square = int;
constexpr Square kNoSquare = 64;
constexpr int FileOf(Square s) { return s & 7; }
constexpr int RankOf(Square s) { return s >> 3; }
constexpr Square MakeSquare(int file, int rank) { return rank * 8 + file; }
// The same square seen from the other side of the board (a1 <-> a8).
constexpr Square Flip(Square s) { return s ^ 56; }
constexpr Bitboard SquareBB(Square s) { return Bitboard{1} << s; }

enum Squares : int {
  kA1 = 0,
  kB1,
  kC1,
  kD1,
  kE1,
  kF1,
  kG1,
  kH1,
  kA8 = 56,
  kB8,
  kC8,
  kD8,
  kE8,
  kF8,
  kG8,
  kH8,
};

enum CastlingRight : uint8_t {
  kWhiteKingSide = 1,
  kWhiteQueenSide = 2,
  kBlackKingSide = 4,
  kBlackQueenSide = 8,
  kAllCastling = 15,
};

// Move flags follow the Chess Programming Wiki encoding: bit 2 = capture, bit 3
// = promotion.
enum MoveFlag : uint8_t {
  kQuiet = 0,
  kDoublePush = 1,
  kKingCastle = 2,
  kQueenCastle = 3,
  kCapture = 4,
  kEnPassant = 5,
  kPromotion = 8,          // + 0..3 for knight, bishop, rook, queen
  kPromotionCapture = 12,  // + 0..3 likewise
};

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, int flag = kQuiet)
      : bits_(uint16_t(from | (to << 6) | (flag << 12))) {}
  static constexpr Move FromBits(uint16_t bits) {
    Move m;
    m.bits_ = bits;
    return m;
  }
  static constexpr Move None() { return Move(); }

  constexpr Square from() const { return bits_ & 63; }
  constexpr Square to() const { return (bits_ >> 6) & 63; }
  constexpr int flag() const { return bits_ >> 12; }
  constexpr bool is_capture() const { return flag() & kCapture; }
  constexpr bool is_promotion() const { return flag() & kPromotion; }
  constexpr bool is_castle() const {
    return flag() == kKingCastle || flag() == kQueenCastle;
  }
  constexpr PieceType promotion_type() const {
    return PieceType(kKnight + (flag() & 3));
  }
  constexpr uint16_t bits() const { return bits_; }
  constexpr bool is_none() const { return bits_ == 0; }
  constexpr bool operator==(const Move& o) const { return bits_ == o.bits_; }
  constexpr bool operator!=(const Move& o) const { return bits_ != o.bits_; }

 private:
  uint16_t bits_ = 0;
};

}  // namespace chess

#endif  // ENGINE_TYPES_H_
