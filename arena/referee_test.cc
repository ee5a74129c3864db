#include "arena/referee.h"

#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

// Plays the replies it is given, in order; then says it has nothing to play.
class ScriptedPlayer : public Player {
 public:
  explicit ScriptedPlayer(std::vector<MoveReply> replies,
                          absl::Status start = absl::OkStatus())
      : replies_(std::move(replies)), start_(std::move(start)) {}
  absl::Status NewGame() override { return start_; }
  absl::StatusOr<MoveReply> Go(const Game&, const SearchLimits&,
                               int64_t) override {
    if (next_ == replies_.size()) return absl::UnavailableError("script over");
    return replies_[next_++];
  }

 private:
  std::vector<MoveReply> replies_;
  absl::Status start_;
  size_t next_ = 0;
};

MoveReply Reply(const std::string& move, int score_cp, int mate = 0) {
  MoveReply r;
  r.move = move;
  r.has_score = true;
  r.score_cp = score_cp;
  r.mate = mate;
  return r;
}

MoveReply Unscored(const std::string& move) {
  MoveReply r;
  r.move = move;
  return r;
}

// Knights out and back: legal for as long as the test needs (the start
// position comes back at plies 4 and 8, a threefold repetition at 8).
std::vector<MoveReply> Shuffle(bool white, int moves, int score_cp) {
  std::vector<MoveReply> replies;
  for (int i = 0; i < moves; ++i) {
    const char* move =
        white ? (i % 2 ? "f3g1" : "g1f3") : (i % 2 ? "f6g8" : "g8f6");
    replies.push_back(Reply(move, score_cp));
  }
  return replies;
}

GameRecord Play(ScriptedPlayer& white, ScriptedPlayer& black,
                const Adjudication& adjudication) {
  GameRecord record;
  Opening opening{Position::Start(), {}};
  PlayGame(opening, Seat{&white, "white"}, Seat{&black, "black"}, adjudication,
           &record);
  return record;
}

TEST(RefereeTest, CheckmateEndsTheGameByTheRules) {
  ScriptedPlayer white({Reply("f2f3", 0), Reply("g2g4", 0)});
  ScriptedPlayer black({Reply("e7e5", 0), Reply("d8h4", 0, 1)});
  const GameRecord game = Play(white, black, Adjudication());
  EXPECT_EQ(game.result(), GameRecord::BLACK_WINS);
  EXPECT_EQ(game.termination(), GameRecord::CHECKMATE);
  ASSERT_EQ(game.moves_size(), 4);
  EXPECT_EQ(game.moves(3).mate(), 1);
  EXPECT_EQ(game.white(), "white");
}

// Moves its knights out and back, taking `think_ms` a move, and keeps what
// it was told.
class ClockedPlayer : public Player {
 public:
  ClockedPlayer(bool white, int64_t think_ms)
      : white_(white), think_ms_(think_ms) {}
  absl::Status NewGame() override { return absl::OkStatus(); }
  absl::StatusOr<MoveReply> Go(const Game&, const SearchLimits& limits,
                               int64_t) override {
    seen_.push_back(limits);
    std::this_thread::sleep_for(std::chrono::milliseconds(think_ms_));
    // A cycle of eight plies: the first threefold repetition is at ply 16.
    static constexpr const char* kWhite[] = {"g1f3", "b1c3", "f3g1", "c3b1"};
    static constexpr const char* kBlack[] = {"b8c6", "g8f6", "c6b8", "f6g8"};
    const size_t i = (seen_.size() - 1) % 4;
    return Unscored(white_ ? kWhite[i] : kBlack[i]);
  }
  const std::vector<SearchLimits>& seen() const { return seen_; }

 private:
  bool white_;
  int64_t think_ms_;
  std::vector<SearchLimits> seen_;
};

