#include "engine/movegen.h"

#include <cstdint>

#include "common/sanitizer.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

struct StandardCase {
  const char* fen;
  std::vector<uint64_t> counts;  // depth 1, 2, ...
};

// The six positions of the Chess Programming Wiki "Perft Results" page.
const StandardCase kStandard[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {20, 400, 8902, 197281, 4865609, 119060324}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {48, 2039, 97862, 4085603, 193690690}},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     {14, 191, 2812, 43238, 674624, 11030083}},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {6, 264, 9467, 422333, 15833292}},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {44, 1486, 62379, 2103487, 89941194}},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {46, 2079, 89890, 3894594, 164075551}},
};

TEST(Perft, StandardPositions) {
  // Under a sanitizer the counts of 10 million and more (600 million nodes in
  // all) are left out: the smaller depths reach every kind of move.
  const uint64_t max_count = UnderSanitizer() ? 10'000'000 : UINT64_MAX;
  for (const StandardCase& c : kStandard) {
    Position pos = *Position::FromFen(c.fen);
    for (size_t depth = 1; depth <= c.counts.size(); ++depth) {
      if (c.counts[depth - 1] > max_count) break;
      EXPECT_EQ(Perft(pos, depth), c.counts[depth - 1])
          << c.fen << " depth " << depth;
    }
  }
}

TEST(Perft, DivideSumsToTotal) {
  Position pos = *Position::FromFen(kStandard[1].fen);
  uint64_t sum = 0;
  for (const auto& [move, count] : PerftDivide(pos, 3)) sum += count;
  EXPECT_EQ(sum, 97862u);
}

TEST(Perft, ParsesSuiteLines) {
  absl::StatusOr<PerftCase> c =
      ParsePerftLine("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 9");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->expected.size(), 2u);
  EXPECT_EQ(c->expected[1], std::make_pair(2, uint64_t{9}));
  EXPECT_FALSE(ParsePerftLine("8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1").ok());
  EXPECT_FALSE(ParsePerftLine("8/8/8/8/8/8/8/K1k5 w - - 0 1").ok());
  EXPECT_FALSE(ParsePerftLine("not a fen ;D1 3").ok());
}

TEST(MoveGen, CounterAgreesWithList) {
  for (const StandardCase& c : kStandard) {
    Position pos = *Position::FromFen(c.fen);
    EXPECT_EQ(CountLegalMoves(pos), LegalMoves(pos).size()) << c.fen;
  }
}

std::vector<std::string> UciMoves(const Position& pos) {
  std::vector<std::string> moves;
  for (Move m : LegalMoves(pos)) moves.push_back(ToUci(m));
  std::sort(moves.begin(), moves.end());
  return moves;
}

TEST(MoveGen, EnPassantRankPinIsIllegal) {
  // Taking e.p. would remove both pawns from the fifth rank and expose the king
  // to the rook.
  Position pos = *Position::FromFen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
  for (const std::string& m : UciMoves(pos)) EXPECT_NE(m, "e5d6");
}

TEST(MoveGen, EnPassantCapturesCheckingPawn) {
  Position pos = *Position::FromFen("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1");
  EXPECT_TRUE(LegalMoves(pos).Contains(
      Move(ParseSquare("e4"), ParseSquare("d3"), kEnPassant)));
}

TEST(MoveGen, NoisyModeIsCapturesAndPromotions) {
  Position pos = *Position::FromFen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  MoveList noisy;
  GenerateLegal<GenMode::kNoisy>(pos, noisy);
  EXPECT_EQ(noisy.size(), 8u);  // a8 and axb8, four pieces each
  for (Move m : noisy) EXPECT_TRUE(m.is_promotion());
}

// Every (from, to, promotion) in `pos` and the positions up to `plies` after
// it: FindLegalMove finds exactly the generator's move, or none.
void ExpectFindLegalMoveAgrees(const Position& pos, int plies) {
  const MoveList legal = LegalMoves(pos);
  for (Square from = 0; from < 64; ++from) {
    const bool ours = pos.piece_on(from) != kNoPiece &&
                      ColorOf(pos.piece_on(from)) == pos.side_to_move();
    if (!ours && plies > 0) continue;  // the start positions try them all
    Move expected[64][kNoPieceType + 1] = {};  // by target and promotion
    for (Move m : legal) {
      if (m.from() == from)
        expected[m.to()][m.is_promotion() ? m.promotion_type() : kNoPieceType] =
            m;
    }
    for (Square to = 0; to < 64; ++to) {
      for (int p = kKnight; p <= kNoPieceType; ++p) {
        if (p == kKing) continue;
        ASSERT_EQ(FindLegalMove(pos, from, to, PieceType(p)), expected[to][p])
            << pos.ToFen() << " " << SquareName(from) << SquareName(to)
            << " promotion " << p;
      }
    }
  }
  if (plies == 0) return;
  for (Move m : legal) {
    Position next = pos;
    next.MakeMove(m);
    ExpectFindLegalMoveAgrees(next, plies - 1);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(MoveGen, FindLegalMoveAgreesWithTheGenerator) {
  // One ply less under a sanitizer: 5-20x slower code.
  const int plies = UnderSanitizer() ? 1 : 2;
  for (const StandardCase& c : kStandard)
    ExpectFindLegalMoveAgrees(*Position::FromFen(c.fen), plies);
  // En passant with a pin along the rank, out of check, castling through an
  // attacked square, promotions with and without capture.
  for (const char* fen :
       {"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1",
        "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/p6p/1N2K1N1 b - - 0 1"})
    ExpectFindLegalMoveAgrees(*Position::FromFen(fen), 2);
}

TEST(MoveGen, CastlingThroughCheckIsIllegal) {
  Position pos = *Position::FromFen("r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1");
  std::vector<std::string> moves = UciMoves(pos);
  EXPECT_EQ(std::count(moves.begin(), moves.end(), "e1g1"), 0);
  EXPECT_EQ(std::count(moves.begin(), moves.end(), "e1c1"), 1);
}

}  // namespace
}  // namespace chess
