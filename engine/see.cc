#include "engine/see.h"

#include "engine/bitboard.h"

namespace chess {

bool SeeAtLeast(const Position& pos, Move m, int threshold) {
  const Square from = m.from(), to = m.to();
  const PieceType captured = pos.CapturedType(m);
  // Castling, promotions and en passant: taken as even exchanges.
  if (m.is_castle() || m.is_promotion() ||
      (captured != kNoPieceType && pos.piece_on(to) == kNoPiece)) {
    return threshold <= 0;
  }
  int swap = SeeValue(captured) - threshold;
  if (swap < 0) return false;  // even the capture alone falls short
  swap = kSeeValue[TypeOf(pos.piece_on(from))] - swap;
  if (swap <= 0) return true;  // losing the capturer still meets it

  Bitboard occupied = pos.occupied() ^ SquareBit(from);
  const Bitboard diagonal = pos.pieces(kBishop) | pos.pieces(kQueen);
  const Bitboard straight = pos.pieces(kRook) | pos.pieces(kQueen);
  Bitboard attackers = pos.AttackersTo(to, occupied);
  Color side = pos.side_to_move();
  bool result = true;  // whether the side that moved first meets the threshold
  while (true) {
    side = Color(side ^ 1);
    attackers &= occupied;
    const Bitboard ours = attackers & pos.pieces(side);
    if (!ours) break;
    result = !result;
    PieceType type = kPawn;  // the least valuable attacker recaptures
    while (!(ours & pos.pieces(type))) type = PieceType(type + 1);
    if (type == kKing) {
      // The king may recapture only onto a square the other side gave up.
      return (attackers & pos.pieces(Color(side ^ 1))) ? !result : result;
    }
    swap = kSeeValue[type] - swap;
    if (swap < int(result)) break;
    occupied ^= SquareBit(LowestSquare(ours & pos.pieces(type)));
    // Sliders behind the piece that just took join in.
    if (type == kPawn || type == kBishop || type == kQueen)
      attackers |= BishopAttacks(to, occupied) & diagonal;
    if (type == kRook || type == kQueen)
      attackers |= RookAttacks(to, occupied) & straight;
  }
  return result;
}

}  // namespace chess
