#include "engine/movegen.h"

#include <algorithm>

namespace chess {

bool MoveList::Contains(Move m) const {
  return std::find(begin(), end(), m) != end();
}

Move MoveList::Find(Square from, Square to, PieceType promotion) const {
  for (Move m : *this) {
    if (m.from() == from && m.to() == to &&
        (m.is_promotion() ? m.promotion_type() : kNoPieceType) == promotion)
      return m;
  }
  return Move::None();
}

namespace {

// Castling and en passant are rare and have their own traps (squares passed
// through, a rank cleared of two pawns at once): left to the generator.
Move FindByGenerating(const Position& pos, Square from, Square to,
                      PieceType promotion) {
  return LegalMoves(pos).Find(from, to, promotion);
}

// Whether the mover's king stands unattacked once `from` moved to `to`
// (capturing whatever stood there).
bool LeavesKingSafe(const Position& pos, Square from, Square to) {
  const Color us = pos.side_to_move();
  const Square king =
      TypeOf(pos.piece_on(from)) == kKing ? to : pos.king_square(us);
  const Bitboard occupied = (pos.occupied() ^ SquareBB(from)) | SquareBB(to);
  return !(pos.AttackersTo(king, occupied) & pos.pieces(~us) & ~SquareBB(to));
}

// The pawn move's flag, or -1 when a pawn cannot move so.
int PawnMoveFlag(const Position& pos, Square from, Square to,
                 PieceType promotion) {
  const Color us = pos.side_to_move();
  const int forward = us == kWhite ? 8 : -8;
  const bool last_rank = RankOf(to) == (us == kWhite ? 7 : 0);
  if (last_rank != (promotion != kNoPieceType)) return -1;
  const int promotion_bits = last_rank ? promotion - kKnight : 0;
  const Bitboard empty = ~pos.occupied();
  if (PawnAttacks(us, from) & SquareBB(to) & pos.pieces(~us)) {
    return (last_rank ? kPromotionCapture : kCapture) + promotion_bits;
  }
  if (!(empty & SquareBB(to))) return -1;
  if (to == from + forward)
    return last_rank ? kPromotion + promotion_bits : kQuiet;
  const bool home_rank = RankOf(from) == (us == kWhite ? 1 : 6);
  if (home_rank && to == from + 2 * forward &&
      (empty & SquareBB(from + forward)))
    return kDoublePush;
  return -1;
}

}  // namespace

Move FindLegalMove(const Position& pos, Square from, Square to,
                   PieceType promotion) {
  if (from >= 64 || to >= 64 || from == to) return Move::None();
  const Piece piece = pos.piece_on(from);
  const Color us = pos.side_to_move();
  if (piece == kNoPiece || ColorOf(piece) != us) return Move::None();
  if (promotion != kNoPieceType &&
      (promotion < kKnight || promotion > kQueen || TypeOf(piece) != kPawn))
    return Move::None();
  const PieceType type = TypeOf(piece);
  int flag;
  if (type == kPawn) {
    if (to == pos.en_passant_square())
      return FindByGenerating(pos, from, to, promotion);
    flag = PawnMoveFlag(pos, from, to, promotion);
    if (flag < 0) return Move::None();
  } else {
    // Castling: two squares, or in Chess960 onto the own rook.
    if (type == kKing && RankOf(from) == RankOf(to) &&
        (from - to == 2 || to - from == 2 ||
         (pos.chess960() && pos.piece_on(to) == MakePiece(us, kRook))))
      return FindByGenerating(pos, from, to, promotion);
    const Bitboard occupied = pos.occupied();
    const Bitboard reach = type == kKnight   ? KnightAttacks(from)
                           : type == kBishop ? BishopAttacks(from, occupied)
                           : type == kRook   ? RookAttacks(from, occupied)
                           : type == kQueen  ? QueenAttacks(from, occupied)
                                             : KingAttacks(from);
    if (!(reach & SquareBB(to) & ~pos.pieces(us))) return Move::None();
    flag = pos.piece_on(to) == kNoPiece ? kQuiet : kCapture;
  }
  return LeavesKingSafe(pos, from, to) ? Move(from, to, flag) : Move::None();
}

}  // namespace chess
