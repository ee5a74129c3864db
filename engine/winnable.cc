#include "engine/winnable.h"

#include <algorithm>

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

constexpr int kFullPhase = 24;

// The phase on the usual 1-1-2-4 scale: the rules here are about which pieces
// are on the board, not about tuned values.
int Phase(const Position& pos) {
  const int phase = PopCount(pos.pieces(kKnight) | pos.pieces(kBishop)) +
                    2 * PopCount(pos.pieces(kRook)) +
                    4 * PopCount(pos.pieces(kQueen));
  return std::min(phase, kFullPhase);
}

bool OppositeColouredBishops(const Position& pos) {
  const Bitboard white = pos.pieces(kWhite, kBishop);
  const Bitboard black = pos.pieces(kBlack, kBishop);
  if (PopCount(white) != 1 || PopCount(black) != 1) return false;
  return bool(white & kDarkSquares) != bool(black & kDarkSquares);
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

int EndgameShare(const Position& pos, Color strong) {
  constexpr int kOppositeBishops = 22;
  if (OppositeColouredBishops(pos)) {
    const Bitboard bishops_and_kings = pos.pieces(kBishop) | pos.pieces(kKing);
    if ((pos.occupied() & ~pos.pieces(kPawn)) == bishops_and_kings)
      return kOppositeBishops;
    return std::min(kFullWinnable,
                    kOppositeBishops + 3 * PopCount(pos.pieces(strong)));
  }
  return std::min(kFullWinnable, 36 + 7 * PopCount(pos.pieces(strong, kPawn)));
}

int ScaleByEndgame(const Position& pos, int score) {
  if (score == 0) return 0;
  const Color strong = score > 0 ? pos.side_to_move() : ~pos.side_to_move();
  const int share = EndgameShare(pos, strong);
  if (share == kFullWinnable) return score;
  const int phase = Phase(pos);
  const int tapered =
      (kFullWinnable * phase + share * (kFullPhase - phase)) / kFullPhase;
  return score * tapered / kFullWinnable;
}

}  // namespace chess