// 3 moves in 0.3 s, repeating: 80 ms a move would lose on time by the 4th
// move of a single period; the period's time comes back after every third
// move, and the moves to go count down to it.
TEST(RefereeTest, AMovesPerPeriodClockGivesItsTimeBackEachPeriod) {
  ClockedPlayer white(true, 80), black(false, 80);
  TimeControl tc;
  tc.set_base_ms(300);
  tc.set_moves(3);
  tc.set_margin_ms(200);
  Adjudication adjudication;
  adjudication.set_max_moves(7);
  GameRecord record;
  PlayGame(Opening{Position::Start(), {}}, Seat{&white, "white", tc},
           Seat{&black, "black", tc}, adjudication, &record);
  EXPECT_EQ(record.termination(), GameRecord::MAX_MOVES) << record.reason();
  ASSERT_EQ(white.seen().size(), 7u);
  const int expected_to_go[] = {3, 2, 1, 3, 2, 1, 3};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(white.seen()[i].moves_to_go, expected_to_go[i]) << i;
  }
  // After the third move the clock held what was left plus 300 ms again.
  EXPECT_GT(white.seen()[3].time_left_ms[kWhite],
            white.seen()[2].time_left_ms[kWhite]);
}

TEST(RefereeTest, ThreefoldRepetitionIsADraw) {
  ScriptedPlayer white(Shuffle(true, 10, 0));
  ScriptedPlayer black(Shuffle(false, 10, 0));
  const GameRecord game = Play(white, black, Adjudication());
  EXPECT_EQ(game.result(), GameRecord::DRAW);
  EXPECT_EQ(game.termination(), GameRecord::THREEFOLD_REPETITION);
  EXPECT_EQ(game.moves_size(), 8);
}

TEST(RefereeTest, ResignsWhenBothAgreeForEnoughMoves) {
  Adjudication adjudication;
  adjudication.set_resign_score_cp(500);
  adjudication.set_resign_moves(3);
  // White says +600 for itself, Black -600 for itself: both see White winning.
  ScriptedPlayer white(Shuffle(true, 10, 600));
  ScriptedPlayer black(Shuffle(false, 10, -600));
  const GameRecord game = Play(white, black, adjudication);
  EXPECT_EQ(game.result(), GameRecord::WHITE_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ADJUDICATED_RESIGN);
  EXPECT_EQ(game.moves_size(), 6);  // three moves each
}

TEST(RefereeTest, AMateScoreCountsAsBeyondTheResignScore) {
  Adjudication adjudication;
  adjudication.set_resign_score_cp(500);
  adjudication.set_resign_moves(1);
  ScriptedPlayer white({Reply("g1f3", 0, -9), Reply("f3g1", 0, -8)});
  ScriptedPlayer black({Reply("g8f6", 0, 8), Reply("f6g8", 0, 7)});
  const GameRecord game = Play(white, black, adjudication);
  EXPECT_EQ(game.result(), GameRecord::BLACK_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ADJUDICATED_RESIGN);
  EXPECT_EQ(game.moves_size(), 2);
}

TEST(RefereeTest, AMoveWithoutAScoreOrADissentRestartsTheResignCount) {
  Adjudication adjudication;
  adjudication.set_resign_score_cp(500);
  adjudication.set_resign_moves(2);
  std::vector<MoveReply> white_moves = Shuffle(true, 10, 600);
  white_moves[1] = Unscored("f3g1");  // ply 3
  std::vector<MoveReply> black_moves = Shuffle(false, 10, -600);
  black_moves[2] = Reply("g8f6", 100);  // ply 6: Black disagrees
  ScriptedPlayer white(white_moves);
  ScriptedPlayer black(black_moves);
  const GameRecord game = Play(white, black, adjudication);
  // Runs: plies 1-2, broken at 3; 4-5, broken at 6; 7 and 8 end in a
  // threefold repetition before four agreeing plies.
  EXPECT_EQ(game.termination(), GameRecord::THREEFOLD_REPETITION);
}

TEST(RefereeTest, DrawAdjudicationWaitsForTheMoveNumber) {
  Adjudication adjudication;
  adjudication.set_draw_moves(1);
  adjudication.set_draw_score_cp(10);
  adjudication.set_draw_move_number(2);
  ScriptedPlayer white(Shuffle(true, 10, 5));
  ScriptedPlayer black(Shuffle(false, 10, -5));
  const GameRecord game = Play(white, black, adjudication);
  EXPECT_EQ(game.result(), GameRecord::DRAW);
  EXPECT_EQ(game.termination(), GameRecord::ADJUDICATED_DRAW);
  // Two quiet plies by then, and move 2 reached: White's move 2 ends it.
  EXPECT_EQ(game.moves_size(), 3);
}

