#include "engine/correction_history.h"

#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::chess::testing::FromFen;

const char kStructure[] =
    "r1bqkb1r/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 7";
// The same pawns, the pieces elsewhere and a knight fewer.
const char kSamePawns[] =
    "r2qkb1r/pp1b1ppp/4pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 8";
// One pawn elsewhere.
const char kOtherPawns[] =
    "r1bqkb1r/pp3ppp/2n1pn2/3p4/3P4/2NPPN2/PP4PP/R1BQKB1R w KQkq - 0 7";

// As the search uses it: each update from the corrected evaluation.
void Learn(CorrectionHistory& history, const Position& pos, int raw_eval,
           int searched, int depth, int times) {
  for (int i = 0; i < times; ++i)
    history.Update(pos, history.Correct(pos, raw_eval), searched, kBoundExact,
                   depth);
}

TEST(CorrectionHistoryTest, KeysFollowThePawnsOnly) {
  const Position pos = FromFen(kStructure);
  EXPECT_EQ(CorrectionHistory::PawnKey(pos),
            CorrectionHistory::PawnKey(FromFen(kSamePawns)));
  EXPECT_NE(CorrectionHistory::PawnKey(pos),
            CorrectionHistory::PawnKey(FromFen(kOtherPawns)));
}

TEST(CorrectionHistoryTest, NothingLearnedChangesNothing) {
  CorrectionHistory history;
  const Position pos = FromFen(kStructure);
  EXPECT_EQ(history.Correct(pos, 37), 37);
  history.Update(pos, 0, 40, kBoundExact, 10);
  EXPECT_NE(history.Correct(pos, 37), 37);
  history.Clear();
  EXPECT_EQ(history.Correct(pos, 37), 37);
}

TEST(CorrectionHistoryTest, LearnsWhatTheSearchFinds) {
  CorrectionHistory history;
  const Position pos = FromFen(kStructure);
  Learn(history, pos, 10, 40, 12, 200);
  // Settles on +30 (integer steps stop it a centipawn short at most).
  EXPECT_NEAR(history.Correct(pos, 10), 40, 1);
  // Another position with the same pawns shares it, one with other pawns
  // does not, nor does the other side to move.
  EXPECT_NEAR(history.Correct(FromFen(kSamePawns), 0), 30, 1);
  EXPECT_EQ(history.Correct(FromFen(kOtherPawns), 0), 0);
  const Position black_to_move = FromFen(
      "r1bqkb1r/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 0 7");
  EXPECT_EQ(history.Correct(black_to_move, 0), 0);
}

// A search whose scores already include the correction (they come from
// corrected leaves) confirms it and does not inflate it.
TEST(CorrectionHistoryTest, ScoresThatIncludeTheCorrectionKeepIt) {
  CorrectionHistory history;
  const Position pos = FromFen(kStructure);
  Learn(history, pos, 0, 20, 12, 200);
  const int learned = history.Correct(pos, 0);
  EXPECT_NEAR(learned, 20, 1);
  Learn(history, pos, 0, learned, 12, 200);
  EXPECT_EQ(history.Correct(pos, 0), learned);
}

TEST(CorrectionHistoryTest, DeeperSearchesWeighMore) {
  CorrectionHistory shallow, deep;
  const Position pos = FromFen(kStructure);
  shallow.Update(pos, 0, 64, kBoundExact, 1);
  deep.Update(pos, 0, 64, kBoundExact, 12);
  EXPECT_GT(deep.Correct(pos, 0), shallow.Correct(pos, 0));
  // Half a centipawn for now, but kept: a second step makes one.
  shallow.Update(pos, 0, 64, kBoundExact, 1);
  EXPECT_EQ(shallow.Correct(pos, 0), 1);
}

// A bound teaches only when it lies beyond the evaluation: a fail-high above
// it, a fail-low below it. One on the evaluation's own side says nothing.
TEST(CorrectionHistoryTest, OnlyBoundsBeyondTheEvaluationTeach) {
  const Position pos = FromFen(kStructure);
  CorrectionHistory history;
  history.Update(pos, 0, -40, kBoundLower, 12);  // at least -40: nothing
  history.Update(pos, 0, 40, kBoundUpper, 12);   // at most 40: nothing
  history.Update(pos, 0, 0, kBoundLower, 12);    // at least the evaluation
  EXPECT_EQ(history.Correct(pos, 0), 0);
  history.Update(pos, 0, 40, kBoundLower, 12);
  EXPECT_GT(history.Correct(pos, 0), 0);
  history.Clear();
  history.Update(pos, 0, -40, kBoundUpper, 12);
  EXPECT_LT(history.Correct(pos, 0), 0);
}

TEST(CorrectionHistoryTest, CorrectionsAreBounded) {
  CorrectionHistory history;
  const Position pos = FromFen(kStructure);
  for (int i = 0; i < 500; ++i) history.Update(pos, 0, -5000, kBoundExact, 30);
  EXPECT_EQ(history.Correct(pos, 0), -64);
}

}  // namespace
}  // namespace chess
