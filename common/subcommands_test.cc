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

// The choice of a subcommand, seen through what returns before any flag is
// parsed: --help and a flag the chosen subcommand does not take.
int Dispatch(const SubcommandProgram& program, std::vector<std::string> words) {
  std::vector<char*> argv = {const_cast<char*>("tool")};
  for (std::string& w : words) argv.push_back(w.data());
  return RunSubcommand(program, int(argv.size()), argv.data());
}

SubcommandProgram Tool() {
  return {
      "tool",
      {kMake,
       {"paint", "COLOUR", {"shiny"}, nullptr},
       {"talk", "-word ...", {}, nullptr, /*single_dash_operands=*/true}},
      /*default_subcommand=*/"make",
      [](const std::vector<std::string>& words) {
        return std::string(!words.empty() && words[0] == "-word" ? "talk" : "");
      },
      "Exit codes: 0 done."};
}

TEST(SubcommandsTest, TheFirstOperandTheDefaultOrTheShapeChooses) {
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Dispatch(Tool(), {"paint", "--help"}), 0);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("usage: tool paint COLOUR"));
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Dispatch(Tool(), {"--help"}), 0);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("usage: tool make [NAME]"));
  // `paint` takes no --widgets; the default `make` does.
  EXPECT_EQ(Dispatch(Tool(), {"paint", "red", "--widgets=2"}), 2);
  EXPECT_EQ(Dispatch(Tool(), {"red", "--nosuch"}), 2);
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Dispatch(Tool(), {"-word", "hi", "--help"}), 0);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("usage: tool talk"));
  // One-dash words are its operands; only its two-dash ones are flags.
  EXPECT_EQ(Dispatch(Tool(), {"-word", "-x", "--shiny"}), 2);
}

TEST(SubcommandsTest, WithoutADefaultANameIsNeeded) {
  SubcommandProgram program = Tool();
  program.default_subcommand = "";
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Dispatch(program, {"nothing"}), 2);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              HasSubstr("usage: tool make|paint|talk (see --help)"));
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(Dispatch(program, {"--help"}), 0);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("usage:\n  tool make [NAME]\n  tool paint COLOUR\n"));
}

}  // namespace
}  // namespace chess
