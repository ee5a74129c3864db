#include "engine/evaluate.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "engine/config.h"
#include "engine/eval_terms.h"
#include "engine/eval_weights.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

EvalWeights LoadWeights(const std::string& name) {
  auto config =
      LoadEngineConfig(absl::StrCat("configs/engines/", name, ".textproto"));
  EXPECT_TRUE(config.ok()) << config.status();
  auto weights = EvalWeights::FromProto(config->eval());
  EXPECT_TRUE(weights.ok()) << weights.status();
  return *weights;
}

// The term counts of a position given by FEN (all zero, and a failure, if
// the FEN is bad).
std::array<int, kNumEvalTerms> TermsOf(const std::string& fen) {
  auto pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  return pos.ok() ? CountEvalTerms(*pos) : std::array<int, kNumEvalTerms>{};
}

TEST(EvaluateTest, FastEqualsReferenceForEveryShippedConfig) {
  const auto positions = testing::RandomPlayPositions(200, 120, 7);
  for (const char* name : {"default", "simplified", "material", "pesto"}) {
    SCOPED_TRACE(name);
    const EvalWeights weights = LoadWeights(name);
    const Evaluator evaluator(weights);
    for (const Position& pos : positions) {
      ASSERT_EQ(evaluator.Evaluate(pos), ReferenceEvaluate(pos, weights))
          << pos.ToFen();
    }
  }
}

// Every positional term weighted (by distinct weights, so that a term counted
// in the wrong slot shows): the fast evaluation still equals the reference.
TEST(EvaluateTest, FastEqualsReferenceWithEveryTerm) {
  EvalWeights weights = LoadWeights("pesto");
  for (int t = 0; t < kNumEvalTerms; ++t) {
    weights.weight[kMg][kTermFeatures + t] = 3 + 7 * t;
    weights.weight[kEg][kTermFeatures + t] = 11 - 5 * t;
  }
  const Evaluator evaluator(weights);
  const auto positions = testing::RandomPlayPositions(300, 120, 11);
  for (const Position& pos : positions) {
    ASSERT_EQ(evaluator.Evaluate(pos), ReferenceEvaluate(pos, weights))
        << pos.ToFen();
  }
  // Through a pawn cache, cold and then warm (two positions share a slot
  // whenever their pawns collide in a table this small), the same again.
  PawnCache cache(4);
  for (int pass = 0; pass < 2; ++pass) {
    for (const Position& pos : positions) {
      ASSERT_EQ(evaluator.Evaluate(pos, &cache), evaluator.Evaluate(pos))
          << pos.ToFen() << " pass " << pass;
    }
  }
  // Colour symmetry: the mirrored position counts every term negated.
  auto a = Position::FromFen(
      "r1bqk2r/pp3ppp/2n2n2/2bpp3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w kq - 0 7");
  auto b = Position::FromFen(
      "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2BPP3/2N2N2/PP3PPP/R1BQK2R b KQ - 0 7");
  ASSERT_TRUE(a.ok() && b.ok());
  const auto ca = CountEvalTerms(*a), cb = CountEvalTerms(*b);
  for (int t = 0; t < kNumEvalTerms; ++t)
    EXPECT_EQ(ca[t], -cb[t]) << EvalTermName(t);
}

TEST(EvalTermsTest, PawnTermsAreWhatThePawnsAloneDecide) {
  for (int i = 0; i < kNumPawnTerms; ++i)
    EXPECT_EQ(PawnTermIndex(kPawnTerms[i]), i);
  EXPECT_EQ(PawnTermIndex(kMobilityKnight), -1);
  // The same pawns with other pieces and kings: the same pawn-term counts.
  const auto a = TermsOf("4k3/8/3P4/8/P7/P1P5/4P3/4K3 w - - 0 1");
  const auto b = TermsOf("1q2k1n1/2r5/3P4/8/P7/P1P5/4P3/R1B1K1Q1 b - - 0 1");
  for (EvalTerm t : kPawnTerms) EXPECT_EQ(a[t], b[t]) << EvalTermName(t);
}

