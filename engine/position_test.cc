#include "engine/position.h"

#include "engine/movegen.h"
#include "engine/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TEST(Fen, RoundTrip) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 "
           "1",
           "8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "4k2r/6K1/8/8/8/8/8/8 w k - 57 120",
       }) {
    absl::StatusOr<Position> pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << pos.status();
    EXPECT_EQ(pos->ToFen(), fen);
  }
}

TEST(Fen, RoundTripOverRandomGames) {
  for (const Position& pos : testing::RandomPlayPositions(50, 120, 11)) {
    absl::StatusOr<Position> again = Position::FromFen(pos.ToFen());
    ASSERT_TRUE(again.ok()) << again.status();
    ASSERT_EQ(again->ToFen(), pos.ToFen());
    ASSERT_EQ(again->key(), pos.key());
  }
}

TEST(Fen, ClocksAreOptional) {
  absl::StatusOr<Position> pos =
      Position::FromFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(pos->ToFen(), kStartFen);
}

TEST(Fen, EnPassantSquareKeptOnlyWhenCaptureIsLegal) {
  // After 1. e4 no black pawn can take on e3, so the key must equal that of
  // "-".
  Position a = *Position::FromFen(
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  Position b = *Position::FromFen(
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.en_passant_square(), kNoSquare);
  // Pinned along the rank: the capture is illegal, so no e.p. square either.
  EXPECT_EQ(Position::FromFen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1")
                ->en_passant_square(),
            kNoSquare);
}

struct BadFen {
  const char* fen;
  const char* message;
};

TEST(Fen, RejectsMalformedInputWithReason) {
  const BadFen kBad[] = {
      {"", "expected 4 to 6 fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "expected 4 to 6 fields"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
       "expected 4 to 6"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
       "bad piece letter 'X'"},
      {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
      {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7"},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       "bad piece letter '9'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
       "side to move"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
       "bad castling letter"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "repeated"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
       "bad en-passant square"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
       "does not follow"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
       "halfmove clock"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
       "fullmove number"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
       "halfmove clock"},
      {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
       "black has 0 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1",
       "white has 2 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w kq - 0 1",
       "first or last rank"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
       "castling right 'K'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
       "white has 0 kings"},
      {"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", "castling right 'Q'"},
      {"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"},
      {"4k3/8/8/8/8/8/8/3Kk3 w - - 0 1", "black has 2 kings"},
      {"8/8/8/8/8/8/3k4/3K4 w - - 0 1", "in check"},
      {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "too many"},
  };
  for (const BadFen& bad : kBad) {
    absl::StatusOr<Position> pos = Position::FromFen(bad.fen);
    ASSERT_FALSE(pos.ok()) << bad.fen;
    EXPECT_EQ(pos.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(pos.status().message()), HasSubstr(bad.message))
        << bad.fen;
  }
}

// Move counters that could overflow while a game goes on are refused.
TEST(Fen, HugeMoveCountersAreRefused) {
  EXPECT_FALSE(Position::FromFen("8/8/8/8/8/8/8/K6k w - - 2147483647 1").ok());
  EXPECT_FALSE(Position::FromFen("8/8/8/8/8/8/8/K6k w - - 0 2147483647").ok());
  EXPECT_TRUE(Position::FromFen("8/8/8/8/8/8/8/K6k w - - 99 1000").ok());
}

TEST(Zobrist, IncrementalKeyEqualsFromScratch) {
  std::vector<Position> positions = testing::RandomPlayPositions(100, 200, 3);
  ASSERT_GT(positions.size(), 5000u);
  for (const Position& pos : positions) {
    ASSERT_EQ(pos.key(), pos.ComputeKey()) << pos.ToFen();
  }
}

TEST(Zobrist, TranspositionsShareAKey) {
  Position a = Position::Start(), b = Position::Start();
  for (const char* m : {"g1f3", "g8f6", "b1c3"}) {
    for (Move move : LegalMoves(a)) {
      if (SquareName(move.from()) + SquareName(move.to()) == m)
        a.MakeMove(move);
    }
  }
  for (const char* m : {"b1c3", "g8f6", "g1f3"}) {
    for (Move move : LegalMoves(b)) {
      if (SquareName(move.from()) + SquareName(move.to()) == m)
        b.MakeMove(move);
    }
  }
  EXPECT_EQ(a.key(), b.key());
  EXPECT_NE(a.key(), Position::Start().key());
}

TEST(Position, GivesCheckAgreesWithMakingTheMove) {
  int checks = 0;
  for (const Position& pos : testing::RandomPlayPositions(200, 120, 23)) {
    for (Move m : LegalMoves(pos)) {
      Position child = pos;
      child.MakeMove(m);
      ASSERT_EQ(pos.GivesCheck(m), child.InCheck())
          << pos.ToFen() << " " << int(m.from()) << "-" << int(m.to());
      checks += child.InCheck();
    }
  }
  EXPECT_GT(checks, 100);  // the positions hold checks to tell apart
}

TEST(Position, KeyAfterIsTheChildsKeyUnlessCastlingOrEnPassantChange) {
  int exact = 0, moves = 0;
  for (const Position& pos : testing::RandomPlayPositions(200, 120, 29)) {
    for (Move m : LegalMoves(pos)) {
      Position child = pos;
      child.MakeMove(m);
      ++moves;
      const bool approximate =
          m.flag() == kKingCastle || m.flag() == kQueenCastle ||
          m.flag() == kEnPassant ||
          child.castling_rights() != pos.castling_rights() ||
          child.en_passant_square() != pos.en_passant_square();
      if (approximate) continue;
      ASSERT_EQ(pos.KeyAfter(m), child.key())
          << pos.ToFen() << " " << int(m.from()) << "-" << int(m.to());
      ++exact;
    }
  }
  EXPECT_GT(exact, moves * 9 / 10);  // the exceptions are rare
}

TEST(Position, GivesCheckByCastlingEnPassantAndDiscovery) {
  struct Case {
    const char* fen;
    Square from, to;
    int flag;
  };
  // Castling rook checks on f1's file; an en-passant capture opens a rook's
  // rank; a knight leaving a bishop's diagonal discovers check; an
  // under-promotion to a knight checks where a queen would not.
  for (const Case& c :
       {Case{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", 4, 6, kKingCastle},
        Case{"8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1", 36, 43, kEnPassant},
        Case{"7k/8/8/8/8/2N5/8/B6K w - - 0 1", 18, 35, kQuiet},
        Case{"8/4P3/3k4/8/8/8/8/K7 w - - 0 1", 52, 60, kPromotion + 0}}) {
    absl::StatusOr<Position> pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << pos.status();
    const Move m(c.from, c.to, c.flag);
    Position child = *pos;
    child.MakeMove(m);
    EXPECT_TRUE(child.InCheck()) << c.fen;
    EXPECT_TRUE(pos->GivesCheck(m)) << c.fen;
  }
}

TEST(Position, NullMoveFlipsSideAndKey) {
  Position pos = Position::Start();
  Position null = pos;
  null.MakeNullMove();
  EXPECT_EQ(null.side_to_move(), kBlack);
  EXPECT_EQ(null.key(), null.ComputeKey());
  EXPECT_NE(null.key(), pos.key());
}

// Chess960: Shredder-FEN and X-FEN castling rights, printed back as X-FEN.
TEST(Chess960Test, CastlingRightsReadAndWritten) {
  struct Case {
    const char* in;
    const char* out;
  } cases[] = {
      // Outermost rooks: X-FEN's KQkq.
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
       "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      // An inner rook with another beyond it: its file.
      {"1r2k1rr/8/8/8/8/8/8/RR2K2R w BHbg - 0 1",
       "1r2k1rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Position> pos = Position::FromFen(c.in, true);
    ASSERT_TRUE(pos.ok()) << c.in << ": " << pos.status();
    EXPECT_TRUE(pos->chess960());
    EXPECT_EQ(pos->ToFen(), c.out);
    absl::StatusOr<Position> again = Position::FromFen(pos->ToFen(), true);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->key(), pos->key()) << c.in;
  }
  // Shredder letters without Chess960, or a right without its rook: refused.
  EXPECT_THAT(std::string(Position::FromFen(cases[0].in).status().message()),
              ::testing::HasSubstr("needs Chess960"));
  EXPECT_FALSE(Position::FromFen("4k3/8/8/8/8/8/8/4K3 w H - 0 1", true).ok());
  EXPECT_FALSE(Position::FromFen("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", true).ok());
}

TEST(Chess960Test, CastlingIsKingTakesOwnRook) {
  // King b1, rooks a1 and h1: queen side castling leaves the king on c1 and
  // the rook on d1; king side, the king on g1 and the rook on f1.
  EXPECT_FALSE(Position::FromFen("6k1/8/8/8/8/8/8/RK5R w AH - 0 1").ok());
  const Position pos =
      *Position::FromFen("6k1/8/8/8/8/8/8/RK5R w AH - 0 1", true);
  Move queen_side, king_side;
  for (Move m : LegalMoves(pos)) {
    if (m.flag() == kQueenCastle) queen_side = m;
    if (m.flag() == kKingCastle) king_side = m;
  }
  ASSERT_FALSE(queen_side.is_none());
  EXPECT_EQ(queen_side.to(), kA1);  // the rook's square
  ASSERT_FALSE(king_side.is_none());
  EXPECT_EQ(king_side.to(), kH1);
  Position after = pos;
  after.MakeMove(queen_side);
  EXPECT_EQ(after.ToFen(), "6k1/8/8/8/8/8/8/2KR3R b - - 1 1");
  EXPECT_EQ(after.key(), after.ComputeKey());
  after = pos;
  after.MakeMove(king_side);
  EXPECT_EQ(after.ToFen(), "6k1/8/8/8/8/8/8/R4RK1 b - - 1 1");
  EXPECT_EQ(after.key(), after.ComputeKey());
  // An enemy rook behind the castling rook: with the rook gone the king
  // would stand attacked on c1, so no castling that way.
  const Position shielded =
      *Position::FromFen("6k1/8/8/8/8/8/8/r1RK4 w C - 0 1", true);
  for (Move m : LegalMoves(shielded)) EXPECT_FALSE(m.is_castle());
}

}  // namespace
}  // namespace chess
