#include "arena/fastchess_cli.h"

#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<FastchessMatch> Translate(const std::string& line) {
  return TranslateFastchessArgs(absl::StrSplit(line, ' ', absl::SkipEmpty()),
                                "/home/me");
}

std::string Error(const std::string& line) {
  auto m = Translate(line);
  return m.ok() ? "" : std::string(m.status().message());
}

// The classical moves/time clocks, with and without increment.
TEST(FastchessCliTest, MovesPerPeriodClocks) {
  for (const auto& [text, moves, base_ms, increment_ms] :
       {std::tuple{"40/60+0.6", 40, 60000, 600},
        std::tuple{"40/60", 40, 60000, 0},
        std::tuple{"10+0.1", 0, 10000, 100}}) {
    auto m = Translate(absl::StrCat(
        "-engine cmd=./dev name=dev -engine cmd=base name=base -each tc=", text,
        " -rounds 2 -repeat"));
    ASSERT_TRUE(m.ok()) << text << ": " << m.status();
    EXPECT_EQ(m->config.time_control().moves(), moves) << text;
    EXPECT_EQ(m->config.time_control().base_ms(), base_ms) << text;
    EXPECT_EQ(m->config.time_control().increment_ms(), increment_ms) << text;
  }
}

// fastchess's node-limited form: no clock, the nodes the limit.
TEST(FastchessCliTest, InfiniteClockWithANodeLimit) {
  auto m = Translate(
      "-engine cmd=./dev name=dev -engine cmd=base name=base -each tc=inf "
      "nodes=500 -rounds 2 -repeat");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->config.time_control().nodes(), 500);
  EXPECT_FALSE(m->config.time_control().has_base_ms());
  EXPECT_FALSE(m->config.time_control().has_increment_ms());
}

// Tablebase adjudication as fastchess spells it: directories made absolute.
TEST(FastchessCliTest, TablebaseAdjudication) {
  const std::string engines =
      "-engine cmd=./dev name=dev -engine cmd=base name=base -each tc=inf "
      "nodes=500 -rounds 2 -repeat ";
  auto m = Translate(engines +
                     "-tb tb/wdl;/srv/tb -tbpieces 5 -tbadjudicate WIN_LOSS "
                     "-tbignore50");
  ASSERT_TRUE(m.ok()) << m.status();
  const Adjudication& a = m->config.adjudication();
  EXPECT_EQ(a.tb_path(), "/home/me/tb/wdl:/srv/tb");
  EXPECT_EQ(a.tb_pieces(), 5);
  EXPECT_EQ(a.tb_adjudicate(), Adjudication::WIN_LOSS);
  EXPECT_TRUE(a.tb_ignore_50_move_rule());
  EXPECT_THAT(Error(engines + "-tb /tb -tbadjudicate SOMETIMES"),
              HasSubstr("BOTH, WIN_LOSS or DRAW"));
  EXPECT_THAT(Error(engines + "-tb /tb -tbpieces 9"), HasSubstr("-tbpieces"));
  EXPECT_THAT(Error(engines + "-tbpieces 5"), HasSubstr("need -tb"));
  EXPECT_THAT(Error(engines + "-tb /tb -tbignore50 yes"),
              HasSubstr("takes no value"));
}

// -games 1 without -repeat (fastchess's default): single games.
TEST(FastchessCliTest, UnpairedGames) {
  auto m = Translate(
      "-engine cmd=./dev name=dev -engine cmd=base name=base -each tc=inf "
      "nodes=500 -rounds 3");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->config.unpaired());
  EXPECT_EQ(m->config.games(), 3);
  m = Translate(
      "-engine cmd=./dev name=dev -engine cmd=base name=base -each tc=inf "
      "nodes=500 -rounds 3 -games 2");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_FALSE(m->config.unpaired());
  EXPECT_EQ(m->config.games(), 6);
}

TEST(FastchessCliTest, Chess960Variant) {
  const std::string engines =
      "-engine cmd=./dev name=dev -engine cmd=base name=base -each "
      "tc=10+0.1 -rounds 2 -repeat ";
  auto m = Translate(engines + "-variant fischerandom");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->config.variant(), MatchConfig::CHESS960);
  EXPECT_THAT(Error(engines + "-variant crazyhouse"),
              HasSubstr("standard or fischerandom"));
}