TEST(EvalTermsTest, PawnStructureAndPiecesCountedByHand) {
  // White: passed pawns on d6 and a4 (a3 behind it is not), doubled and
  // isolated a-pawns, the bishop pair, a rook on the open e-file. Black: a
  // passed, isolated h7 pawn and a rook on the half-open d-file.
  const auto c = TermsOf("3r2k1/7p/3P4/8/P7/P7/8/2B1RBK1 w - - 0 1");
  EXPECT_EQ(c[kPassedRank6], 1);       // d6
  EXPECT_EQ(c[kPassedRank4], 1);       // a4
  EXPECT_EQ(c[kPassedRank3], 0);       // a3, behind a4
  EXPECT_EQ(c[kPassedRank2], -1);      // h7: Black's second rank
  EXPECT_EQ(c[kDoubledPawn], 1);       // a3 has a4 ahead
  EXPECT_EQ(c[kIsolatedPawn], 3 - 1);  // a3, a4, d6 against h7
  EXPECT_EQ(c[kBishopPair], 1);
  EXPECT_EQ(c[kRookOpenFile], 1);       // e1
  EXPECT_EQ(c[kRookHalfOpenFile], -1);  // d8
}

TEST(EvalTermsTest, PawnChainAndPassedPawnsCountedByHand) {
  // White c3, d4, e4 against bare kings on e1 and e8: all passed, c3 and d4
  // with a free path (Black's king stands on e4's); d4 is defended by c3; d4
  // and e4 stand side by side.
  const auto c = TermsOf("4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1");
  EXPECT_EQ(c[kSupportedPawn], 1);
  EXPECT_EQ(c[kPhalanxPawn], 2);
  // Weights by relative rank: c3 1, d4 3, e4 3.
  EXPECT_EQ(c[kPassedFreePath], 1 + 3);
  // Stop squares c4, d5, e5: Black's king 4, 3, 3 away; White's 3, 4, 4.
  EXPECT_EQ(c[kPassedTheirKingDistance], 1 * 4 + 3 * 3 + 3 * 3);
  EXPECT_EQ(c[kPassedOurKingDistance], 1 * 3 + 3 * 4 + 3 * 4);
  // d, e, f have no black pawn; by White's king only f has no white one.
  EXPECT_EQ(c[kKingOpenFile], 3 - 1);
  EXPECT_EQ(c[kKingStorm], 0);
  EXPECT_EQ(c[kBackwardPawn], 0);
}

TEST(EvalTermsTest, BackwardPawnAndKingDangerCountedByHand) {
  // d3 is behind both its neighbours and e5 attacks d4: backward.
  const auto p = TermsOf("4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1");
  EXPECT_EQ(p[kBackwardPawn], 1);
  EXPECT_EQ(p[kIsolatedPawn], -1);  // e5
  EXPECT_EQ(p[kSupportedPawn], 2);  // c4 and e4, by d3
  EXPECT_EQ(p[kPhalanxPawn], 0);
  // The knight on g5 (f7, h7) and the queen on d5 (f7) reach the squares
  // around g8: (2 + 5)^2 / 4 = 12. A lone attacker would count nothing.
  EXPECT_EQ(TermsOf("6k1/5ppp/8/3Q2N1/8/8/5PPP/6K1 w - - 0 1")[kKingDanger],
            12);
  EXPECT_EQ(TermsOf("6k1/5ppp/8/6N1/8/8/5PPP/6K1 w - - 0 1")[kKingDanger], 0);
  // White's g5 and h6 pawns stand within three ranks of Black's king.
  EXPECT_EQ(TermsOf("6k1/5p1p/7P/6P1/8/8/5P2/6K1 w - - 0 1")[kKingStorm], 2);
}

TEST(EvalTermsTest, SafeChecksAndHangingPiecesCountedByHand) {
  // White's knight checks from d6 (c7 is covered by Black's rook), the queen
  // from h5, h8 and e4 (d8 and e7 are covered by Black's king); Black's rook
  // from a1 (e7 is covered by White's queen). The rook on a7 is attacked by
  // the knight and defended by nothing; nothing of White's is attacked.
  const auto c = TermsOf("4k3/r7/8/1N6/7Q/8/8/4K3 w - - 0 1");
  EXPECT_EQ(c[kSafeCheckKnight], 1);
  EXPECT_EQ(c[kSafeCheckBishop], 0);
  EXPECT_EQ(c[kSafeCheckRook], -1);
  EXPECT_EQ(c[kSafeCheckQueen], 3);
  EXPECT_EQ(c[kHangingPiece], 1);
}

