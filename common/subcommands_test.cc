#include "common/subcommands.h"

#include "absl/flags/flag.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(int, widgets, 3, "how many widgets");
ABSL_FLAG(bool, shiny, false, "polish them");

namespace chess {
namespace {

using ::testing::HasSubstr;

const Subcommand kMake = {"make", "[NAME]", {"widgets", "shiny"}};

TEST(SubcommandsTest, OnlyItsOwnFlags) {
  EXPECT_TRUE(
      CheckSubcommandFlags({"make", "x", "--widgets=4", "-shiny"}, kMake).ok());
  EXPECT_TRUE(CheckSubcommandFlags({"--noshiny", "--", "--other"}, kMake).ok());
  const absl::Status bad = CheckSubcommandFlags({"--widget=4"}, kMake);
  EXPECT_THAT(bad.message(),
              HasSubstr("--widget: not a flag of `make` (its flags: "
                        "--widgets, --shiny)"));
  EXPECT_THAT(CheckSubcommandFlags({"--x"}, {"none", "", {}}).message(),
              HasSubstr("(it takes none)"));
}

TEST(SubcommandsTest, HelpListsTheFlags) {
  EXPECT_TRUE(AsksForHelp({"make", "--help"}));
  EXPECT_FALSE(AsksForHelp({"make", "--", "--help"}));
  const std::string help = SubcommandHelp("tool", kMake);
  EXPECT_THAT(help, HasSubstr("usage: tool make [NAME]"));
  EXPECT_THAT(help, HasSubstr("--widgets  how many widgets (default: 3)"));
}

}  // namespace
}  // namespace chess