TEST(FastchessCliTest, UseAffinity) {
  const std::string engines =
      "-engine cmd=./dev name=dev option.Threads=2 -engine cmd=base name=base "
      "-each tc=10+0.1 -rounds 2 -repeat ";
  auto m = Translate(engines + "-use-affinity");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->config.use_affinity());
  EXPECT_THAT(Error(engines + "-use-affinity 0-3"), HasSubstr("core list"));
}

TEST(FastchessCliTest, TheUsualSprtCommandLine) {
  auto m = Translate(
      "-engine cmd=./dev name=dev option.Hash=16 -engine cmd=base name=base "
      "args=--uci dir=engines -each tc=8+0.08 option.Threads=1 -rounds 500 "
      "-repeat -concurrency 6 -openings file=books/uho.epd format=epd "
      "order=random start=3 plies=8 -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 "
      "model=logistic -draw movenumber=40 movecount=8 score=10 -resign "
      "movecount=3 score=400 twosided=true -maxmoves 200 -pgnout file=o.pgn "
      "-srand 42");
  ASSERT_TRUE(m.ok()) << m.status();
  const MatchConfig& c = m->config;
  ASSERT_EQ(c.players_size(), 2);
  EXPECT_EQ(c.name(), "dev vs base");
  EXPECT_EQ(c.players(0).external().argv(0), "/home/me/dev");
  EXPECT_EQ(c.players(1).external().argv(0), "base") << "a PATH lookup";
  EXPECT_EQ(c.players(1).external().argv(1), "--uci");
  EXPECT_EQ(c.players(1).external().working_dir(), "/home/me/engines");
  EXPECT_EQ(c.players(0).external().options().at("Hash"), "16");
  EXPECT_EQ(c.players(1).external().options().at("Threads"), "1");
  EXPECT_EQ(c.time_control().base_ms(), 8000);
  EXPECT_EQ(c.time_control().increment_ms(), 80);
  EXPECT_FALSE(c.players(0).has_time_control()) << "the match's own";
  EXPECT_EQ(c.games(), 1000);
  EXPECT_EQ(c.pairing(), MatchConfig::HEAD_TO_HEAD);
  EXPECT_EQ(c.concurrency(), 6);
  EXPECT_EQ(c.seed(), 42u);
  EXPECT_EQ(c.openings().file(), "/home/me/books/uho.epd");
  EXPECT_EQ(c.openings().order(), Openings::SHUFFLED);
  EXPECT_EQ(c.openings().start_index(), 2);
  EXPECT_EQ(c.openings().max_plies(), 8);
  EXPECT_EQ(c.sprt().elo1(), 5);
  EXPECT_EQ(c.sprt().beta(), 0.1);
  EXPECT_EQ(c.sprt().model(), SprtConfig::LOGISTIC);
  EXPECT_EQ(c.adjudication().draw_move_number(), 40);
  EXPECT_EQ(c.adjudication().draw_moves(), 8);
  EXPECT_EQ(c.adjudication().draw_score_cp(), 10);
  EXPECT_EQ(c.adjudication().resign_moves(), 3);
  EXPECT_EQ(c.adjudication().resign_score_cp(), 400);
  EXPECT_EQ(c.adjudication().max_moves(), 200);
  EXPECT_EQ(m->pgn_out, "/home/me/o.pgn");
}

TEST(FastchessCliTest, LimitsPerEngineAndRoundRobins) {
  auto m = Translate(
      "-engine cmd=a name=a nodes=1000 -engine cmd=b name=b st=0.5 -engine "
      "cmd=c name=c depth=6 -rounds 3 -games 2");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->config.pairing(), MatchConfig::ROUND_ROBIN);
  EXPECT_EQ(m->config.time_control().nodes(), 1000);
  EXPECT_EQ(m->config.players(1).time_control().movetime_ms(), 500);
  EXPECT_EQ(m->config.players(2).time_control().depth(), 6);
  EXPECT_EQ(m->config.games(), 6);
}

