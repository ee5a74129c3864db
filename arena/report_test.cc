#include "arena/report.h"

#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "arena/standings.h"
#include "common/files.h"
#include "common/sanitizer.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kGauntlet[] = R"(
name: "three <players>"
players { name: "default" config_file: "configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "simplified" config_file: "configs/engines/simplified.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "material" config_file: "configs/engines/material.textproto"
          overrides { search { hash_mb: 1 } } }
pairing: ROUND_ROBIN
games: 12
openings { file: "configs/openings/balanced.epd" order: SEQUENTIAL }
time_control { nodes: 500 }
adjudication { max_moves: 50 }
seed: 3
)";

// One small round robin, played once for every test.
class ReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(
        (fs::path(::testing::TempDir()) / "report_test").string());
    fs::remove_all(*dir_);
    auto match = ParseMatch(kGauntlet, "gauntlet.textproto", ".");
    ASSERT_TRUE(match.ok()) << match.status();
    std::ostringstream out;
    RunOptions options;
    options.output_dir = *dir_;
    options.out = &out;
    ASSERT_EQ(RunMatch(*match, options), 0);
    auto log = ReadLog(*dir_ + "/games.log");
    ASSERT_TRUE(log.ok());
    log_ = new LogContents(*std::move(log));
  }
  static std::string* dir_;
  static LogContents* log_;
};
std::string* ReportTest::dir_ = nullptr;
LogContents* ReportTest::log_ = nullptr;

TEST_F(ReportTest, EveryMatchEndsWithAReport) {
  auto html = ReadFile(*dir_ + "/report.html");
  ASSERT_TRUE(html.ok());
  EXPECT_THAT(*html, HasSubstr("<h1 id=\"title\">three &lt;players&gt;</h1>"));
  EXPECT_THAT(*html, HasSubstr("id=\"crosstable\""));
  EXPECT_FALSE(fs::exists(*dir_ + "/report-games")) << "small: all inline";
}

TEST_F(ReportTest, StandingsCellsHoldTheSummaryFigures) {
  const MatchSummary summary = SummarizeLog(*log_);
  const std::string html =
      RenderMatchReport(BuildMatchReportData(*log_, summary), log_->header)[0]
          .contents;
  ASSERT_EQ(summary.pairings_size(), 3);
  for (int i = 0; i < summary.pairings_size(); ++i) {
    const PairingSummary& p = summary.pairings(i);
    EXPECT_THAT(html, HasSubstr(absl::StrFormat(
                          "<td id=\"p%d-games\">%d</td><td id=\"p%d-wins\">%d<",
                          i, p.games(), i, p.wins())));
    EXPECT_THAT(html, HasSubstr(absl::StrFormat("<td id=\"p%d-score\">%.1f%%<",
                                                i, 100 * p.score())));
    if (p.has_elo()) {
      EXPECT_THAT(
          html, HasSubstr(absl::StrFormat("<td id=\"p%d-elo\">%+.1f ± %.1f<", i,
                                          p.elo(), p.elo_error())));
    }
  }
}

// With anchors, the ratings table holds the text summary's ratings.
TEST_F(ReportTest, RatingsAgainstAnchorsAreShown) {
  MatchSummary summary = SummarizeLog(*log_);
  std::string html =
      RenderMatchReport(BuildMatchReportData(*log_, summary), log_->header)[0]
          .contents;
  EXPECT_THAT(html, Not(HasSubstr("id=\"ratings\"")));
  ASSERT_TRUE(RateAgainstAnchors({{"material", 1000}}, &summary).ok());
  ASSERT_EQ(summary.ratings_size(), 2);
  html =
      RenderMatchReport(BuildMatchReportData(*log_, summary), log_->header)[0]
          .contents;
  for (int i = 0; i < 2; ++i) {
    const PlayerRating& r = summary.ratings(i);
    EXPECT_THAT(html,
                HasSubstr(absl::StrFormat("<td id=\"r%d-rating\">%s</td><td "
                                          "id=\"r%d-games\">%d</td>",
                                          i, RatingText(r), i, r.games())));
    EXPECT_THAT(FormatSummary(summary),
                HasSubstr(absl::StrCat(r.player(), ": ", RatingText(r))));
  }
  EXPECT_THAT(html, HasSubstr("anchors material = 1000</p>"));
}

