#include "engine/bitboard.h"

#include <initializer_list>

namespace chess {
namespace {

constexpr int kRookDirections[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirections[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool OnBoard(int file, int rank) {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

// Slow ray walk, used only to build the tables.
Bitboard SlidingAttacks(const int (&directions)[4][2], Square s,
                        Bitboard occupied) {
  Bitboard attacks = 0;
  for (const auto& d : directions) {
    int f = FileOf(s) + d[0], r = RankOf(s) + d[1];
    while (OnBoard(f, r)) {
      attacks |= SquareBB(MakeSquare(f, r));
      if (occupied & SquareBB(MakeSquare(f, r))) break;
      f += d[0];
      r += d[1];
    }
  }
  return attacks;
}

Bitboard StepAttacks(Square s, const int (*steps)[2], int count) {
  Bitboard attacks = 0;
  for (int i = 0; i < count; ++i) {
    int f = FileOf(s) + steps[i][0], r = RankOf(s) + steps[i][1];
    if (OnBoard(f, r)) attacks |= SquareBB(MakeSquare(f, r));
  }
  return attacks;
}

// Magic multipliers, found once by trial with a seeded random search (sparse
// candidates, checked against every occupancy subset) and frozen here so that
// start-up takes no search. bitboard_test checks every entry of the resulting
// tables against a ray walk.
constexpr Bitboard kRookMagics[64] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL,
    0x0880100008000480ULL, 0x4200100420080200ULL, 0x8100020100080400ULL,
    0x0200040110886200ULL, 0x0200008040220411ULL, 0x0404800084400220ULL,
    0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL,
    0x0442000102105084ULL, 0x9080010020804100ULL, 0x0040404000201009ULL,
    0x0000808010002009ULL, 0x2200090021D00100ULL, 0x0008008008040080ULL,
    0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL,
    0x1000100080080080ULL, 0x0442000A00049020ULL, 0x2100040080020080ULL,
    0x0800120400900148ULL, 0x0010040A00128541ULL, 0x2800804000800030ULL,
    0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL,
    0x0182085882000401ULL, 0x0220204000808000ULL, 0x2860100040024022ULL,
    0x0001002004110040ULL, 0x99101042000A0020ULL, 0x0004080004008080ULL,
    0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL,
    0x0801100280080480ULL, 0x0242009008200600ULL, 0x1002000489500200ULL,
    0x0040800200010080ULL, 0x0091800041000080ULL, 0x0000209300488001ULL,
    0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL,
    0x4000002840840112ULL,
};
constexpr Bitboard kBishopMagics[64] = {
    0x10102002004A1420ULL, 0x8020040400584008ULL, 0x10510800811201C8ULL,
    0x5204042080000088ULL, 0x2204106880000002ULL, 0x1401042004000000ULL,
    0x0400880410042004ULL, 0x0028208200A02020ULL, 0x1500241990010E00ULL,
    0x8001200182020A40ULL, 0x40004101030B0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020A00ULL,
    0x8000088400880520ULL, 0x0405004010040100ULL, 0x1005823210040108ULL,
    0x2708008102040011ULL, 0x4048200404009100ULL, 0x0018104101400024ULL,
    0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006E080100C3040ULL, 0x0501044A11041800ULL, 0x9020300008004045ULL,
    0x0894080000220040ULL, 0x1001010083104000ULL, 0x5004030040900080ULL,
    0x000400422C012400ULL, 0x0002128698404812ULL, 0x1010108404900440ULL,
    0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xA010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL,
    0x802A02020000B098ULL, 0x0009015090004060ULL, 0x4000821082081001ULL,
    0x0100210040420800ULL, 0x0800004010488A00ULL, 0x2000081104004040ULL,
    0x4C8E029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008A0101600000ULL, 0x3040003412080021ULL,
    0x3040290220884800ULL, 0x4A1500401041004AULL, 0x8010200282020781ULL,
    0x0020203142209091ULL, 0x0070300600902110ULL, 0x0040808800B62048ULL,
    0x0000810400C44420ULL, 0x00080400440C0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810D00080ULL, 0x0400530411080200ULL,
    0x4040702400932244ULL,
};

// Fills the "fancy magic" tables: each square's attack sets for all blocker
// subsets.
void InitMagics(const int (&directions)[4][2], const Bitboard* magic_numbers,
                Magic* magics, Bitboard* table) {
  Bitboard* next_table = table;
  for (Square s = 0; s < 64; ++s) {
    Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * RankOf(s)))) |
                     ((kFileA | kFileH) & ~(kFileA << FileOf(s)));
    Magic& m = magics[s];
    m.mask = SlidingAttacks(directions, s, 0) & ~edges;
    m.shift = 64 - PopCount(m.mask);
    m.magic = magic_numbers[s];
    m.attacks = next_table;
    Bitboard b = 0;
    do {  // Carry-Rippler enumeration of all subsets of the mask.
      next_table[m.Index(b)] = SlidingAttacks(directions, s, b);
      b = (b - m.mask) & m.mask;
    } while (b);
    next_table += Bitboard{1} << PopCount(m.mask);
  }
}

void BuildAttackTables(AttackTables* t) {
  constexpr int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                      {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                    {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int kWhitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
  constexpr int kBlackPawnSteps[2][2] = {{-1, -1}, {1, -1}};
  for (Square s = 0; s < 64; ++s) {
    t->knight[s] = StepAttacks(s, kKnightSteps, 8);
    t->king[s] = StepAttacks(s, kKingSteps, 8);
    t->pawn[kWhite][s] = StepAttacks(s, kWhitePawnSteps, 2);
    t->pawn[kBlack][s] = StepAttacks(s, kBlackPawnSteps, 2);
  }
  InitMagics(kRookDirections, kRookMagics, t->rook_magic, t->rook_table);
  InitMagics(kBishopDirections, kBishopMagics, t->bishop_magic,
             t->bishop_table);
  for (Square a = 0; a < 64; ++a) {
    for (Square b = 0; b < 64; ++b) {
      if (a == b) continue;
      for (const auto* directions : {&kRookDirections, &kBishopDirections}) {
        if (!(SlidingAttacks(*directions, a, 0) & SquareBB(b))) continue;
        t->line[a][b] = (SlidingAttacks(*directions, a, 0) &
                         SlidingAttacks(*directions, b, 0)) |
                        SquareBB(a) | SquareBB(b);
        t->between[a][b] = SlidingAttacks(*directions, a, SquareBB(b)) &
                           SlidingAttacks(*directions, b, SquareBB(a));
      }
    }
  }
}

}  // namespace

AttackTables::AttackTables() : between{}, line{} { BuildAttackTables(this); }

const AttackTables kAttacks;

Bitboard AttacksOf(PieceType type, Square s, Bitboard occupied) {
  switch (type) {
    case kKnight:
      return KnightAttacks(s);
    case kBishop:
      return BishopAttacks(s, occupied);
    case kRook:
      return RookAttacks(s, occupied);
    case kQueen:
      return QueenAttacks(s, occupied);
    case kKing:
      return KingAttacks(s);
    default:
      return 0;
  }
}

}  // namespace chess
