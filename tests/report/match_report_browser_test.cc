// The match report in a real browser: headless Chromium loads report.html
// from file://, the page runs without an error, its standings are those of
// result.textproto, the game viewer steps through a game with the arrow key
// and ends on the game's final position, and a screenshot is kept as a test
// output (bazel-testlogs/tests/report/.../test.outputs/).
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "arena/log_reader.h"
#include "arena/match_log.pb.h"
#include "common/files.h"
#include "common/program.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "tests/report/browser.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

std::string g_arena;  // argv[1]

std::string OutputsDir() {
  const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  return dir ? dir : ::testing::TempDir();
}

// The first three FEN fields: placement, side to move, castling rights.
std::string Board(const std::string& fen) {
  std::vector<std::string> f = absl::StrSplit(fen, ' ');
  f.resize(3);
  return absl::StrJoin(f, " ");
}

std::string FinalPosition(const GameRecord& g) {
  absl::StatusOr<Position> pos = Position::FromFen(g.opening_fen());
  if (!pos.ok()) return "bad opening";
  for (const MoveRecord& m : g.moves()) {
    absl::StatusOr<Move> move = ParseUci(*pos, m.uci());
    if (!move.ok()) return "illegal";
    pos->MakeMove(*move);
  }
  return pos->ToFen();
}

class MatchReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::path(::testing::TempDir()) / "browser").string();
    std::string why;
    browser_ = Browser::Find(dir_ + "/chromium", &why);
    if (!browser_) GTEST_SKIP() << "skipped, no browser: " << why;
    match_ = dir_ + "/match";
    fs::remove_all(match_);
    const std::string config = absl::StrCat(
        "name: \"default vs simplified\"\n"
        "players { name: \"default\" config_file: \"",
        fs::absolute("configs/engines/default.textproto").string(),
        "\" overrides { search { hash_mb: 1 } } }\n"
        "players { name: \"simplified\" config_file: \"",
        fs::absolute("configs/engines/simplified.textproto").string(),
        "\" overrides { search { hash_mb: 1 } } }\n"
        "games: 16\nopenings { file: \"",
        fs::absolute("configs/openings/balanced.epd").string(),
        "\" order: SEQUENTIAL }\n"
        "time_control { nodes: 800 }\nadjudication { max_moves: 90 }\n"
        "sprt { elo0: 0 elo1: 10 alpha: 0.05 beta: 0.05 }\nseed: 11\n");
    ASSERT_TRUE(WriteFileAtomically(dir_ + "/match.textproto", config).ok());
    const ProgramOutput run =
        RunProgram({g_arena, "run", dir_ + "/match.textproto",
                    "--output_dir=" + match_, "--progress=false"},
                   true);
    ASSERT_EQ(run.exit_code, 0) << run.out;
  }

  // Every standings cell of the page against result.textproto, in the text
  // summary's formats.
  void ExpectStandingsOf(const std::string& dom) {
    auto text = ReadFile(match_ + "/result.textproto");
    ASSERT_TRUE(text.ok());
    MatchSummary summary;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(*text, &summary));
    EXPECT_EQ(TextOfId(dom, "played"), absl::StrCat(summary.played_games()));
    EXPECT_EQ(TextOfId(dom, "verdict"), summary.verdict());
    ASSERT_EQ(summary.pairings_size(), 1);
    const PairingSummary& p = summary.pairings(0);
    EXPECT_EQ(TextOfId(dom, "p0-players"),
              absl::StrCat(p.first(), " vs ", p.second()));
    EXPECT_EQ(TextOfId(dom, "p0-games"), absl::StrCat(p.games()));
    EXPECT_EQ(TextOfId(dom, "p0-wins"), absl::StrCat(p.wins()));
    EXPECT_EQ(TextOfId(dom, "p0-draws"), absl::StrCat(p.draws()));
    EXPECT_EQ(TextOfId(dom, "p0-losses"), absl::StrCat(p.losses()));
    EXPECT_EQ(TextOfId(dom, "p0-score"),
              absl::StrFormat("%.1f%%", 100 * p.score()));
    if (p.has_elo()) {
      EXPECT_EQ(TextOfId(dom, "p0-elo"),
                absl::StrFormat("%+.1f ± %.1f", p.elo(), p.elo_error()));
      EXPECT_EQ(TextOfId(dom, "p0-los"),
                absl::StrFormat("%.1f%%", 100 * p.los()));
    }
    EXPECT_EQ(TextOfId(dom, "p0-penta"),
              absl::StrCat("[", absl::StrJoin(p.pentanomial(), ", "), "]"));
    EXPECT_EQ(TextOfId(dom, "p0-sprt"),
              absl::StrFormat("LLR %.2f (%.2f, %.2f) %s", p.llr(),
                              p.llr_lower(), p.llr_upper(), p.sprt()));
  }

  // Opens game `index` with #game=N&step=all: the page presses the right
  // arrow once per move; it must end on the game's final position.
  void ExpectViewerReplays(const std::string& report, int index) {
    auto log = ReadLog(match_ + "/games.log");
    ASSERT_TRUE(log.ok());
    const GameRecord* game = nullptr;
    for (const GameRecord& g : log->games)
      if (g.index() == index) game = &g;
    ASSERT_NE(game, nullptr);
    const LoadedPage page = browser_->Load(
        absl::StrCat(FileUrl(report), "#game=", index, "&step=all"));
    EXPECT_TRUE(page.console.empty()) << absl::StrJoin(page.console, "\n");
    EXPECT_NE(page.dom.find("<div id=\"errors\" hidden=\"\">"),
              std::string::npos)
        << "the page showed errors: "
        << TextOfId(page.dom, "errors").value_or("");
    EXPECT_NE(page.dom.find(
                  absl::StrCat("data-stepped=\"", game->moves_size(), "\"")),
              std::string::npos)
        << "the viewer did not step through all " << game->moves_size()
        << " moves";
    EXPECT_EQ(TextOfId(page.dom, "viewer-ply"),
              absl::StrCat(game->moves_size()));
    const std::optional<std::string> fen = TextOfId(page.dom, "viewer-fen");
    ASSERT_TRUE(fen.has_value());
    EXPECT_EQ(Board(*fen), Board(FinalPosition(*game)));
  }

  std::string dir_, match_;
  std::optional<Browser> browser_;
};