TEST_F(ReportTest, ProgressEndsOnTheFinalStandings) {
  const MatchSummary summary = SummarizeLog(*log_);
  const MatchReportData d = BuildMatchReportData(*log_, summary);
  ASSERT_EQ(d.progress.size(), 3u);
  for (int p = 0; p < 3; ++p) {
    ASSERT_FALSE(d.progress[p].empty());
    const EloSample& last = d.progress[p].back();
    EXPECT_EQ(last.games, summary.pairings(p).games());
    EXPECT_EQ(last.measurable, summary.pairings(p).has_elo());
    if (last.measurable) {
      EXPECT_DOUBLE_EQ(last.elo, summary.pairings(p).elo());
    }
    for (size_t i = 1; i < d.progress[p].size(); ++i)
      EXPECT_GT(d.progress[p][i].games, d.progress[p][i - 1].games);
  }
}

TEST_F(ReportTest, PhasesCountEveryMoveOnce) {
  const MatchReportData d = BuildMatchReportData(*log_, SummarizeLog(*log_));
  int moves = 0, counted = 0;
  for (const GameRecord& g : log_->games) moves += g.moves_size();
  for (const auto& player : d.phases)
    for (const PhaseCell& c : player) counted += c.moves;
  EXPECT_EQ(counted, moves);
  ASSERT_EQ(d.games.size(), log_->games.size());
  for (size_t i = 0; i < d.games.size(); ++i)
    EXPECT_EQ(d.games[i].index, int(i)) << "by schedule index";
}

// `arena report` reads the log a batch of games at a time: the same data as
// from the log held in memory.
TEST_F(ReportTest, ReadingTheLogFileGivesTheSameData) {
  const MatchSummary summary = SummarizeLog(*log_);
  const MatchReportData held = BuildMatchReportData(*log_, summary);
  auto read = ReadLogForReport(*dir_ + "/games.log");
  ASSERT_TRUE(read.ok()) << read.status();
  const MatchReportData& d = read->data;
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(d.summary, summary));
  EXPECT_EQ(d.moves, held.moves);
  ASSERT_EQ(d.games.size(), held.games.size());
  for (size_t i = 0; i < d.games.size(); ++i) {
    EXPECT_EQ(d.games[i].index, held.games[i].index);
    EXPECT_EQ(d.games[i].plies, held.games[i].plies);
    EXPECT_EQ(d.games[i].termination, held.games[i].termination);
  }
  ASSERT_EQ(d.progress.size(), held.progress.size());
  for (size_t p = 0; p < d.progress.size(); ++p) {
    ASSERT_EQ(d.progress[p].size(), held.progress[p].size());
    for (size_t i = 0; i < d.progress[p].size(); ++i)
      EXPECT_EQ(d.progress[p][i].games, held.progress[p][i].games);
  }
  for (size_t p = 0; p < d.phases.size(); ++p)
    for (int c = 0; c < kPhaseCells; ++c)
      EXPECT_EQ(d.phases[p][c].moves, held.phases[p][c].moves);
  EXPECT_EQ(RenderMatchReport(d, read->header)[0].contents,
            RenderMatchReport(held, log_->header)[0].contents);
  EXPECT_THAT(ReadLogForReport(*dir_ + "/missing.log").status().message(),
              HasSubstr("no such file"));
}

// A running match's report: a snapshot is the data Finish would give, and
// the builder goes on after it.
TEST_F(ReportTest, ASnapshotIsTheFinishedDataAndTheBuildGoesOn) {
  const MatchSummary summary = SummarizeLog(*log_);
  std::vector<const GameRecord*> games;
  for (const GameRecord& g : log_->games) games.push_back(&g);
  const size_t half = games.size() / 2;
  MatchReportBuilder builder(log_->header);
  builder.Add(absl::MakeConstSpan(games).subspan(0, half));
  MatchReportBuilder first_half(log_->header);
  first_half.Add(absl::MakeConstSpan(games).subspan(0, half));
  const MatchReportData snapshot = builder.Snapshot(summary);
  const MatchReportData finished = std::move(first_half).Finish(summary);
  EXPECT_EQ(RenderMatchReport(snapshot, log_->header)[0].contents,
            RenderMatchReport(finished, log_->header)[0].contents);
  EXPECT_EQ(snapshot.games.size(), half);

  builder.Add(absl::MakeConstSpan(games).subspan(half));
  EXPECT_EQ(
      RenderMatchReport(std::move(builder).Finish(summary), log_->header)[0]
          .contents,
      RenderMatchReport(BuildMatchReportData(*log_, summary), log_->header)[0]
          .contents);
}