TEST(RefereeTest, MaxMovesDrawsAfterThatManyFullMoves) {
  Adjudication adjudication;
  adjudication.set_max_moves(3);
  ScriptedPlayer white(Shuffle(true, 10, 300));
  ScriptedPlayer black(Shuffle(false, 10, 300));
  const GameRecord game = Play(white, black, adjudication);
  EXPECT_EQ(game.result(), GameRecord::DRAW);
  EXPECT_EQ(game.termination(), GameRecord::MAX_MOVES);
  EXPECT_EQ(game.moves_size(), 6);
}

TEST(RefereeTest, AnIllegalMoveLosesAndIsNamed) {
  ScriptedPlayer white({Reply("e2e4", 0)});
  ScriptedPlayer black({Reply("e7e4", 0)});
  const GameRecord game = Play(white, black, Adjudication());
  EXPECT_EQ(game.result(), GameRecord::WHITE_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ILLEGAL_MOVE);
  EXPECT_TRUE(absl::StrContains(game.reason(), "black played \"e7e4\""))
      << game.reason();
  EXPECT_EQ(game.moves_size(), 1);
}

TEST(RefereeTest, APlayerThatStopsAnsweringOrCannotStartLoses) {
  ScriptedPlayer white({Reply("e2e4", 0)});
  ScriptedPlayer black({});
  GameRecord game = Play(white, black, Adjudication());
  EXPECT_EQ(game.result(), GameRecord::WHITE_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ENGINE_CRASH);

  ScriptedPlayer broken({}, absl::UnavailableError("no such program"));
  ScriptedPlayer black2({Reply("e7e5", 0)});
  game = Play(broken, black2, Adjudication());
  EXPECT_EQ(game.result(), GameRecord::BLACK_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ENGINE_START_FAILURE);
  EXPECT_TRUE(absl::StrContains(game.reason(), "no such program"));
}

// Syzygy adjudication with the real 3- and 4-piece tables of ../shared.
class TablebaseAdjudicationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path dir = testing::SharedDirectory("tablebases");
    if (dir.empty()) {
      GTEST_SKIP() << "../shared/tablebases is absent; skipping tablebase "
                      "adjudication";
    }
    adjudication_.set_tb_path((dir / "syzygy").string());
  }
  GameRecord PlayFrom(const std::string& fen, std::vector<MoveReply> white) {
    ScriptedPlayer w(std::move(white)), b({});
    GameRecord record;
    PlayGame(Opening{testing::FromFen(fen), {}}, Seat{&w, "white"},
             Seat{&b, "black"}, adjudication_, &record);
    return record;
  }
  Adjudication adjudication_;
};

TEST_F(TablebaseAdjudicationTest, CaptureIntoAWonEndingEndsTheGame) {
  // Kxe2 leaves king and queen against king: won for White.
  const GameRecord game =
      PlayFrom("4k3/8/8/8/8/8/4r3/3QK3 w - - 0 1", {Reply("e1e2", 0)});
  EXPECT_EQ(game.result(), GameRecord::WHITE_WINS);
  EXPECT_EQ(game.termination(), GameRecord::ADJUDICATED_TABLEBASE);
  EXPECT_EQ(game.reason(), "Syzygy tablebases: White wins");
}

TEST_F(TablebaseAdjudicationTest, DrawsOnlyWhenAskedFor) {
  // Kxb2 leaves a rook pawn the defending king stands in front of: a draw.
  const std::string fen = "k7/8/8/8/8/8/Pr6/K7 w - - 0 1";
  GameRecord game = PlayFrom(fen, {Reply("a1b2", 0)});
  EXPECT_EQ(game.result(), GameRecord::DRAW);
  EXPECT_EQ(game.termination(), GameRecord::ADJUDICATED_TABLEBASE);
  adjudication_.set_tb_adjudicate(Adjudication::WIN_LOSS);
  game = PlayFrom(fen, {Reply("a1b2", 0)});
  EXPECT_NE(game.termination(), GameRecord::ADJUDICATED_TABLEBASE);
  // With at most 3 pieces adjudicated, a 4-piece win is played on.
  adjudication_.set_tb_adjudicate(Adjudication::BOTH);
  adjudication_.set_tb_pieces(3);
  game = PlayFrom("4k3/8/8/8/8/8/4r3/2RQK3 w - - 0 1", {Reply("e1e2", 0)});
  EXPECT_NE(game.termination(), GameRecord::ADJUDICATED_TABLEBASE);
}

}  // namespace
}  // namespace chess
