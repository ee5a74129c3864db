#include "engine/game.h"

#include "gtest/gtest.h"

namespace chess {
namespace {

Game FromFen(const char* fen) { return Game(*Position::FromFen(fen)); }

TEST(Game, ThreefoldRepetitionNeedsThreeOccurrences) {
  Game game;
  for (const char* m :
       {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"}) {
    ASSERT_TRUE(game.PlayUci(m).ok());
    EXPECT_EQ(game.GetOutcome().result, GameResult::kOngoing);
  }
  ASSERT_TRUE(game.PlayUci("f6g8").ok());
  EXPECT_EQ(game.RepetitionCount(), 3);
  Outcome outcome = game.GetOutcome();
  EXPECT_EQ(outcome.result, GameResult::kDraw);
  EXPECT_EQ(outcome.termination, Termination::kThreefoldRepetition);
}

TEST(Game, LostCastlingRightsMakeADifferentPosition) {
  // Ke1-e2-e1 returns to the same squares but without castling rights.
  Game game = FromFen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  for (const char* m :
       {"e1e2", "e8d8", "e2e1", "d8e8", "e1e2", "e8d8", "e2e1", "d8e8"}) {
    ASSERT_TRUE(game.PlayUci(m).ok());
  }
  EXPECT_EQ(game.RepetitionCount(),
            2);  // the start, with rights, does not count
  EXPECT_EQ(game.GetOutcome().result, GameResult::kOngoing);
}

TEST(Game, FiftyMoveRule) {
  Game game = FromFen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
  EXPECT_EQ(game.GetOutcome().result, GameResult::kOngoing);
  ASSERT_TRUE(game.PlayUci("a1a2").ok());
  EXPECT_EQ(game.GetOutcome().termination, Termination::kFiftyMoveRule);
}

TEST(Game, CheckmateOnTheHundredthPlyWins) {
  Game game = FromFen("7k/8/6K1/8/8/8/8/1Q6 w - - 99 80");
  ASSERT_TRUE(game.PlaySan("Qb8#").ok());
  Outcome outcome = game.GetOutcome();
  EXPECT_EQ(outcome.result, GameResult::kWhiteWins);
  EXPECT_EQ(outcome.termination, Termination::kCheckmate);
}

TEST(Game, Stalemate) {
  Outcome outcome = FromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").GetOutcome();
  EXPECT_EQ(outcome.result, GameResult::kDraw);
  EXPECT_EQ(outcome.termination, Termination::kStalemate);
}

TEST(Game, BlackMates) {
  Game game;
  for (const char* m : {"f3", "e5", "g4", "Qh4#"})
    ASSERT_TRUE(game.PlaySan(m).ok());
  EXPECT_EQ(game.GetOutcome().result, GameResult::kBlackWins);
}

TEST(InsufficientMaterial, Cases) {
  auto dead = [](const char* fen) {
    return IsInsufficientMaterial(*Position::FromFen(fen));
  };
  EXPECT_TRUE(dead("8/8/8/4k3/8/8/8/4K3 w - - 0 1"));   // K v K
  EXPECT_TRUE(dead("8/8/8/4k3/8/8/8/4KN2 w - - 0 1"));  // KN v K
  EXPECT_TRUE(dead("8/8/8/4k3/8/8/8/4KB2 w - - 0 1"));  // KB v K
  EXPECT_TRUE(dead(
      "8/8/8/3bk3/8/8/8/4KB2 w - - 0 1"));  // KB v KB, both on light squares
  EXPECT_FALSE(dead("8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1"));  // opposite colours
  EXPECT_FALSE(dead("8/8/8/2n1k3/8/8/8/4KB2 w - - 0 1"));  // KB v KN
  EXPECT_FALSE(dead("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1"));   // KNN v K
  EXPECT_FALSE(dead("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"));   // a pawn
  EXPECT_FALSE(dead("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"));    // a rook
  Outcome outcome = FromFen("8/8/8/4k3/8/8/8/4KN2 w - - 0 1").GetOutcome();
  EXPECT_EQ(outcome.termination, Termination::kInsufficientMaterial);
}

TEST(Game, RejectsIllegalMoves) {
  Game game;
  EXPECT_FALSE(game.PlayUci("e2e5").ok());
  EXPECT_FALSE(game.PlaySan("Ke2").ok());
  EXPECT_TRUE(game.moves().empty());
}

}  // namespace
}  // namespace chess