TEST_F(ReportTest, LargeLogsLoadTheirMovesInChunks) {
  const MatchReportData d = BuildMatchReportData(*log_, SummarizeLog(*log_));
  ReportOptions options;
  options.inline_moves_bytes = 0;
  options.games_per_chunk = 5;
  const std::vector<ReportFile> files =
      RenderMatchReport(d, log_->header, options);
  const size_t chunks = (log_->games.size() + 4) / 5;
  ASSERT_EQ(files.size(), 1 + chunks);
  EXPECT_EQ(files[1].path, "report-games/chunk-0.js");
  EXPECT_THAT(files[2].contents, HasSubstr("reportGames(1,["));
  EXPECT_THAT(files[0].contents,
              HasSubstr(absl::StrCat("\"chunks\":{\"count\":", chunks,
                                     ",\"size\":5,\"inline\":false")));
  EXPECT_THAT(files[0].contents, Not(HasSubstr("reportGames(0,")));

  const std::string dir = *dir_ + "/chunked";
  ASSERT_TRUE(WriteMatchReport(*log_, SummarizeLog(*log_), dir, options).ok());
  EXPECT_TRUE(fs::exists(dir + "/report-games/chunk-1.js"));
  // Rewritten small, the stale chunks go.
  ASSERT_TRUE(WriteMatchReport(*log_, SummarizeLog(*log_), dir).ok());
  EXPECT_FALSE(fs::exists(dir + "/report-games"));
}

TEST(WhiteViewScoreTest, TurnsTheMoversScoreToWhitesSide) {
  MoveRecord m;
  m.set_score_cp(35);
  EXPECT_EQ(WhiteViewScore(m, true), 35);
  EXPECT_EQ(WhiteViewScore(m, false), -35);
  m.set_mate(3);
  EXPECT_EQ(WhiteViewScore(m, false), -100003);
  m.set_mate(-2);
  EXPECT_EQ(WhiteViewScore(m, true), -100002);
  EXPECT_EQ(WhiteViewScore(MoveRecord(), true), kNoScore);
}

// A 100,000-game log (two real games copied) stays under 5 MB of page; the
// moves go to lazily loaded chunks. Its time is measured by
// //arena:report_bench, not here. Under a sanitizer, 20,000 games take the same
// paths.
TEST_F(ReportTest, AHundredThousandGamesFitInFiveMegabytes) {
  const int games = UnderSanitizer() ? 20000 : 100000;
  LogContents big;
  big.header = log_->header;
  big.header.mutable_config()->clear_players();
  for (int i = 0; i < 2; ++i)
    *big.header.mutable_config()->add_players() =
        log_->header.config().players(i);
  big.header.mutable_config()->set_pairing(MatchConfig::GAUNTLET);
  big.header.mutable_config()->set_games(games);
  big.header.set_scheduled_games(games);
  const GameRecord* pair[2] = {nullptr, nullptr};
  for (const GameRecord& g : log_->games)
    if (g.pairing() == 0 && g.round() == 0) pair[g.index() % 2] = &g;
  ASSERT_TRUE(pair[0] && pair[1]);
  for (int i = 0; i < games; ++i) {
    GameRecord g = *pair[i % 2];
    g.set_index(i);
    g.set_round(i / 2);
    big.games.push_back(std::move(g));
  }
  const MatchSummary summary = SummarizeLog(big);
  EXPECT_EQ(summary.played_games(), games);
  const std::vector<ReportFile> files =
      RenderMatchReport(BuildMatchReportData(big, summary), big.header);
  EXPECT_LE(files[0].contents.size(), 5u << 20);
  EXPECT_EQ(files.size(), 1u + games / 1000);
}

}  // namespace
}  // namespace chess
