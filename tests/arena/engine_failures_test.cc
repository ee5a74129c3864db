// Every way an external engine can fail is recorded with its reason, the engine
// is restarted for the next game, and the match completes.
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

std::string g_fake_engine;

// Processes whose command line holds `marker` (zombies have none).
int ProcessesWithMarker(const std::string& marker) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    // A process that exits between the listing and the read fails the read
    // (ESRCH); the stream's << turns that into a failbit, where reading the
    // buffer directly would throw.
    std::ostringstream cmdline;
    cmdline << in.rdbuf();
    if (cmdline.str().find(marker) != std::string::npos) ++count;
  }
  return count;
}

// Waits up to 2 s for a killed process group to be gone.
int ProcessesLeft(const std::string& marker) {
  int left = 0;
  for (int i = 0; i < 200 && (left = ProcessesWithMarker(marker)) > 0; ++i)
    ::usleep(10000);
  return left;
}

std::string Marker(absl::string_view mode) {
  return absl::StrCat("--marker=fake-", mode, "-", ::getpid());
}

struct Case {
  const char* mode;
  const char* time_control;  // of the fake engine
  GameRecord::Termination expected;
  int exit_code;
  // Generous, so that a loaded machine starting the fake engine is not taken
  // for a start failure; short only where the failure to start is the test.
  int startup_timeout_ms = 10000;
  // Likewise: short only for the engine that never answers.
  int move_timeout_ms = 10000;
};

class EngineFailureTest : public ::testing::TestWithParam<Case> {};

TEST_P(EngineFailureTest, RecordedAndTheMatchCompletes) {
  const Case& c = GetParam();
  const std::string text = absl::StrCat(
      "name: \"failures\"\n"
      "players { name: \"ours\" config { search { hash_mb: 1 } } }\n"
      "players { name: \"fake\" external { argv: \"",
      g_fake_engine, "\" argv: \"", c.mode, "\" argv: \"", Marker(c.mode),
      "\" startup_timeout_ms: ", c.startup_timeout_ms,
      " move_timeout_ms: ", c.move_timeout_ms,
      " }\n"
      "  time_control { ",
      c.time_control,
      " } }\n"
      "games: 4\n"
      "time_control { nodes: 300 }\n"
      "adjudication { max_moves: 30 }\n"
      "concurrency: 2\n");
  auto match = ParseMatch(text, "failures.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  const std::string dir = ::testing::TempDir() + c.mode;
  std::ostringstream report;
  RunOptions options{
      .output_dir = dir, .fresh = true, .progress = false, .out = &report};
  EXPECT_EQ(RunMatch(*match, options), c.exit_code) << report.str();

  auto summary = SummarizeLog(dir + "/games.log");
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->played_games(), 4);
  const std::string name = GameRecord::Termination_Name(c.expected);
  EXPECT_EQ(summary->terminations().count(name)
                ? summary->terminations().at(name)
                : 0,
            4)
      << report.str();
  // The in-process engine won every game.
  EXPECT_EQ(summary->pairings(0).wins(), 4) << report.str();
  auto pgn = LogToPgn(dir + "/games.log");
  ASSERT_TRUE(pgn.ok());
  EXPECT_NE(pgn->find("TerminationDetails"), std::string::npos);
  EXPECT_EQ(ProcessesLeft(Marker(c.mode)), 0) << "processes left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Modes, EngineFailureTest,
    ::testing::Values(
        Case{"crash", "nodes: 300", GameRecord::ENGINE_CRASH, kExitOk},
        Case{"nobestmove", "nodes: 300", GameRecord::ENGINE_CRASH, kExitOk},
        Case{"hang", "nodes: 300", GameRecord::ENGINE_TIMEOUT, kExitOk, 10000,
             500},
        Case{"illegal", "nodes: 300", GameRecord::ILLEGAL_MOVE, kExitOk},
        Case{"garbage", "nodes: 300", GameRecord::ILLEGAL_MOVE, kExitOk},
        Case{"slow", "base_ms: 1000", GameRecord::TIME_FORFEIT, kExitOk},
        Case{"die", "nodes: 300", GameRecord::ENGINE_START_FAILURE,
             kExitEngineFailure},
        Case{"nouciok", "nodes: 300", GameRecord::ENGINE_START_FAILURE,
             kExitEngineFailure, 2000},
        Case{"none", "nodes: 300", GameRecord::ILLEGAL_MOVE, kExitOk},
        Case{"malformed", "nodes: 300", GameRecord::ILLEGAL_MOVE, kExitOk},
        // A child holding the pipe: a crash at once, not a timeout, and the
        // child ended with its parent.
        Case{"forkcrash", "nodes: 300", GameRecord::ENGINE_CRASH, kExitOk}),
    [](const auto& info) { return std::string(info.param.mode); });