TEST(EvalTermsTest, PlacementTermsCountedByHand) {
  // White: Ra7 on the seventh, Nd3 behind the d4 pawn, Bc1 on the dark
  // squares with d4. Black's king on b8 attacks the undefended rook; its
  // knight on h8 reaches only g6 and f7, one square short of 3. White's king
  // has no pawn on its flank (e to h), Black's has d4 on its own (a to d).
  const auto c = TermsOf("1k5n/R7/8/8/3P4/3N4/8/2B3K1 w - - 0 1");
  EXPECT_EQ(c[kRookOnSeventh], 1);
  EXPECT_EQ(c[kMinorBehindPawn], 1);
  EXPECT_EQ(c[kBishopPawns], 1);
  EXPECT_EQ(c[kThreatByKing], -1);
  EXPECT_EQ(c[kLowMobilityKnight], -1);
  EXPECT_EQ(c[kKingPawnlessFlank], -1);
  // White: 11 safe central squares (c2-f4 but d4) times 3 pieces, over 4;
  // Black: 10 (c5-f7 but c5 and e5, which d4 attacks) times its knight, over 4.
  EXPECT_EQ(c[kSpace], 11 * 3 / 4 - 10 * 1 / 4);
}

TEST(EvalTermsTest, ThreatTermsCountedByHand) {
  // Ra1 and Kg2 attack the undefended queen on h1; d4-d5 would attack the
  // knight on e6 from a square Black does not attack.
  const auto c = TermsOf("4k3/8/4n3/8/3P4/8/6K1/R6q w - - 0 1");
  EXPECT_EQ(c[kThreatByRook], 1);
  EXPECT_EQ(c[kThreatByKing], 1);
  EXPECT_EQ(c[kThreatByPawnPush], 1);
  // The passed e5 pawn (relative rank 4: weight 6) is blocked by the knight.
  EXPECT_EQ(TermsOf("4k3/8/4n3/4P3/8/8/8/4K3 w - - 0 1")[kPassedBlocked], 6);
  // The rook on d1 attacks d7 and d8, which only Black's king defends.
  EXPECT_EQ(TermsOf("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")[kKingWeakSquares], 2);
  // The queen on d5 reaches f7 next to g8 (5 units; f7 is weak: only the
  // king defends it) and checks safely from d8 and a8: (5 + 3 * 2 + 2 * 1)^2
  // / 8. Black, without a queen, counts nothing.
  EXPECT_EQ(
      TermsOf("6k1/5ppp/8/3Q4/8/8/5PPP/6K1 w - - 0 1")[kKingDangerWithChecks],
      13 * 13 / 8);
}

