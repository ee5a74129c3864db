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
  // A pawn whose neighbouring files hold no pawn of its own side level with or
  // behind it, and whose square ahead an enemy pawn attacks.
  kBackwardPawn,
  kSupportedPawn,  // defended by a pawn of its own side
  kPhalanxPawn,    // a pawn of its own side beside it on its rank
  // Passed pawns again, each weighted by how far it has come (relative rank r
  // from 1 to 6 weighs r (r - 1) / 2): with nothing in front of it up to the
  // last rank; the distance (capped at 5) of the enemy king, and of its own,
  // to the square in front of it.
  kPassedFreePath,
  kPassedTheirKingDistance,
  kPassedOurKingDistance,
  // (2 per knight or bishop, 3 per rook, 5 per queen that attacks the enemy
  // king or a square next to it)^2 / 4, counted only with two such pieces or
  // more: attacks on a king hurt more than their sum.
  kKingDanger,
  // Files at or next to the enemy king without a pawn of the enemy's side.
  kKingOpenFile,
  // Pawns one to three ranks in front of the enemy king, on its file or next.
  kKingStorm,
  // Squares from which a knight, bishop, rook or queen checks the enemy king,
  // that a piece of that type attacks, holding no piece of its own side and
  // attacked by no enemy piece.
  kSafeCheckKnight,
  kSafeCheckBishop,
  kSafeCheckRook,
  kSafeCheckQueen,
  // Enemy knights, bishops, rooks and queens attacked and not defended.
  kHangingPiece,
  // How many squares short of 3 (knight, bishop, rook) or 4 (queen) a piece's
  // mobility falls: a piece with almost no squares is worth far less than the
  // linear mobility term says.
  kLowMobilityKnight,
  kLowMobilityBishop,
  kLowMobilityRook,
  kLowMobilityQueen,
  kMinorBehindPawn,   // a knight or bishop with a pawn of its side in front
  kBishopPawns,       // per bishop: its side's pawns on squares of its colour
  kRookOnSeventh,     // a rook on the rank before the last, from its side
  kThreatByKing,      // enemy pieces or pawns the king attacks, undefended
  kThreatByRook,      // an enemy queen a rook attacks
  kThreatByPawnPush,  // enemy pieces a safe one-square pawn push would attack
  // No pawn of either side on the flank (three or four files) of the enemy
  // king: a king without cover, scored for the attacking side.
  kKingPawnlessFlank,
  // Squares next to the enemy king that we attack and that the enemy defends
  // with nothing but its king or queen.
  kKingWeakSquares,
  // Safe central squares (files c to f, our ranks 2 to 4, not attacked by an
  // enemy pawn, no pawn of ours) times our knights, bishops, rooks and
  // queens, over 4: room to manoeuvre matters while there are pieces.
  kSpace,
  // A passed pawn whose square in front an enemy piece holds (weighted as the
  // passed terms above, r (r - 1) / 2).
  kPassedBlocked,
  // With our queen on the board and a piece attacking the enemy king's zone:
  // (the king-danger units above + 3 per safe checking square + 2 per weak
  // square next to the king)^2 / 8. Checks and weak squares make an attack.
  kKingDangerWithChecks,
  kKingShieldFar,  // the shield's pawns two ranks in front of the king
  // Storming pawns (as kKingStorm) with an enemy pawn right in front of them.
  kKingStormBlocked,
  // Enemy knights and bishops that no enemy pawn defends, attacked by our
  // knights or bishops, or by our rooks.
  kThreatMinorOnMinor,
  kThreatRookOnMinor,
  // Enemy pawns that no enemy pawn defends, attacked by our knights, bishops
  // or rooks.
  kThreatOnWeakPawn,
  kBishopOutpost,  // on ranks 4-6, defended by a pawn, no enemy pawn can chase
  // An isolated or backward pawn with no enemy pawn ahead on its file: open
  // to attack along it.
  kWeakUnopposedPawn,
  // The distance from the king to the nearest pawn of its own side (none
  // counted without pawns): in endings the king must stay close to them.
  kKingPawnDistance,
  // A bishop whose diagonals, through pawns only, reach two of the four
  // centre squares.
  kBishopLongDiagonal,
  kRookOnQueenFile,  // a rook on the file of an enemy queen
  // The distance of each knight and bishop from its own king.
  kMinorKingDistance,
  kPassedRookBehind,  // a passed pawn with a rook of its side behind it
  // A passed pawn that a pawn of its side defends or stands beside (weighted
  // as the passed terms above, r (r - 1) / 2).
  kPassedConnected,
  // A knight that reaches an empty outpost square (as kKnightOutpost).
  kKnightReachableOutpost,
  // White's pawns minus Black's when each side has one bishop, on squares of
  // opposite colours, and nothing else: such endings are drawish, so the
  // extra pawns weigh less than they do elsewhere. Counted once, not per side.
  kOppositeBishopsPawns,
  // The same with one rook each and nothing else.
  kRookEndingPawns,
  // A queen on the enemy's half where no enemy pawn can ever attack it.
  kQueenInfiltration,
  // A rook with three squares or fewer to go to, shut in beside its king on
  // the first rank (between the king and the board's edge).
  kRookTrapped,
  // A passed pawn the enemy king cannot catch (outside its square) when the
  // enemy has nothing but pawns.
  kPassedUnstoppable,
  kNumEvalTerms
};

// "mobility.knight", "passed.rank5", "king_shield", ...
const char* EvalTermName(int term);

// The terms of `pos`, White's count minus Black's.
std::array<int, kNumEvalTerms> CountEvalTerms(const Position& pos);

// The terms that depend on the pawns of both sides alone, in the order of the
// counts AnalysePawns fills.
constexpr EvalTerm kPawnTerms[] = {
    kPassedRank2,  kPassedRank3,   kPassedRank4, kPassedRank5,
    kPassedRank6,  kPassedRank7,   kDoubledPawn, kIsolatedPawn,
    kBackwardPawn, kSupportedPawn, kPhalanxPawn, kWeakUnopposedPawn};
constexpr int kNumPawnTerms = sizeof(kPawnTerms) / sizeof(kPawnTerms[0]);
using PawnTermCounts = std::array<int, kNumPawnTerms>;
// Where a term of kPawnTerms stands in it; -1 for any other term.
constexpr int PawnTermIndex(EvalTerm term) {
  for (int i = 0; i < kNumPawnTerms; ++i)
    if (kPawnTerms[i] == term) return i;
  return -1;
}

// What the pawns alone decide that the other terms need, so that a cache by
// pawn structure can keep it (engine/pawn_cache.h): each side's passed pawns,
// outpost squares and number of safe central squares.
struct PawnStructure {
  Bitboard passed[2] = {};
  Bitboard outposts[2] = {};
  int space[2] = {};
};
// The structure of these pawns, and the kPawnTerms counts (White's minus
// Black's) in `counts`.
PawnStructure AnalysePawns(Bitboard white_pawns, Bitboard black_pawns,
                           PawnTermCounts& counts);

// The terms of `pos` but kPawnTerms (0 here), given its pawn structure:
// CountEvalTerms is this plus the structure's counts.
std::array<int, kNumEvalTerms> CountPieceTerms(const Position& pos,
                                               const PawnStructure& pawns);

}  // namespace chess

#endif  // ENGINE_EVAL_TERMS_H_