TEST(FastchessCliTest, WhatWeDoNotSupportIsRefusedByName) {
  const std::string two = "-engine cmd=a name=a -engine cmd=b name=b ";
  EXPECT_THAT(Error(two + "-each tc=1 -recover"),
              HasSubstr("-recover: not supported"));
  EXPECT_THAT(Error(two + "-each tc=40/"), HasSubstr("tc"));
  EXPECT_THAT(Error(two + "-each tc=0/60"),
              HasSubstr("MOVES/BASE[+INC] needs 1 to 1000 moves"));
  EXPECT_THAT(Error(two + "-each tc=inf"),
              HasSubstr("no tc=, st=, nodes= or depth="));
  // Once, 1e300 overflowed into a negative time: "must not be negative".
  EXPECT_THAT(Error(two + "-each st=1e300"), HasSubstr("at most 1e7 seconds"));
  EXPECT_THAT(Error(two + "-each tc=1 ponder=true"),
              HasSubstr("-engine 1 ponder: not supported"));
  EXPECT_THAT(Error(two + "-each tc=1 -sprt elo0=0 elo1=5 model=bayesian"),
              HasSubstr("bayesian is not supported"));
  EXPECT_THAT(Error(two + "-each tc=1 -resign score=500 twosided=false"),
              HasSubstr("only twosided=true"));
  EXPECT_THAT(Error(two + "-each tc=1 -openings file=x.epd policy=round"),
              HasSubstr("-openings policy: not supported"));
  EXPECT_THAT(Error(two + "-each tc=1 -pgnout file=x.pgn notation=lan"),
              HasSubstr("notation=lan"));
  EXPECT_THAT(Error(two), HasSubstr("no tc=, st=, nodes= or depth="));
  EXPECT_THAT(Error("-engine cmd=a name=a -each tc=1"),
              HasSubstr("at least two engines"));
  EXPECT_THAT(Error(two + "-each tc=1 -concurrency many"),
              HasSubstr("\"many\" is not a whole number"));
  EXPECT_THAT(Error("stray -engine cmd=a"),
              HasSubstr("stray: a value before any option"));
  EXPECT_THAT(Error("-engine name=a -engine cmd=b name=b -each tc=1"),
              HasSubstr("-engine 1: needs cmd="));
}

TEST(FastchessCliTest, RecognisesItsStyle) {
  EXPECT_TRUE(LooksLikeFastchess({"-engine", "cmd=x"}));
  EXPECT_FALSE(
      LooksLikeFastchess({"run", "configs/matches/default.textproto"}));
}

// A newline in an argument would end the comment line of the written
// match.textproto and be read as config (a player that runs any program).
TEST(FastchessCliTest, AnArgumentWithANewlineIsRefused) {
  auto m = TranslateFastchessArgs(
      {"-engine", "cmd=a", "name=a", "-engine", "cmd=b", "name=b", "-each",
       "tc=1+0.01", "-event", "x\nplayers { external { argv: \"sh\" } }"},
      "/home/me");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("control character"));
  EXPECT_EQ(FastchessConfigHeader({"a b", "c"}),
            "# arena's translation of: arena a b c\n");
  EXPECT_TRUE(IsFastchessTranslation(FastchessConfigHeader({"x"}) + "name: "));
  EXPECT_FALSE(IsFastchessTranslation("name: \"mine\"\n"));
}

// "-event .." must not make the working directory the output directory,
// where the user's own match.textproto would be overwritten.
TEST(FastchessCliTest, TheOutputDirectoryStaysInsideFastchessOut) {
  EXPECT_EQ(FastchessOutputDir("..", "/w"), "/w/fastchess-out/_..");
  EXPECT_EQ(FastchessOutputDir(".", "/w"), "/w/fastchess-out/_.");
  EXPECT_EQ(FastchessOutputDir("", "/w"), "/w/fastchess-out/_");
  EXPECT_EQ(FastchessOutputDir("a/../b c", "/w"), "/w/fastchess-out/a_.._b_c");
  EXPECT_EQ(FastchessOutputDir("dev vs base", "/w"),
            "/w/fastchess-out/dev_vs_base");
}

}  // namespace
}  // namespace chess
