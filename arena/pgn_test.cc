#include "arena/pgn.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

MatchHeader Header() {
  MatchHeader header;
  MatchConfig* config = header.mutable_config();
  config->set_name("nightly");
  config->mutable_time_control()->set_base_ms(10000);
  config->mutable_time_control()->set_increment_ms(100);
  return header;
}

GameRecord FoolsMate() {
  GameRecord game;
  game.set_index(3);
  game.set_round(1);
  game.set_white("alpha");
  game.set_black("beta");
  game.set_end_time("2026-11-23T18:00:00Z");
  game.add_opening_moves("f2f3");
  for (const char* uci : {"e7e5", "g2g4", "d8h4"}) {
    MoveRecord* m = game.add_moves();
    m->set_uci(uci);
    m->set_score_cp(-35);
    m->set_depth(7);
    m->set_time_ms(1250);
  }
  game.mutable_moves(2)->set_mate(1);
  game.set_result(GameRecord::BLACK_WINS);
  game.set_termination(GameRecord::CHECKMATE);
  return game;
}

TEST(PgnTest, SevenTagRosterAndMovetextWithComments) {
  const std::string pgn = GameToPgn(FoolsMate(), Header());
  EXPECT_EQ(pgn,
            "[Event \"nightly\"]\n"
            "[Site \"chess-harness arena\"]\n"
            "[Date \"2026.11.23\"]\n"
            "[Round \"2.4\"]\n"
            "[White \"alpha\"]\n"
            "[Black \"beta\"]\n"
            "[Result \"0-1\"]\n"
            "[PlyCount \"4\"]\n"
            "[TimeControl \"10+0.1\"]\n"
            "[Termination \"normal\"]\n"
            "\n"
            "1. f3 {book} e5 {-0.35/7 1.250s} 2. g4 {-0.35/7 1.250s} Qh4# "
            "{+M1/7 1.250s} 0-1\n"
            "\n");
}

TEST(PgnTest, CommentsWriteScoresAndTimesAsPrintfWould) {
  for (const int cp : {0, 5, -5, 99, -100, 101, 1234, -30000}) {
    for (const int64_t ms : {int64_t(0), int64_t(7), int64_t(999),
                             int64_t(1000), int64_t(123456), int64_t(-42)}) {
      GameRecord game = FoolsMate();
      game.mutable_moves(0)->set_score_cp(cp);
      game.mutable_moves(0)->set_time_ms(ms);
      const std::string expected = absl::StrFormat(
          "e5 {%+.2f/7 %.3fs}", cp / 100.0, double(ms) / 1000.0);
      EXPECT_TRUE(absl::StrContains(GameToPgn(game, Header()), expected))
          << expected;
    }
  }
}

TEST(PgnTest, ANonStandardStartGetsSetUpAndFenAndBlackToMoveStartsWithDots) {
  GameRecord game;
  game.set_white("a");
  game.set_black("b");
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12";
  game.set_book_fen(fen);
  game.add_moves()->set_uci("e8d7");
  game.set_result(GameRecord::DRAW);
  game.set_termination(GameRecord::ADJUDICATED_DRAW);
  game.set_reason("both said 0.00");
  const std::string pgn = GameToPgn(game, Header());
  EXPECT_TRUE(absl::StrContains(pgn, "[SetUp \"1\"]\n[FEN \"" + fen + "\"]"));
  EXPECT_TRUE(absl::StrContains(pgn, "[Termination \"adjudication\"]"));
  EXPECT_TRUE(
      absl::StrContains(pgn, "[TerminationDetails \"both said 0.00\"]"));
  EXPECT_TRUE(absl::StrContains(pgn, "\n12... Kd7 {+0.00/0 0.000s} 1/2-1/2\n"))
      << pgn;
  EXPECT_TRUE(absl::StrContains(pgn, "[Date \"????.??.??\"]"));
}

TEST(PgnTest, TagValuesAreEscapedAndLongMovetextWraps) {
  GameRecord game = FoolsMate();
  game.set_white("say \"hi\"\\\n");
  const std::string pgn = GameToPgn(game, Header());
  EXPECT_TRUE(absl::StrContains(pgn, "[White \"say \\\"hi\\\"\\\\ \"]"));
  for (absl::string_view line : absl::StrSplit(pgn, '\n'))
    EXPECT_LE(line.size(), 79u) << line;
}

TEST(PgnTest, PerPlayerTimeControlAndOtherLimits) {
  MatchHeader header = Header();
  PlayerConfig* alpha = header.mutable_config()->add_players();
  alpha->set_name("alpha");
  alpha->mutable_time_control()->set_movetime_ms(500);
  EXPECT_TRUE(absl::StrContains(GameToPgn(FoolsMate(), header),
                                "[TimeControl \"0.5\"]"));
  TimeControl nodes;
  nodes.set_nodes(5000);
  EXPECT_EQ(DescribeTimeControl(nodes), "nodes 5000");
  EXPECT_EQ(ResultString(GameRecord::UNFINISHED), "*");
}

TEST(PgnTest, PgnTagValueDropsControlBytesAndReplacesBadUtf8) {
  EXPECT_EQ(PgnTagValue("a\tb\x01"
                        "c"),
            "a bc");
  EXPECT_EQ(PgnTagValue("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(PgnTagValue("bad\xff"), "bad?");
}

}  // namespace
}  // namespace chess
