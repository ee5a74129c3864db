#include "engine/winnable.h"

#include "engine/bitboard.h"

namespace chess {
namespace {

constexpr int kMinorUnits = 3;
constexpr int kRookUnits = 5;
constexpr int kQueenUnits = 9;

// Non-pawn material in the usual 3-3-5-9 units: the rules below are about
// which pieces are on the board, not about tuned values.
int PieceUnits(const Position& pos, Color c) {
  return kMinorUnits *
             PopCount(pos.pieces(c, kKnight) | pos.pieces(c, kBishop)) +
         kRookUnits * PopCount(pos.pieces(c, kRook)) +
         kQueenUnits * PopCount(pos.pieces(c, kQueen));
}

}  // namespace

int WinnableShare(const Position& pos, Color strong) {
  if (pos.pieces(strong, kPawn)) return kFullWinnable;
  const int ours = PieceUnits(pos, strong);
  const int theirs = PieceUnits(pos, ~strong);
  if (theirs == 0 && !pos.pieces(~strong, kPawn) &&
      pos.pieces(strong) ==
          (pos.pieces(strong, kKnight) | pos.pieces(strong, kKing)) &&
      PopCount(pos.pieces(strong, kKnight)) == 2) {
    return 0;
  }
  if (ours - theirs > kMinorUnits) return kFullWinnable;
  if (ours < kRookUnits) return 0;
  return theirs <= kMinorUnits ? 4 : 14;
}

int ScaleByWinnable(const Position& pos, int score) {
  if (score == 0) return 0;
  const Color strong = score > 0 ? pos.side_to_move() : ~pos.side_to_move();
  return score * WinnableShare(pos, strong) / kFullWinnable;
}

}  // namespace chess
