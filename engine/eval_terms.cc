#include "engine/eval_terms.h"

#include <algorithm>
#include <cstdlib>

#include "engine/bitboard.h"

namespace chess {
namespace {

constexpr const char* kNames[kNumEvalTerms] = {"mobility.knight",
                                               "mobility.bishop",
                                               "mobility.rook",
                                               "mobility.queen",
                                               "passed.rank2",
                                               "passed.rank3",
                                               "passed.rank4",
                                               "passed.rank5",
                                               "passed.rank6",
                                               "passed.rank7",
                                               "pawn.doubled",
                                               "pawn.isolated",
                                               "bishop_pair",
                                               "rook.open_file",
                                               "rook.half_open_file",
                                               "king.shield",
                                               "king.attack.knight",
                                               "king.attack.bishop",
                                               "king.attack.rook",
                                               "king.attack.queen",
                                               "threat.pawn",
                                               "threat.minor",
                                               "knight.outpost",
                                               "pawn.backward",
                                               "pawn.supported",
                                               "pawn.phalanx",
                                               "passed.free_path",
                                               "passed.their_king_distance",
                                               "passed.our_king_distance",
                                               "king.danger",
                                               "king.open_file",
                                               "king.storm",
                                               "king.safe_check.knight",
                                               "king.safe_check.bishop",
                                               "king.safe_check.rook",
                                               "king.safe_check.queen",
                                               "threat.hanging",
                                               "mobility.low.knight",
                                               "mobility.low.bishop",
                                               "mobility.low.rook",
                                               "mobility.low.queen",
                                               "minor.behind_pawn",
                                               "bishop.pawns_on_colour",
                                               "rook.seventh",
                                               "threat.by_king",
                                               "threat.by_rook",
                                               "threat.pawn_push",
                                               "king.pawnless_flank",
                                               "king.weak_squares",
                                               "space",
                                               "passed.blocked",
                                               "king.danger_with_checks",
                                               "king.shield.far",
                                               "king.storm.blocked",
                                               "threat.minor_on_minor",
                                               "threat.rook_on_minor",
                                               "threat.weak_pawn",
                                               "bishop.outpost",
                                               "pawn.weak_unopposed",
                                               "king.pawn_distance",
                                               "bishop.long_diagonal",
                                               "rook.queen_file",
                                               "minor.king_distance",
                                               "passed.rook_behind",
                                               "passed.connected",
                                               "knight.reachable_outpost",
                                               "ending.opposite_bishops_pawns",
                                               "ending.rook_pawns",
                                               "queen.infiltration",
                                               "rook.trapped",
                                               "passed.unstoppable"};

Bitboard FileMask(int file) { return kFileA << file; }
Bitboard RankMask(int rank) { return kRank1 << (8 * rank); }

// Branch-free: the shifts drop what falls off the board's edge files.
Bitboard NeighbourFiles(int file) {
  const Bitboard own = FileMask(file);
  return Shift<1>(own) | Shift<-1>(own);
}

// Squares strictly ahead of rank `rank` from `c`'s side; the king's shield
// and storm ask for ranks up to three off the board.
constexpr int kMinRank = -3, kMaxRank = 10;
constexpr auto kAheadOf = [] {
  std::array<std::array<Bitboard, kMaxRank - kMinRank + 1>, 2> ahead{};
  for (int rank = kMinRank; rank <= kMaxRank; ++rank) {
    for (int r = std::max(rank + 1, 0); r <= 7; ++r)
      ahead[kWhite][rank - kMinRank] |= kRank1 << (8 * r);
    for (int r = std::min(rank - 1, 7); r >= 0; --r)
      ahead[kBlack][rank - kMinRank] |= kRank1 << (8 * r);
  }
  return ahead;
}();
Bitboard AheadOf(Color c, int rank) { return kAheadOf[c][rank - kMinRank]; }

template <PieceType kType>
Bitboard Attacks(Square s, Bitboard occupied) {
  if constexpr (kType == kKnight) return KnightAttacks(s);
  if constexpr (kType == kBishop) return BishopAttacks(s, occupied);
  if constexpr (kType == kRook) return RookAttacks(s, occupied);
  if constexpr (kType == kQueen) return QueenAttacks(s, occupied);
}

int Distance(Square a, Square b) {
  return std::max(std::abs(FileOf(a) - FileOf(b)),
                  std::abs(RankOf(a) - RankOf(b)));
}

// Whether no enemy pawn can ever attack `s`: none stands ahead of it, from our
// side, on a neighbouring file.
bool OutOfPawnReach(Color us, Square s, Bitboard their_pawns) {
  return !(their_pawns & AheadOf(us, RankOf(s)) & NeighbourFiles(FileOf(s)));
}

// Whether the enemy king, with nothing but pawns beside it, is outside the
// square of our passed pawn on `s` (the rule of the square; a pawn on its
// first move may go two). What stands in the pawn's way is not looked at:
// the fit weighs how often that matters.
bool Unstoppable(const Position& pos, Color us, Square s, int relative_rank) {
  const Color them = Color(us ^ 1);
  const Square queening = us == kWhite ? Square(56 + FileOf(s)) : FileOf(s);
  const int moves = std::min(5, 7 - relative_rank);
  const int king_moves = Distance(pos.king_square(them), queening) -
                         (pos.side_to_move() == them ? 1 : 0);
  return king_moves > moves;
}

struct SideContext {
  Bitboard occupied, mobility_area, king_zone, king_zone_with_king,
      their_majors;
};

// Our pieces that attack the enemy king's zone (the king and the squares next
// to it), and their weight.
struct KingAttackers {
  int count = 0, units = 0;
};

// The squares one side's pieces attack, by piece type, and its pieces that
// attack the enemy king's zone, for the terms that weigh both sides' attacks.
struct AttackMap {
  Bitboard by_type[6] = {};
  Bitboard all = 0;
  KingAttackers king_attackers;
  void Add(PieceType type, Bitboard attacks) {
    by_type[type] |= attacks;
    all |= attacks;
  }
};

constexpr int kKingAttackUnits[] = {0, 2, 2, 3, 5, 0};
constexpr int kLowMobilityThreshold[] = {0, 3, 3, 3, 4, 0};

template <PieceType kType>
void CountPieces(const Position& pos, Color us, int sign,
                 const SideContext& side, AttackMap& map,
                 std::array<int, kNumEvalTerms>& counts) {
  for (Bitboard b = pos.pieces(us, kType); b;) {
    const Bitboard attacks = Attacks<kType>(PopLowest(b), side.occupied);
    map.Add(kType, attacks);
    const int mobility = PopCount(attacks & side.mobility_area);
    counts[kMobilityKnight + kType - kKnight] += sign * mobility;
    counts[kLowMobilityKnight + kType - kKnight] +=
        sign * std::max(0, kLowMobilityThreshold[kType] - mobility);
    counts[kKingAttackKnight + kType - kKnight] +=
        sign * PopCount(attacks & side.king_zone);
    if (attacks & side.king_zone_with_king) {
      ++map.king_attackers.count;
      map.king_attackers.units += kKingAttackUnits[kType];
    }
    if constexpr (kType == kKnight || kType == kBishop)
      counts[kMinorThreat] += sign * PopCount(attacks & side.their_majors);
  }
}

constexpr Bitboard kQueenSideFiles =
    kFileA | kFileA << 1 | kFileA << 2 | kFileA << 3;
constexpr Bitboard kCenterFiles =
    kFileA << 2 | kFileA << 3 | kFileA << 4 | kFileA << 5;
constexpr Bitboard kKingSideFiles =
    kFileA << 4 | kFileA << 5 | kFileA << 6 | kFileH;

// The three or four files a king on `file` stands among.
Bitboard KingFlank(int file) {
  return file <= 2   ? kQueenSideFiles
         : file >= 5 ? kKingSideFiles
                     : kCenterFiles;
}

constexpr Bitboard kCentre =
    (kFileA << 3 | kFileA << 4) & (kRank1 << 24 | kRank1 << 32);

// Where the bishops, rooks and minors stand relative to pawns, the centre,
// the enemy queen and their own king.
void CountPiecePlacement(const Position& pos, Color us, int sign,
                         std::array<int, kNumEvalTerms>& counts) {
  const Color them = Color(us ^ 1);
  const Square our_king = pos.king_square(us);
  const Bitboard pawns = pos.pieces(kWhite, kPawn) | pos.pieces(kBlack, kPawn);
  for (Bitboard b = pos.pieces(us, kBishop); b;) {
    const Square s = PopLowest(b);
    if (MoreThanOne(BishopAttacks(s, pawns) & kCentre))
      counts[kBishopLongDiagonal] += sign;
  }
  for (Bitboard b = pos.pieces(us, kKnight) | pos.pieces(us, kBishop); b;)
    counts[kMinorKingDistance] += sign * Distance(PopLowest(b), our_king);
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  for (Bitboard b = pos.pieces(us, kQueen); b;) {
    const Square s = PopLowest(b);
    const int relative_rank = us == kWhite ? RankOf(s) : 7 - RankOf(s);
    if (relative_rank >= 4 && OutOfPawnReach(us, s, their_pawns))
      counts[kQueenInfiltration] += sign;
  }
  const int king_file = FileOf(our_king);
  const int first_rank = us == kWhite ? 0 : 7;
  for (Bitboard b = pos.pieces(us, kRook); b;) {
    const Square s = PopLowest(b);
    const int file = FileOf(s);
    if (FileMask(file) & pos.pieces(them, kQueen))
      counts[kRookOnQueenFile] += sign;
    if (RankOf(our_king) != first_rank ||
        (king_file < 4 ? file >= king_file : file <= king_file))
      continue;
    if (PopCount(RookAttacks(s, pos.occupied()) & ~pos.pieces(us)) <= 3)
      counts[kRookTrapped] += sign;
  }
  int nearest_pawn = 0;
  for (Bitboard b = pos.pieces(us, kPawn); b;) {
    const int d = Distance(PopLowest(b), our_king);
    if (nearest_pawn == 0 || d < nearest_pawn) nearest_pawn = d;
  }
  counts[kKingPawnDistance] += sign * nearest_pawn;
}

// Squares on our ranks 4 to 6 that a pawn of ours defends and no enemy pawn
// can ever attack.
Bitboard OutpostSquares(Color us, Bitboard our_pawn_attacks,
                        Bitboard their_pawns) {
  const Bitboard ranks = us == kWhite ? RankMask(3) | RankMask(4) | RankMask(5)
                                      : RankMask(4) | RankMask(3) | RankMask(2);
  Bitboard out = 0;
  for (Bitboard b = ranks & our_pawn_attacks; b;) {
    const Square s = PopLowest(b);
    if (OutOfPawnReach(us, s, their_pawns)) out |= SquareBit(s);
  }
  return out;
}

// One side's part of the pawn structure, and its kPawnTerms counts.
void AnalysePawnSide(Color us, Bitboard our_pawns, Bitboard their_pawns,
                     PawnStructure& out, PawnTermCounts& counts) {
  const Color them = Color(us ^ 1);
  const int sign = us == kWhite ? 1 : -1;
  const Bitboard their_pawn_attacks = PawnAttacksOf(them, their_pawns);
  const Bitboard our_pawn_attacks = PawnAttacksOf(us, our_pawns);
  auto add = [&](EvalTerm term) { counts[PawnTermIndex(term)] += sign; };
  for (Bitboard b = our_pawns; b;) {
    const Square s = PopLowest(b);
    const int file = FileOf(s), rank = RankOf(s);
    const Bitboard ahead = AheadOf(us, rank);
    const Square stop = us == kWhite ? s + 8 : s - 8;
    // A pawn behind one of its own is not passed: the front one is.
    if (!(their_pawns & ahead & (FileMask(file) | NeighbourFiles(file))) &&
        !(our_pawns & ahead & FileMask(file))) {
      const int relative_rank = us == kWhite ? rank : 7 - rank;  // 1..6
      add(EvalTerm(kPassedRank2 + relative_rank - 1));
      out.passed[us] |= SquareBit(s);
    }
    if (our_pawns & ahead & FileMask(file)) add(kDoubledPawn);
    const bool opposed = their_pawns & ahead & FileMask(file);
    if (!(our_pawns & NeighbourFiles(file))) {
      add(kIsolatedPawn);
      if (!opposed) add(kWeakUnopposedPawn);
    } else if (!(our_pawns & NeighbourFiles(file) & ~AheadOf(us, rank)) &&
               (their_pawn_attacks & SquareBit(stop))) {
      add(kBackwardPawn);
      if (!opposed) add(kWeakUnopposedPawn);
    }
    if (our_pawn_attacks & SquareBit(s)) add(kSupportedPawn);
    if (our_pawns & NeighbourFiles(file) & RankMask(rank)) add(kPhalanxPawn);
  }
  out.outposts[us] = OutpostSquares(us, our_pawn_attacks, their_pawns);
  const Bitboard our_ranks = us == kWhite
                                 ? RankMask(1) | RankMask(2) | RankMask(3)
                                 : RankMask(6) | RankMask(5) | RankMask(4);
  out.space[us] =
      PopCount(kCenterFiles & our_ranks & ~our_pawns & ~their_pawn_attacks);
}

// Where one side's pieces and pawns stand, apart from what they attack.
void CountPlacement(const Position& pos, Color us, int sign,
                    const PawnStructure& structure,
                    std::array<int, kNumEvalTerms>& counts) {
  const Color them = Color(us ^ 1);
  const Bitboard our_pawns = pos.pieces(us, kPawn);
  const Bitboard minors = pos.pieces(us, kKnight) | pos.pieces(us, kBishop);
  const Bitboard in_front =
      us == kWhite ? Shift<-8>(our_pawns) : Shift<8>(our_pawns);
  counts[kMinorBehindPawn] += sign * PopCount(minors & in_front);
  for (Bitboard b = pos.pieces(us, kBishop); b;) {
    const bool dark = kDarkSquares & SquareBit(PopLowest(b));
    counts[kBishopPawns] +=
        sign * PopCount(our_pawns & (dark ? kDarkSquares : ~kDarkSquares));
  }
  counts[kRookOnSeventh] +=
      sign * PopCount(pos.pieces(us, kRook) & (us == kWhite ? kRank7 : kRank2));
  const Bitboard all_pawns = our_pawns | pos.pieces(them, kPawn);
  if (!(all_pawns & KingFlank(FileOf(pos.king_square(them)))))
    counts[kKingPawnlessFlank] += sign;
  const int pieces = PopCount(pos.pieces(us) & ~our_pawns) - 1;
  counts[kSpace] += sign * structure.space[us] * pieces / 4;
  CountPiecePlacement(pos, us, sign, counts);
}

// Our passed pawns' terms that depend on more than pawns: their path, the
// kings, blockers, rooks and support.
void CountPassedPawns(const Position& pos, Color us, int sign, Bitboard passed,
                      std::array<int, kNumEvalTerms>& counts) {
  const Color them = Color(us ^ 1);
  const Bitboard occupied = pos.occupied();
  const Bitboard our_pawns = pos.pieces(us, kPawn);
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  const Bitboard our_pawn_attacks = PawnAttacksOf(us, our_pawns);
  const Square their_king = pos.king_square(them);
  const Square our_king = pos.king_square(us);
  for (Bitboard b = passed; b;) {
    const Square s = PopLowest(b);
    const int file = FileOf(s), rank = RankOf(s);
    const Bitboard ahead = AheadOf(us, rank);
    const Square stop = us == kWhite ? s + 8 : s - 8;
    const int relative_rank = us == kWhite ? rank : 7 - rank;  // 1..6
    const int scale = relative_rank * (relative_rank - 1) / 2;
    if (!(occupied & ahead & FileMask(file)))
      counts[kPassedFreePath] += sign * scale;
    counts[kPassedTheirKingDistance] +=
        sign * scale * std::min(Distance(their_king, stop), 5);
    counts[kPassedOurKingDistance] +=
        sign * scale * std::min(Distance(our_king, stop), 5);
    if (pos.pieces(them) & SquareBit(stop))
      counts[kPassedBlocked] += sign * scale;
    if (pos.pieces(us, kRook) & FileMask(file) & ~AheadOf(us, rank))
      counts[kPassedRookBehind] += sign;
    if ((our_pawn_attacks & SquareBit(s)) ||
        (our_pawns & NeighbourFiles(file) & RankMask(rank)))
      counts[kPassedConnected] += sign * scale;
    if (!(pos.pieces(them) & ~their_pawns & ~pos.pieces(them, kKing)) &&
        Unstoppable(pos, us, s, relative_rank))
      counts[kPassedUnstoppable] += sign;
  }
}

// One side's counts, added to `counts` with `sign`; its attacks in `map`.
void CountSide(const Position& pos, Color us, int sign,
               const PawnStructure& pawns, AttackMap& map,
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

  const SideContext side{occupied, mobility_area, king_zone,
                         king_zone | SquareBit(their_king), their_majors};
  map.Add(kPawn, our_pawn_attacks);
  map.Add(kKing, KingAttacks(pos.king_square(us)));
  CountPieces<kKnight>(pos, us, sign, side, map, counts);
  CountPieces<kBishop>(pos, us, sign, side, map, counts);
  CountPieces<kRook>(pos, us, sign, side, map, counts);
  CountPieces<kQueen>(pos, us, sign, side, map, counts);
  const Bitboard their_minors =
      pos.pieces(them, kKnight) | pos.pieces(them, kBishop);
  const Bitboard our_minor_attacks =
      map.by_type[kKnight] | map.by_type[kBishop];
  counts[kThreatMinorOnMinor] +=
      sign * PopCount(our_minor_attacks & their_minors & ~their_pawn_attacks);
  counts[kThreatRookOnMinor] +=
      sign * PopCount(map.by_type[kRook] & their_minors & ~their_pawn_attacks);
  counts[kThreatOnWeakPawn] +=
      sign * PopCount((our_minor_attacks | map.by_type[kRook]) & their_pawns &
                      ~their_pawn_attacks);
  const KingAttackers& attackers = map.king_attackers;
  if (attackers.count >= 2)
    counts[kKingDanger] += sign * attackers.units * attackers.units / 4;
  counts[kPawnThreat] +=
      sign * PopCount(our_pawn_attacks & pos.pieces(them) & ~their_pawns &
                      ~pos.pieces(them, kKing));

  CountPassedPawns(pos, us, sign, pawns.passed[us], counts);

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
  const Bitboard king_files =
      FileMask(FileOf(king)) | NeighbourFiles(FileOf(king));
  const Bitboard shield = our_pawns & shield_ranks & king_files;
  counts[kKingShield] += sign * PopCount(shield);
  const Bitboard near_rank =
      AheadOf(us, king_rank) &
      ~AheadOf(us, us == kWhite ? king_rank + 1 : king_rank - 1);
  counts[kKingShieldFar] += sign * PopCount(shield & ~near_rank);

  const int their_king_file = FileOf(their_king);
  for (int f = std::max(0, their_king_file - 1);
       f <= std::min(7, their_king_file + 1); ++f) {
    if (!(their_pawns & FileMask(f))) counts[kKingOpenFile] += sign;
  }
  const int their_king_rank = RankOf(their_king);
  const Bitboard storm_ranks =
      AheadOf(them, their_king_rank) &
      ~AheadOf(them,
               them == kWhite ? their_king_rank + 3 : their_king_rank - 3);
  const Bitboard storm =
      our_pawns & storm_ranks &
      (FileMask(their_king_file) | NeighbourFiles(their_king_file));
  counts[kKingStorm] += sign * PopCount(storm);
  const Bitboard blocked =
      us == kWhite ? Shift<-8>(their_pawns) : Shift<8>(their_pawns);
  counts[kKingStormBlocked] += sign * PopCount(storm & blocked);

  const Bitboard outposts = pawns.outposts[us];
  counts[kKnightOutpost] += sign * PopCount(pos.pieces(us, kKnight) & outposts);
  counts[kBishopOutpost] += sign * PopCount(pos.pieces(us, kBishop) & outposts);
  for (Bitboard b = pos.pieces(us, kKnight); b;) {
    if (KnightAttacks(PopLowest(b)) & outposts & ~occupied)
      counts[kKnightReachableOutpost] += sign;
  }
  CountPlacement(pos, us, sign, pawns, counts);
}

// The squares from which our pieces would check the enemy king and that no
// enemy piece attacks (nor a piece of ours holds), by the checking move.
struct SafeCheckSquares {
  Bitboard knight, diagonal, straight;
};

SafeCheckSquares SafeChecksOn(const Position& pos, Color us,
                              const AttackMap& theirs) {
  const Square their_king = pos.king_square(Color(us ^ 1));
  const Bitboard safe = ~theirs.all & ~pos.pieces(us);
  return {KnightAttacks(their_king) & safe,
          BishopAttacks(their_king, pos.occupied()) & safe,
          RookAttacks(their_king, pos.occupied()) & safe};
}

// The terms that weigh our attacks against the enemy's: checks we can give
// from squares the enemy does not attack, enemy pieces we attack that nothing
// of theirs defends, and threats by the king, by rooks on the queen and by
// pawn pushes.
void CountThreats(const Position& pos, Color us, int sign,
                  const AttackMap& ours, const AttackMap& theirs,
                  const SafeCheckSquares& checks,
                  std::array<int, kNumEvalTerms>& counts) {
  const Color them = Color(us ^ 1);
  counts[kSafeCheckKnight] +=
      sign * PopCount(ours.by_type[kKnight] & checks.knight);
  counts[kSafeCheckBishop] +=
      sign * PopCount(ours.by_type[kBishop] & checks.diagonal);
  counts[kSafeCheckRook] +=
      sign * PopCount(ours.by_type[kRook] & checks.straight);
  counts[kSafeCheckQueen] +=
      sign *
      PopCount(ours.by_type[kQueen] & (checks.diagonal | checks.straight));
  const Bitboard their_pieces =
      pos.pieces(them) & ~pos.pieces(them, kPawn) & ~pos.pieces(them, kKing);
  counts[kHangingPiece] +=
      sign * PopCount(their_pieces & ours.all & ~theirs.all);
  counts[kThreatByKing] +=
      sign * PopCount((pos.pieces(them) & ~pos.pieces(them, kKing)) &
                      ours.by_type[kKing] & ~theirs.all);
  counts[kThreatByRook] +=
      sign * PopCount(pos.pieces(them, kQueen) & ours.by_type[kRook]);
  const Bitboard our_pawns = pos.pieces(us, kPawn);
  const Bitboard pushed =
      (us == kWhite ? Shift<8>(our_pawns) : Shift<-8>(our_pawns)) &
      ~pos.occupied() & (ours.all | ~theirs.all) & ~theirs.by_type[kPawn];
  counts[kThreatByPawnPush] +=
      sign * PopCount(PawnAttacksOf(us, pushed) & their_pieces);
}

// Weak squares next to the enemy king (that we attack and that only its king
// or queen defends), and the king danger that adds them and our safe checks
// to the attackers' units.
void CountKingDanger(const Position& pos, Color us, int sign,
                     const AttackMap& ours, const AttackMap& theirs,
                     const SafeCheckSquares& checks,
                     std::array<int, kNumEvalTerms>& counts) {
  const Square their_king = pos.king_square(Color(us ^ 1));
  const Bitboard their_defence =
      theirs.by_type[kPawn] | theirs.by_type[kKnight] |
      theirs.by_type[kBishop] | theirs.by_type[kRook];
  const int weak_squares =
      PopCount(KingAttacks(their_king) & ours.all & ~their_defence);
  counts[kKingWeakSquares] += sign * weak_squares;
  if (ours.king_attackers.count == 0 || !pos.pieces(us, kQueen)) return;
  const Bitboard diagonal_checkers =
      ours.by_type[kBishop] | ours.by_type[kQueen];
  const Bitboard straight_checkers = ours.by_type[kRook] | ours.by_type[kQueen];
  const int safe_checks = PopCount((ours.by_type[kKnight] & checks.knight) |
                                   (diagonal_checkers & checks.diagonal) |
                                   (straight_checkers & checks.straight));
  const int danger =
      ours.king_attackers.units + 3 * safe_checks + 2 * weak_squares;
  counts[kKingDangerWithChecks] += sign * danger * danger / 8;
}

// Both sides' threats and king danger, from the attack maps of both.
void CountAttacks(const Position& pos, const AttackMap& white,
                  const AttackMap& black,
                  std::array<int, kNumEvalTerms>& counts) {
  const SafeCheckSquares white_checks = SafeChecksOn(pos, kWhite, black);
  const SafeCheckSquares black_checks = SafeChecksOn(pos, kBlack, white);
  CountThreats(pos, kWhite, 1, white, black, white_checks, counts);
  CountThreats(pos, kBlack, -1, black, white, black_checks, counts);
  CountKingDanger(pos, kWhite, 1, white, black, white_checks, counts);
  CountKingDanger(pos, kBlack, -1, black, white, black_checks, counts);
}

// The pawn balance of endings that are drawish whoever has the extra pawns.
void CountEndings(const Position& pos, std::array<int, kNumEvalTerms>& counts) {
  const Bitboard kings = pos.pieces(kWhite, kKing) | pos.pieces(kBlack, kKing);
  const Bitboard pawns = pos.pieces(kWhite, kPawn) | pos.pieces(kBlack, kPawn);
  const Bitboard pieces = pos.occupied() & ~kings & ~pawns;
  if (PopCount(pieces) != 2) return;
  const int balance =
      PopCount(pos.pieces(kWhite, kPawn)) - PopCount(pos.pieces(kBlack, kPawn));
  const Bitboard wb = pos.pieces(kWhite, kBishop),
                 bb = pos.pieces(kBlack, kBishop);
  if (wb && bb && bool(wb & kDarkSquares) != bool(bb & kDarkSquares))
    counts[kOppositeBishopsPawns] += balance;
  if (pos.pieces(kWhite, kRook) && pos.pieces(kBlack, kRook))
    counts[kRookEndingPawns] += balance;
}

}  // namespace

const char* EvalTermName(int term) { return kNames[term]; }

PawnStructure AnalysePawns(Bitboard white_pawns, Bitboard black_pawns,
                           PawnTermCounts& counts) {
  PawnStructure out;
  counts = {};
  AnalysePawnSide(kWhite, white_pawns, black_pawns, out, counts);
  AnalysePawnSide(kBlack, black_pawns, white_pawns, out, counts);
  return out;
}

std::array<int, kNumEvalTerms> CountPieceTerms(const Position& pos,
                                               const PawnStructure& pawns) {
  std::array<int, kNumEvalTerms> counts{};
  AttackMap white, black;
  CountSide(pos, kWhite, 1, pawns, white, counts);
  CountSide(pos, kBlack, -1, pawns, black, counts);
  CountAttacks(pos, white, black, counts);
  CountEndings(pos, counts);
  return counts;
}

std::array<int, kNumEvalTerms> CountEvalTerms(const Position& pos) {
  PawnTermCounts pawn_counts;
  const PawnStructure pawns = AnalysePawns(
      pos.pieces(kWhite, kPawn), pos.pieces(kBlack, kPawn), pawn_counts);
  std::array<int, kNumEvalTerms> counts = CountPieceTerms(pos, pawns);
  for (int i = 0; i < kNumPawnTerms; ++i)
    counts[kPawnTerms[i]] += pawn_counts[i];
  return counts;
}

}  // namespace chess
