#include "engine/eval_terms.h"

#include "engine/bitboard.h"

namespace chess {
namespace {

constexpr const char* kNames[kNumEvalTerms] = {
    "mobility.knight",  "mobility.bishop",    "mobility.rook",
    "mobility.queen",   "passed.rank2",       "passed.rank3",
    "passed.rank4",     "passed.rank5",       "passed.rank6",
    "passed.rank7",     "pawn.doubled",       "pawn.isolated",
    "bishop_pair",      "rook.open_file",     "rook.half_open_file",
    "king.shield",      "king.attack.knight", "king.attack.bishop",
    "king.attack.rook", "king.attack.queen",  "threat.pawn",
    "threat.minor",     "knight.outpost"};

Bitboard FileMask(int file) { return kFileA << file; }

Bitboard NeighbourFiles(int file) {
  return (file > 0 ? FileMask(file - 1) : 0) |
         (file < 7 ? FileMask(file + 1) : 0);
}

// Squares strictly ahead of rank `rank` from `c`'s side.
Bitboard AheadOf(Color c, int rank) {
  return c == kWhite ? (rank >= 7 ? 0 : ~Bitboard(0) << (8 * (rank + 1)))
                     : (rank <= 0 ? 0 : ~Bitboard(0) >> (8 * (8 - rank)));
}

Bitboard PawnAttacksOf(Color c, Bitboard pawns) {
  return c == kWhite ? Shift<7>(pawns) | Shift<9>(pawns)
                     : Shift<-7>(pawns) | Shift<-9>(pawns);
}

template <PieceType kType>
Bitboard Attacks(Square s, Bitboard occupied) {
  if constexpr (kType == kKnight) return KnightAttacks(s);
  if constexpr (kType == kBishop) return BishopAttacks(s, occupied);
  if constexpr (kType == kRook) return RookAttacks(s, occupied);
  if constexpr (kType == kQueen) return QueenAttacks(s, occupied);
}

struct SideContext {
  Bitboard occupied, mobility_area, king_zone, their_majors;
};

template <PieceType kType>
void CountPieces(const Position& pos, Color us, int sign,
                 const SideContext& side,
                 std::array<int, kNumEvalTerms>& counts) {
  for (Bitboard b = pos.pieces(us, kType); b;) {
    const Bitboard attacks = Attacks<kType>(PopLowest(b), side.occupied);
    counts[kMobilityKnight + kType - kKnight] +=
        sign * PopCount(attacks & side.mobility_area);
    counts[kKingAttackKnight + kType - kKnight] +=
        sign * PopCount(attacks & side.king_zone);
    if constexpr (kType == kKnight || kType == kBishop)
      counts[kMinorThreat] += sign * PopCount(attacks & side.their_majors);
  }
}

// One side's counts, added to `counts` with `sign`.
void CountSide(const Position& pos, Color us, int sign,
               std::array<int, kNumEvalTerms>& counts) {
  const Color them = Color(us ^ 1);
  const Bitboard occupied = pos.occupied();
  const Bitboard our_pawns = pos.pieces(us, kPawn);
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  const Bitboard their_pawn_attacks = PawnAttacksOf(them, their_pawns);
  const Bitboard our_pawn_attacks = PawnAttacksOf(us, our_pawns);
  const Bitboard mobility_area = ~pos.pieces(us) & ~their_pawn_attacks;
  const Square their_king = pos.king_square(them);
  const Bitboard king_zone = KingAttacks(their_king);
  const Bitboard their_majors =
      pos.pieces(them, kRook) | pos.pieces(them, kQueen);

  const SideContext side{occupied, mobility_area, king_zone, their_majors};
  CountPieces<kKnight>(pos, us, sign, side, counts);
  CountPieces<kBishop>(pos, us, sign, side, counts);
  CountPieces<kRook>(pos, us, sign, side, counts);
  CountPieces<kQueen>(pos, us, sign, side, counts);
  counts[kPawnThreat] +=
      sign * PopCount(our_pawn_attacks & pos.pieces(them) & ~their_pawns &
                      ~pos.pieces(them, kKing));

  for (Bitboard b = our_pawns; b;) {
    const Square s = PopLowest(b);
    const int file = FileOf(s), rank = RankOf(s);
    const Bitboard ahead = AheadOf(us, rank);
    // A pawn behind one of its own is not passed: the front one is.
    if (!(their_pawns & ahead & (FileMask(file) | NeighbourFiles(file))) &&
        !(our_pawns & ahead & FileMask(file))) {
      const int relative_rank = us == kWhite ? rank : 7 - rank;  // 1..6
      counts[kPassedRank2 + relative_rank - 1] += sign;
    }
    if (our_pawns & ahead & FileMask(file)) counts[kDoubledPawn] += sign;
    if (!(our_pawns & NeighbourFiles(file))) counts[kIsolatedPawn] += sign;
  }

  if (MoreThanOne(pos.pieces(us, kBishop))) counts[kBishopPair] += sign;
  for (Bitboard b = pos.pieces(us, kRook); b;) {
    const Bitboard file = FileMask(FileOf(PopLowest(b)));
    if (!(file & (our_pawns | their_pawns))) {
      counts[kRookOpenFile] += sign;
    } else if (!(file & our_pawns)) {
      counts[kRookHalfOpenFile] += sign;
    }
  }

  const Square king = pos.king_square(us);
  const int king_rank = RankOf(king);
  const Bitboard shield_ranks =
      AheadOf(us, king_rank) &
      ~AheadOf(us, us == kWhite ? king_rank + 2 : king_rank - 2);
  counts[kKingShield] +=
      sign * PopCount(our_pawns & shield_ranks &
                      (FileMask(FileOf(king)) | NeighbourFiles(FileOf(king))));

  for (Bitboard b = pos.pieces(us, kKnight); b;) {
    const Square s = PopLowest(b);
    const int relative_rank = us == kWhite ? RankOf(s) : 7 - RankOf(s);
    if (relative_rank >= 3 && relative_rank <= 5 &&
        (our_pawn_attacks & (Bitboard(1) << s)) &&
        !(their_pawns & AheadOf(us, RankOf(s)) & NeighbourFiles(FileOf(s)))) {
      counts[kKnightOutpost] += sign;
    }
  }
}

}  // namespace

const char* EvalTermName(int term) { return kNames[term]; }

std::array<int, kNumEvalTerms> CountEvalTerms(const Position& pos) {
  std::array<int, kNumEvalTerms> counts{};
  CountSide(pos, kWhite, 1, counts);
  CountSide(pos, kBlack, -1, counts);
  return counts;
}

}  // namespace chess