TEST(EvalTermsTest, ShelterStormAndPiecePlacementCountedByHand) {
  // White's shield is f2, g2, h2 (none two ranks ahead); Black's is f7, h7
  // and g6, two ranks ahead of g8. White's g5 storms g8 and is blocked by g6.
  const auto king = TermsOf("6k1/5p1p/6p1/6P1/8/8/5PPP/6K1 w - - 0 1");
  EXPECT_EQ(king[kKingShield], 0);
  EXPECT_EQ(king[kKingShieldFar], -1);
  EXPECT_EQ(king[kKingStorm], 1);
  EXPECT_EQ(king[kKingStormBlocked], 1);
  EXPECT_EQ(king[kKingPawnDistance], 1 - 1);
  // Nd4 attacks the bishop on c6, Ra1 the knight on a5 and Be5 the pawn on
  // g7, none defended by a pawn; Black attacks nothing of White's. Only
  // Black's bishop sees two centre squares (d5, e4); the rook stands on the
  // queen's file. Minors from their kings: 3 + 4 against 2 + 4; White has no
  // pawn, Black's king is two squares from g7.
  const auto pieces = TermsOf("q3k3/6p1/2b5/n3B3/3N4/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(pieces[kThreatMinorOnMinor], 1);
  EXPECT_EQ(pieces[kThreatRookOnMinor], 1);
  EXPECT_EQ(pieces[kThreatOnWeakPawn], 1);
  EXPECT_EQ(pieces[kBishopLongDiagonal], -1);
  EXPECT_EQ(pieces[kRookOnQueenFile], 1);
  EXPECT_EQ(pieces[kMinorKingDistance], 7 - 6);
  EXPECT_EQ(pieces[kKingPawnDistance], 0 - 2);
  // The bishop on d5 is an outpost; c4 and h2 are isolated and unopposed,
  // as is Black's a7.
  const auto pawns = TermsOf("4k3/p7/8/3B4/2P5/8/7P/4K3 w - - 0 1");
  EXPECT_EQ(pawns[kBishopOutpost], 1);
  EXPECT_EQ(pawns[kKnightOutpost], 0);
  EXPECT_EQ(pawns[kWeakUnopposedPawn], 2 - 1);
}

TEST(EvalTermsTest, PassedPawnsOutpostsAndEndingsCountedByHand) {
  // a5 and b5 are passed and side by side (relative rank 4: weight 6 each);
  // the rook on a1 stands behind a5; Black, with nothing but pawns, cannot
  // catch either (its king needs 7 moves, the pawns 3). h7 is Black's
  // passer on its second rank (weight 0).
  const auto passed = TermsOf("7k/7p/8/PP6/8/8/8/R5K1 w - - 0 1");
  EXPECT_EQ(passed[kPassedRookBehind], 1);
  EXPECT_EQ(passed[kPassedConnected], 6 + 6);
  EXPECT_EQ(passed[kPassedUnstoppable], 2);
  // The rook on h1 can go to g1 alone, beside its king on f1.
  EXPECT_EQ(TermsOf("4k3/8/8/8/8/8/6PP/5K1R w - - 0 1")[kRookTrapped], 1);
  // The queen on d6 cannot be chased by a pawn; the knight on b3 reaches
  // d4, which c3 defends and no black pawn can attack.
  const auto pieces = TermsOf("4k3/p6p/3Q4/8/8/1NP5/8/4K3 w - - 0 1");
  EXPECT_EQ(pieces[kQueenInfiltration], 1);
  EXPECT_EQ(pieces[kKnightReachableOutpost], 1);
  // Bishops on c1 (dark) and d5 (light); a rook each.
  const auto bishops = TermsOf("4k3/8/8/3b4/8/8/PP6/2B1K3 w - - 0 1");
  EXPECT_EQ(bishops[kOppositeBishopsPawns], 2);
  EXPECT_EQ(bishops[kRookEndingPawns], 0);
  const auto rooks = TermsOf("4k2r/p7/8/8/8/8/PP6/R3K3 w - - 0 1");
  EXPECT_EQ(rooks[kRookEndingPawns], 1);
  EXPECT_EQ(rooks[kOppositeBishopsPawns], 0);
}

TEST(EvaluateTest, MirroredPositionScoresTheSameForTheMover) {
  // PeSTO's tables are colour-symmetric, so swapping colours and flipping the
  // board must not change the score from the side to move's view.
  const EvalWeights weights = LoadWeights("pesto");
  const Evaluator evaluator(weights);
  auto a = Position::FromFen(
      "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  auto b = Position::FromFen(
      "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(evaluator.Evaluate(*a), evaluator.Evaluate(*b));
}

TEST(EvaluateTest, StartPositionIsTheTempoBonus) {
  const EvalWeights weights = LoadWeights("pesto");
  const Evaluator evaluator(weights);
  // Full phase: only the middle-game tempo counts.
  EXPECT_EQ(evaluator.Evaluate(Position::Start()),
            weights.weight[kMg][kTempoFeature]);
}

TEST(EvaluateTest, PhaseRunsFromFullToPawnEnding) {
  const std::array<int, 6> w = {0, 1, 1, 2, 4, 0};
  EXPECT_EQ(GamePhase(Position::Start(), w), 24);
  auto ending = Position::FromFen("8/5k2/3p4/8/3P4/8/5K2/8 w - - 0 1");
  ASSERT_TRUE(ending.ok());
  EXPECT_EQ(GamePhase(*ending, w), 0);
}

TEST(EvalWeightsTest, ProtoRoundTripAndNamesAreUnique) {
  const EvalWeights weights = LoadWeights("pesto");
  auto again = EvalWeights::FromProto(weights.ToProto());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->weight, weights.weight);
  std::set<std::string> names;
  for (int f = 0; f < kNumFeatures; ++f) {
    const std::string name = EvalWeights::FeatureName(f);
    EXPECT_TRUE(names.insert(name).second) << name;
    int found = -1;
    Phase phase;
    ASSERT_TRUE(EvalWeights::FindWeight(name + ".eg", &found, &phase)) << name;
    EXPECT_EQ(found, f);
    EXPECT_EQ(phase, kEg);
  }
  EXPECT_EQ(EvalWeights::FeatureName(kPstFeatures + 64 + 36), "pst.knight.e4");
}

}  // namespace
}  // namespace chess
