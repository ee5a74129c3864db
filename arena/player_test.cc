#include "arena/player.h"

#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(UciInfoTest, TheBestLineScoresUnderMultiPv) {
  MoveReply reply;
  ParseUciInfo(
      "info depth 9 seldepth 12 multipv 1 score cp 35 nodes 900 pv e2e4",
      &reply);
  ParseUciInfo(
      "info depth 9 seldepth 12 multipv 2 score cp -80 nodes 950 pv a2a3",
      &reply);
  EXPECT_TRUE(reply.has_score);
  EXPECT_EQ(reply.score_cp, 35);
  EXPECT_EQ(reply.depth, 9);
  EXPECT_EQ(reply.nodes, 900u);
  ParseUciInfo("info depth 10 score mate 3 nodes 2000 pv e2e4", &reply);
  EXPECT_EQ(reply.mate, 3);
  EXPECT_EQ(reply.depth, 10);
}

TEST(UciOptionTest, ParsesWhatEnginesAdvertise) {
  auto spin = ParseUciOptionLine(
      "option name Move Overhead type spin default 10 min 0 max 5000");
  ASSERT_TRUE(spin.ok());
  EXPECT_EQ(spin->name, "Move Overhead");
  EXPECT_EQ(spin->type, "spin");
  EXPECT_EQ(spin->default_value, "10");
  EXPECT_TRUE(spin->has_range);
  EXPECT_EQ(spin->max, 5000);

  auto negative = ParseUciOptionLine(
      "option name Contempt type spin default -20 min -100 max 100");
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative->min, -100);
  EXPECT_EQ(negative->default_value, "-20");

  auto combo = ParseUciOptionLine(
      "option name Style type combo default Solid var Solid var Risky");
  ASSERT_TRUE(combo.ok());
  EXPECT_EQ(combo->default_value, "Solid");
  EXPECT_FALSE(combo->has_range);

  auto string =
      ParseUciOptionLine("option name SyzygyPath type string default <empty>");
  ASSERT_TRUE(string.ok());
  EXPECT_EQ(string->default_value, "<empty>");

  auto backwards =
      ParseUciOptionLine("option name X type spin default 1 min 5 max 2");
  ASSERT_TRUE(backwards.ok());
  EXPECT_FALSE(backwards->has_range) << "min above max is no range";

  EXPECT_FALSE(ParseUciOptionLine("id name Foo").ok());
  EXPECT_FALSE(ParseUciOptionLine("option name type spin").ok());
  EXPECT_FALSE(ParseUciOptionLine("option name Hash").ok());
}

}  // namespace
}  // namespace chess