// Engines that misbehave without losing: megabytes of output, and one that
// ignores "quit" and the end of its input (killed with its process group).
TEST(EngineFailureTest, FloodAndDeafEnginesPlayAndLeaveNothingBehind) {
  for (const char* mode : {"flood", "deaf"}) {
    auto match =
        ParseMatch(absl::StrCat("players { name: \"ours\" config {} }\n"
                                "players { name: \"fake\" external { argv: \"",
                                g_fake_engine, "\" argv: \"", mode,
                                "\" argv: \"", Marker(mode),
                                "\" } }\n"
                                "games: 2\ntime_control { nodes: 500 }\n"
                                "adjudication { max_moves: 20 }\n"),
                   "misbehaving.textproto", ".");
    ASSERT_TRUE(match.ok()) << match.status();
    std::ostringstream report;
    RunOptions options{.output_dir = ::testing::TempDir() + mode,
                       .fresh = true,
                       .progress = false,
                       .out = &report};
    EXPECT_EQ(RunMatch(*match, options), kExitOk) << mode << report.str();
    EXPECT_EQ(report.str().find("ENGINE_"), std::string::npos)
        << mode << report.str();
    EXPECT_NE(report.str().find("2 of 2 games played"), std::string::npos)
        << report.str();
    EXPECT_EQ(ProcessesLeft(Marker(mode)), 0) << mode << ": processes left";
  }
}

// A program named "./engine" is a path beside the config (never a PATH
// lookup), also when the config lies in the current directory.
TEST(EngineFailureTest, DotSlashProgramIsAPathNotAPathSearch) {
  const std::string dir = ::testing::TempDir() + "dotslash";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(g_fake_engine, dir + "/uci",
                             std::filesystem::copy_options::overwrite_existing);
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  auto match = ParseMatch(
      "players { name: \"ours\" config {} }\n"
      "players { name: \"local\" external { argv: \"./uci\" argv: \"good\" "
      "} }\n"
      "games: 2\ntime_control { nodes: 300 }\n",
      "m.textproto", "");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->config.players(1).external().argv(0), dir + "/uci");
  std::ostringstream report;
  RunOptions options{.output_dir = dir + "/out",
                     .fresh = true,
                     .progress = false,
                     .out = &report};
  EXPECT_EQ(RunMatch(*match, options), kExitOk) << report.str();
  EXPECT_NE(report.str().find("W-D-L: 2-0-0"), std::string::npos)
      << report.str();
}

TEST(EngineFailureTest, MissingProgramStopsBeforeAnyGame) {
  // A missing engine would forfeit every game it has, and a resumed run would
  // count those games as played: the config is refused instead.
  for (const char* program : {"/no/such/engine", "no-such-engine-on-path"}) {
    auto match =
        ParseMatch(absl::StrCat("players { name: \"ours\" config {} }\n"
                                "players { name: \"ghost\" external { argv: \"",
                                program,
                                "\" } }\n"
                                "games: 2\ntime_control { nodes: 100 }\n"),
                   "ghost.textproto", ".");
    ASSERT_FALSE(match.ok()) << program;
    EXPECT_EQ(match.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(
        std::string(match.status().message()),
        ::testing::AllOf(::testing::HasSubstr("players[1].external.argv"),
                         ::testing::HasSubstr(program),
                         ::testing::HasSubstr("\"ghost\"")));
  }
}

TEST(EngineFailureTest, GoodExternalEngineLosesNormally) {
  auto match = ParseMatch(
      absl::StrCat("players { name: \"ours\" config {} }\n"
                   "players { name: \"first-move\" external { argv: \"",
                   g_fake_engine,
                   "\" argv: \"good\" } }\n"
                   "games: 2\ntime_control { nodes: 2000 }\n"),
      "good.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  std::ostringstream report;
  RunOptions options{.output_dir = ::testing::TempDir() + "good",
                     .fresh = true,
                     .progress = false,
                     .out = &report};
  EXPECT_EQ(RunMatch(*match, options), kExitOk);
  EXPECT_NE(report.str().find("W-D-L: 2-0-0"), std::string::npos)
      << report.str();
  EXPECT_NE(report.str().find("CHECKMATE 2"), std::string::npos)
      << report.str();
}

}  // namespace
}  // namespace chess

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::cerr << "usage: engine_failures_test FAKE_ENGINE\n";
    return 2;
  }
  chess::g_fake_engine = std::filesystem::absolute(argv[1]).string();
  return RUN_ALL_TESTS();
}