TEST_F(MatchReportBrowserTest, ReportLoadsShowsTheStandingsAndReplaysAGame) {
  const std::string report = match_ + "/report.html";
  const LoadedPage page = browser_->Load(FileUrl(report));
  ASSERT_EQ(page.exit_code, 0);
  EXPECT_TRUE(page.console.empty()) << absl::StrJoin(page.console, "\n");
  EXPECT_NE(page.dom.find("<div id=\"errors\" hidden=\"\">"), std::string::npos)
      << TextOfId(page.dom, "errors").value_or("");
  ExpectStandingsOf(page.dom);
  // The charts and the game list were drawn.
  EXPECT_NE(page.dom.find("<polyline"), std::string::npos);
  EXPECT_NE(page.dom.find("id=\"game-table\""), std::string::npos);
  EXPECT_EQ(TextOfId(page.dom, "games-count"), " 16 games");
  ExpectViewerReplays(report, 5);
  EXPECT_TRUE(browser_->Screenshot(FileUrl(report) + "#game=5&ply=end",
                                   OutputsDir() + "/match_report.png", 1250,
                                   2350, 0.6));
}

// A large match's moves live in report-games/ and are loaded when a game is
// opened: forced here with --inline_moves_mb=0.
TEST_F(MatchReportBrowserTest, MovesLoadedLazilyFromChunks) {
  const std::string out = dir_ + "/chunked";
  const ProgramOutput report = RunProgram(
      {g_arena, "report", match_, "--output_dir=" + out, "--inline_moves_mb=0"},
      true);
  ASSERT_EQ(report.exit_code, 0);
  ASSERT_TRUE(fs::exists(out + "/report-games/chunk-0.js"));
  ExpectViewerReplays(out + "/report.html", 14);
}

TEST_F(MatchReportBrowserTest, BadLogsExitLikeSummary) {
  const std::string missing = dir_ + "/nothing-here";
  EXPECT_EQ(RunProgram({g_arena, "report", missing}).exit_code, 2);
  const std::string junk = dir_ + "/junk/games.log";
  fs::create_directories(fs::path(junk).parent_path());
  ASSERT_TRUE(WriteFileAtomically(junk, "not a log at all").ok());
  EXPECT_EQ(RunProgram({g_arena, "report", junk}).exit_code,
            RunProgram({g_arena, "summary", junk}).exit_code);
  EXPECT_FALSE(fs::exists(dir_ + "/junk/report.html"));
}

}  // namespace
}  // namespace chess

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: match_report_browser_test ARENA\n");
    return 2;
  }
  chess::g_arena = argv[1];
  return RUN_ALL_TESTS();
}
