// Bitboard helpers and precomputed attack tables (magic bitboards for sliders).
#ifndef ENGINE_BITBOARD_H_
#define ENGINE_BITBOARD_H_

#include <bit>

#include "engine/types.h"

namespace chess {

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank2 = kRank1 << 8;
constexpr Bitboard kRank3 = kRank1 << 16;
constexpr Bitboard kRank6 = kRank1 << 40;
constexpr Bitboard kRank7 = kRank1 << 48;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard SquareBit(Square s) { return Bitboard(1) << s; }

inline int PopCount(Bitboard b) { return std::popcount(b); }
inline Square LowestSquare(Bitboard b) { return std::countr_zero(b); }
inline Square HighestSquare(Bitboard b) { return 63 - std::countl_zero(b); }
// The squares numbered above / below `s` (on its rank: the files beyond it
// towards h / a, with ranks above / below).
inline constexpr Bitboard SquaresAbove(Square s) {
  return ~((SquareBB(s) << 1) - 1);
}
inline constexpr Bitboard SquaresBelow(Square s) { return SquareBB(s) - 1; }
inline constexpr Bitboard RankBB(int rank) {
  return Bitboard{0xFF} << (8 * rank);
}
inline Square PopLowest(Bitboard& b) {
  Square s = std::countr_zero(b);
  b &= b - 1;
  return s;
}
inline bool MoreThanOne(Bitboard b) { return b & (b - 1); }

// Shifts towards the north (+8) are "up" for White.
template <int kDelta>
constexpr Bitboard Shift(Bitboard b) {
  if constexpr (kDelta == 8) return b << 8;
  if constexpr (kDelta == -8) return b >> 8;
  if constexpr (kDelta == 7) return (b & ~kFileA) << 7;
  if constexpr (kDelta == 9) return (b & ~kFileH) << 9;
  if constexpr (kDelta == -7) return (b & ~kFileH) >> 7;
  if constexpr (kDelta == -9) return (b & ~kFileA) >> 9;
  if constexpr (kDelta == 1) return (b & ~kFileH) << 1;
  if constexpr (kDelta == -1) return (b & ~kFileA) >> 1;
  if constexpr (kDelta == 16) return b << 16;
  if constexpr (kDelta == -16) return b >> 16;
}
// Every square the pawns `pawns` of colour `c` attack.
constexpr Bitboard PawnAttacksOf(Color c, Bitboard pawns) {
  return c == kWhite ? Shift<7>(pawns) | Shift<9>(pawns)
                     : Shift<-7>(pawns) | Shift<-9>(pawns);
}

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  int shift;
  unsigned Index(Bitboard occupied) const {
    return unsigned(((occupied & mask) * magic) >> shift);
  }
};

// All constant tables, built once at start-up.
struct AttackTables {
  AttackTables();  // Builds every table; only kAttacks is ever constructed.
  Bitboard pawn[2][64];
  Bitboard knight[64];
  Bitboard king[64];
  Magic rook_magic[64];
  Magic bishop_magic[64];
  // Squares strictly between two aligned squares (0 if not aligned).
  Bitboard between[64][64];
  // The whole line through two aligned squares (0 if not aligned).
  Bitboard line[64][64];
  Bitboard rook_table[0x19000];
  Bitboard bishop_table[0x1480];
};

extern const AttackTables kAttacks;

inline Bitboard PawnAttacks(Color c, Square s) { return kAttacks.pawn[c][s]; }
inline Bitboard KnightAttacks(Square s) { return kAttacks.knight[s]; }
inline Bitboard KingAttacks(Square s) { return kAttacks.king[s]; }
inline Bitboard RookAttacks(Square s, Bitboard occupied) {
  const Magic& m = kAttacks.rook_magic[s];
  return m.attacks[m.Index(occupied)];
}
inline Bitboard BishopAttacks(Square s, Bitboard occupied) {
  const Magic& m = kAttacks.bishop_magic[s];
  return m.attacks[m.Index(occupied)];
}
inline Bitboard QueenAttacks(Square s, Bitboard occupied) {
  return RookAttacks(s, occupied) | BishopAttacks(s, occupied);
}
inline Bitboard Between(Square a, Square b) { return kAttacks.between[a][b]; }
inline Bitboard Line(Square a, Square b) { return kAttacks.line[a][b]; }
Bitboard AttacksOf(PieceType type, Square s, Bitboard occupied);

}  // namespace chess

#endif  // ENGINE_BITBOARD_H_
