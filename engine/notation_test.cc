#include "engine/notation.h"

#include "engine/movegen.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::chess::testing::FromFen;

std::string San(const char* fen, const char* uci) {
  Position pos = FromFen(fen);
  absl::StatusOr<Move> m = ParseUci(pos, uci);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? ToSan(pos, *m) : "";
}

TEST(Uci, RoundTrip) {
  Position pos = FromFen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1");
  for (Move m : LegalMoves(pos)) {
    absl::StatusOr<Move> parsed = ParseUci(pos, ToUci(m));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, m);
  }
  EXPECT_EQ(ToUci(*ParseUci(pos, "g2h1n")), "g2h1n");
  EXPECT_FALSE(ParseUci(pos, "g2h1").ok());  // a promotion needs its piece
  EXPECT_FALSE(ParseUci(pos, "e2e3").ok());  // white's king, black to move
  EXPECT_FALSE(ParseUci(pos, "zz").ok());
}

TEST(San, Writes) {
  EXPECT_EQ(San(kStartFen.data(), "g1f3"), "Nf3");
  EXPECT_EQ(San(kStartFen.data(), "e2e4"), "e4");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8"), "Rxa8+");
  // File, rank and full-square disambiguation.
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1"), "Rad1");
  EXPECT_EQ(San("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
  EXPECT_EQ(San("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2"), "Qa1b2");
  EXPECT_EQ(San("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n"), "axb8=N");
  EXPECT_EQ(San("3k4/P7/8/8/8/8/8/7K w - - 0 1", "a7a8q"), "a8=Q+");
  EXPECT_EQ(San("8/8/8/4k3/3Pp3/8/8/4K3 b - d3 0 1", "e4d3"), "exd3");
  EXPECT_EQ(San("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "b1b8"), "Qb8#");
  // A pinned knight does not make the other knight's move ambiguous.
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/r1N1KN2 w - - 0 1", "f1d2"), "Nd2");
}

TEST(San, ReadsVariants) {
  Position start = Position::Start();
  EXPECT_EQ(ToUci(*ParseSan(start, "Nf3")), "g1f3");
  EXPECT_EQ(ToUci(*ParseSan(start, "Ng1f3")), "g1f3");
  EXPECT_EQ(ToUci(*ParseSan(start, "e4!?")), "e2e4");
  Position castle = FromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(ToUci(*ParseSan(castle, "0-0")), "e1g1");
  EXPECT_EQ(ToUci(*ParseSan(castle, "O-O-O+")), "e1c1");
  Position promo = FromFen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(ToUci(*ParseSan(promo, "axb8Q")), "a7b8q");
  EXPECT_EQ(ToUci(*ParseSan(promo, "a8=R+")), "a7a8r");
  EXPECT_FALSE(ParseSan(promo, "a8").ok());  // promotion piece missing
  EXPECT_FALSE(ParseSan(promo, "a8=K").ok());
  EXPECT_FALSE(ParseSan(start, "Nd4").ok());  // not legal
  EXPECT_FALSE(ParseSan(start, "").ok());
  EXPECT_FALSE(ParseSan(start, "Q$$e4").ok());
  EXPECT_FALSE(ParseSan(FromFen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"), "Rd1")
                   .ok());  // ambiguous
}

// SAN's disambiguation worked out from every legal move: the oracle for
// ToSan, which looks only at the pieces that reach the square.
std::string SanPrefixFromLegalMoves(const Position& pos, Move m) {
  const PieceType type = TypeOf(pos.piece_on(m.from()));
  std::string san(1, "PNBRQK"[type]);
  bool ambiguous = false, same_file = false, same_rank = false;
  for (Move other : LegalMoves(pos)) {
    if (other == m || other.to() != m.to() ||
        TypeOf(pos.piece_on(other.from())) != type)
      continue;
    ambiguous = true;
    same_file |= FileOf(other.from()) == FileOf(m.from());
    same_rank |= RankOf(other.from()) == RankOf(m.from());
  }
  if (ambiguous) {
    san += !same_file   ? std::string(1, char('a' + FileOf(m.from())))
           : !same_rank ? std::string(1, char('1' + RankOf(m.from())))
                        : SquareName(m.from());
  }
  return san + (m.is_capture() ? "x" : "") + SquareName(m.to());
}

TEST(San, DisambiguatesAsTheLegalMovesSay) {
  std::vector<Position> positions = testing::RandomPlayPositions(40, 150, 7);
  // Three queens on one square's lines, knights and rooks in pairs, and a
  // pinned knight that must not count as a rival.
  for (const char* fen : {"7k/8/8/1Q1Q4/8/1Q6/8/K7 w - - 0 1",
                          "4k3/8/8/8/3N1N2/8/R6R/K7 w - - 0 1",
                          "k3r3/8/8/4N3/8/8/4K3/2N5 w - - 0 1",
                          "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1"})
    positions.push_back(FromFen(fen));
  int pieces = 0, disambiguated = 0;
  for (const Position& pos : positions) {
    for (Move m : LegalMoves(pos)) {
      const PieceType type = TypeOf(pos.piece_on(m.from()));
      if (type == kPawn || m.flag() == kKingCastle || m.flag() == kQueenCastle)
        continue;
      const std::string expected = SanPrefixFromLegalMoves(pos, m);
      const std::string san = ToSan(pos, m);
      ASSERT_EQ(san.substr(0, expected.size()), expected) << pos.ToFen();
      ASSERT_LE(san.size(), expected.size() + 1) << pos.ToFen();
      ++pieces;
      disambiguated += expected.size() > 3u + m.is_capture();
    }
  }
  EXPECT_GT(pieces, 20000);
  EXPECT_GT(disambiguated, 20);
  EXPECT_EQ(San("k3r3/8/8/4N3/8/8/4K3/2N5 w - - 0 1", "c1d3"), "Nd3");
  EXPECT_EQ(San("7k/8/8/1Q1Q4/8/1Q6/8/K7 w - - 0 1", "b5c4"), "Qb5c4");
}

TEST(San, RoundTripOverAllMovesOfRandomPositions) {
  int checked = 0;
  for (const Position& pos : testing::RandomPlayPositions(40, 150, 5)) {
    for (Move m : LegalMoves(pos)) {
      std::string san = ToSan(pos, m);
      absl::StatusOr<Move> parsed = ParseSan(pos, san);
      ASSERT_TRUE(parsed.ok()) << parsed.status();
      ASSERT_EQ(*parsed, m) << pos.ToFen() << " " << san;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50000);
}

}  // namespace
}  // namespace chess
