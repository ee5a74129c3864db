// Positional terms of the evaluation beyond material and piece-square tables:
// mobility, pawn structure, king safety, piece placement and threats. Each is
// a count (White's minus Black's) that the linear model weighs with a middle-
// game and an end-game weight, so the Texel tuner learns them like any other
// weight. Integer arithmetic only: the evaluation is exactly reproducible.
#ifndef ENGINE_EVAL_TERMS_H_
#define ENGINE_EVAL_TERMS_H_

#include <array>

#include "engine/position.h"

namespace chess {

enum EvalTerm {
  // Per square a knight, bishop, rook or queen reaches that holds no piece of
  // its own side and is not attacked by an enemy pawn.
  kMobilityKnight,
  kMobilityBishop,
  kMobilityRook,
  kMobilityQueen,
  // A pawn with no enemy pawn ahead of it on its own or a neighbouring file
  // and none of its own ahead on its file, by its rank counted from its own
  // side (2 to 7).
  kPassedRank2,
  kPassedRank3,
  kPassedRank4,
  kPassedRank5,
  kPassedRank6,
  kPassedRank7,
  kDoubledPawn,   // a pawn with a pawn of its own side ahead on its file
  kIsolatedPawn,  // no pawn of its own side on a neighbouring file
  kBishopPair,
  kRookOpenFile,      // no pawn on the rook's file
  kRookHalfOpenFile,  // only enemy pawns on it
  // Pawns of the king's side on the king's and neighbouring files, one or two
  // ranks in front of it.
  kKingShield,
  // Squares next to the enemy king (or its own) that a piece attacks.
  kKingAttackKnight,
  kKingAttackBishop,
  kKingAttackRook,
  kKingAttackQueen,
  kPawnThreat,     // an enemy knight, bishop, rook or queen a pawn attacks
  kMinorThreat,    // an enemy rook or queen a knight or bishop attacks
  kKnightOutpost,  // on ranks 4-6, defended by a pawn, no enemy pawn can chase
  kNumEvalTerms
};

// "mobility.knight", "passed.rank5", "king_shield", ...
const char* EvalTermName(int term);

// The terms of `pos`, White's count minus Black's.
std::array<int, kNumEvalTerms> CountEvalTerms(const Position& pos);

}  // namespace chess

#endif  // ENGINE_EVAL_TERMS_H_
