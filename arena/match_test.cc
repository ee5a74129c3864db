#include "arena/match.h"

#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "arena/match_outputs.h"
#include "arena/openings.h"
#include "arena/pgn.h"
#include "common/files.h"
#include "common/record_io.h"
#include "common/sanitizer.h"
#include "engine/notation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kSmallMatch[] = R"(
name: "small"
players { name: "default" config_file: "configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "simplified" config_file: "configs/engines/simplified.textproto"
          overrides { search { hash_mb: 1 } } }
games: 12
openings { file: "configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 600 }
adjudication { max_moves: 60 }
seed: 7
)";

// kSmallMatch at a third of its nodes under a sanitizer (5-20x slower code).
std::string SmallMatch() {
  return UnderSanitizer() ? absl::StrReplaceAll(
                                kSmallMatch, {{"nodes: 600 }", "nodes: 200 }"}})
                          : std::string(kSmallMatch);
}

std::string ParseError(const std::string& text) {
  auto match = ParseMatch(text, "m.textproto", ".");
  return match.ok() ? "" : std::string(match.status().message());
}

constexpr char kTwoPlayers[] =
    "players { name: \"a\" config {} }\nplayers { name: \"b\" config {} }\n";

// Every exit-2 message carries line:column, points at the player it is about,
// and says what is wrong.
TEST(MatchConfigTest, DiagnosticsPointAtTheRightPlace) {
  EXPECT_THAT(ParseError("games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("m.textproto:1:1: players: a match needs at least"));
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers, "games: 2\n")),
              HasSubstr("m.textproto:1:1: time_control: no limit"));
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers,
                                      "games: -2\ntime_control { "
                                      "nodes: 5 }\n")),
              HasSubstr("m.textproto:3:1: games: must be positive"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\n"
                         "players { name: \"b\" config {}\n"
                         "  overrides { search { hash_mb: -1 } } }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("m.textproto:3:3: players[1].overrides: \"b\": "
                        "search.hash_mb = -1"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\n"
                         "players { name: \"b\" config {} }\n"
                         "players { name: \"c\" config {}\n"
                         "  time_control { nodes: -1 } }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"
                         "pairing: ROUND_ROBIN\n"),
              HasSubstr("m.textproto:4:3: players[2].time_control:"));
  EXPECT_THAT(ParseError(absl::StrCat(
                  kTwoPlayers,
                  "games: 2\ntime_control { nodes: 5 }\n"
                  "sprt { elo0: -inf elo1: inf alpha: 0.05 beta: 0.05 }\n")),
              HasSubstr("m.textproto:5:1: sprt: elo0 and elo1 must be finite"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\n"
                         "players { name: \"b\" config {}\n"
                         "  anchor_elo: nan }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("m.textproto:3:3: players[1].anchor_elo: must be a "
                        "rating within +-10000"));
  // A config_file that is a directory is not an engine config.
  EXPECT_THAT(ParseError("players { name: \"a\" config_file: \"configs\" }\n"
                         "players { name: \"b\" config {} }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("m.textproto:1:21: players[0].config_file: configs: "
                        "is a directory"));
}

// A clock scaled to the machine's speed: a machine at half the reference's
// nodes/s plays with clocks twice as long, and every game says so.
TEST(MatchTest, ClocksAreScaledToTheMachine) {
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers,
                                      "games: 2\ntime_control { nodes: 5 }\n"
                                      "clock_reference_nps: 1000000\n")),
              HasSubstr("clock_reference_nps: no player plays with a clock"));
  auto match = ParseMatch(absl::StrCat(kTwoPlayers,
                                       "games: 2\ntime_control { base_ms: 200 "
                                       "increment_ms: 20 }\n"
                                       "adjudication { max_moves: 8 }\n"
                                       "clock_reference_nps: 1000000\n"),
                          "m.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  const std::string dir = ::testing::TempDir() + "scaled";
  std::ostringstream report, notes;
  RunOptions options{.output_dir = dir,
                     .fresh = true,
                     .machine_nps = 500000,
                     .progress = false,
                     .out = &report,
                     .notes = &notes};
  EXPECT_EQ(RunMatch(*match, options), kExitOk) << report.str();
  EXPECT_THAT(notes.str(), HasSubstr("clocks scaled x2.000"));
  EXPECT_THAT(report.str(), HasSubstr("Clocks scaled to the machine: x2.00"));
  auto log = ReadLog(dir + "/games.log");
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->games.size(), 2u);
  for (const GameRecord& g : log->games) {
    EXPECT_EQ(g.clock_scale(), 2);
    EXPECT_EQ(g.machine_nps(), 500000);
  }
  EXPECT_THAT(*ReadFile(dir + "/games.pgn"),
              HasSubstr("[ClockScale \"2.000\"]"));
  EXPECT_THAT(*ReadFile(dir + "/report.html"), HasSubstr("x2.00"));
  // Too far from the reference is refused before any game.
  options.machine_nps = 50;
  options.output_dir = dir + "-far";
  EXPECT_EQ(RunMatch(*match, options), kExitBadInput);
  EXPECT_FALSE(fs::exists(dir + "-far/games.log"));
}

// Counts that would exhaust memory are refused up front; a start index at the
// top of int is fine.
TEST(MatchConfigTest, HugeCountsAreRefused) {
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers,
                                      "games: 2000000000\ntime_control { "
                                      "nodes: 5 }\n")),
              HasSubstr("m.textproto:3:1: games: 2000000000 games in all; at "
                        "most 10000000"));
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers,
                                      "rounds: 2147483647\ntime_control { "
                                      "nodes: 5 }\n")),
              HasSubstr("rounds: 4294967294 games in all"));
  auto match = ParseMatch(
      absl::StrCat(kTwoPlayers,
                   "games: 4\ntime_control { nodes: 5 }\n"
                   "openings { file: \"configs/openings/balanced.epd\" "
                   "start_index: 2147483647 }\n"),
      "m.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->schedule.size(), 4u);
}

// Tablebase directories must exist, and one process holds one set of tables:
// in-process players that probe tables name the adjudication's.
TEST(MatchConfigTest, TablebasePathsAreCheckedAndShared) {
  const std::string tmp = ::testing::TempDir();
  EXPECT_THAT(
      ParseError(absl::StrCat(kTwoPlayers,
                              "games: 2\ntime_control { nodes: 5 }\n"
                              "adjudication { tb_path: \"/no/such/tb\" }\n")),
      HasSubstr("adjudication.tb_path: \"/no/such/tb\" is not a directory"));
  EXPECT_THAT(
      ParseError(absl::StrCat(
          "players { name: \"a\" config { tablebases { syzygy_path: \"/\" } "
          "} }\nplayers { name: \"b\" config {} }\n",
          "games: 2\ntime_control { nodes: 5 }\nadjudication { tb_path: \"",
          tmp, "\" }\n")),
      HasSubstr("one process holds one set of tables"));
  EXPECT_THAT(ParseError(absl::StrCat(kTwoPlayers,
                                      "games: 2\ntime_control { nodes: 5 }\n"
                                      "adjudication { tb_pieces: 8 }\n")),
              HasSubstr("tb_pieces"));
}

TEST(MatchTest, OutputDirectoryThatCannotBeMadeIsAnIoError) {
  auto match = ParseMatch(
      absl::StrCat(kTwoPlayers, "games: 2\ntime_control { nodes: 5 }\n"),
      "m.textproto", ".");
  ASSERT_TRUE(match.ok());
  const std::string file = ::testing::TempDir() + "a-file";
  std::ofstream(file) << "x";
  std::ostringstream report;
  RunOptions options{.output_dir = file + "/out",
                     .fresh = true,
                     .progress = false,
                     .out = &report};
  EXPECT_EQ(RunMatch(*match, options), kExitIoError);
}

// Derived files are replaced whole or not at all: when one cannot be written
// the match says so (exit 4) and the old file stays.
TEST(MatchTest, OutputThatCannotBeWrittenIsAnIoErrorAndKeepsTheOld) {
  auto match = ParseMatch(
      absl::StrCat(kTwoPlayers, "games: 2\ntime_control { nodes: 50 }\n"),
      "m.textproto", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "unwritable";
  std::filesystem::create_directories(dir + "/games.pgn/blocker");
  std::ofstream(dir + "/result.textproto") << "old";
  std::ostringstream report;
  RunOptions options{
      .output_dir = dir, .fresh = true, .progress = false, .out = &report};
  EXPECT_EQ(RunMatch(*match, options), kExitIoError);
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/games.pgn"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/games.pgn.tmp"));
}

// The shipped match configs, those that play from the public books unpacked in
// /tmp/books (configs/openings/unpack_shared_books.sh) or the others.
std::vector<std::string> ShippedMatchConfigs(bool on_public_books) {
  std::vector<std::string> paths;
  for (const auto& entry : fs::directory_iterator("configs/matches")) {
    auto text = ReadFile(entry.path().string());
    EXPECT_TRUE(text.ok()) << text.status();
    if (text.ok() &&
        absl::StrContains(*text, "\"/tmp/books/") == on_public_books) {
      paths.push_back(entry.path().string());
    }
  }
  return paths;
}

// Loads a config from its real place (a runfile is a link into the checkout),
// so that a path relative to it reaches ../shared beside the checkout.
void ExpectLoads(const std::string& path) {
  SCOPED_TRACE(path);
  const fs::path real = fs::canonical(path);
  auto text = ReadFile(real.string());
  ASSERT_TRUE(text.ok()) << text.status();
  if (absl::StrContains(*text, "/shared/engines/") &&
      !fs::is_directory(real.parent_path() / "../../../shared/engines")) {
    std::cout << "SKIP: ../shared/engines is absent; " << path
              << " not loaded\n";
    return;
  }
  auto match = LoadMatch(real.string());
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_GE(match->schedule.size(), 2u);
}

TEST(MatchConfigTest, ShippedMatchConfigsLoad) {
  for (const std::string& path : ShippedMatchConfigs(false)) ExpectLoads(path);
  auto match = LoadMatch("configs/matches/default.textproto");
  ASSERT_TRUE(match.ok());
  EXPECT_GE(match->openings.size(), 500u);
}

TEST(MatchConfigTest, ShippedMatchConfigsOnThePublicBooksLoad) {
  const std::vector<std::string> paths = ShippedMatchConfigs(true);
  if (!fs::exists("/tmp/books/8moves_v3.pgn") ||
      !fs::exists("/tmp/books/2moves_v1.epd") ||
      !fs::exists("/tmp/books/8mvs_+90_+99.epd")) {
    GTEST_SKIP() << paths.size()
                 << " match configs play from /tmp/books, which is not "
                    "unpacked: run configs/openings/unpack_shared_books.sh";
  }
  for (const std::string& path : paths) ExpectLoads(path);
}

TEST(MatchConfigTest, ErrorsNameFileLineColumnAndField) {
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\nplayres {}\n"),
              HasSubstr("m.textproto:2:"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\ngames: "
                         "2\ntime_control { nodes: 5 }\n"),
              HasSubstr("at least two players"));
  EXPECT_THAT(ParseError(absl::StrCat(
                  "players { name: \"a\" config {} }\nplayers { name: \"b\" "
                  "config {} }\n",
                  "games: 2\n\ntime_control { nodes: 5 depth: 3 }\n")),
              HasSubstr("m.textproto:5:1: time_control: set exactly one"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\nplayers { name: "
                         "\"b\" config {} }\n"
                         "games: 3\ntime_control { nodes: 5 }\n"),
              HasSubstr("m.textproto:3:1: games: must be even"));
  EXPECT_TRUE(
      ParseMatch("players { name: \"a\" config {} }\nplayers { name: "
                 "\"b\" config {} }\n"
                 "games: 3\nunpaired: true\ntime_control { nodes: 5 }\n",
                 "m.textproto", ".")
          .ok());
  EXPECT_THAT(
      ParseError("players { name: \"a\" config {} }\nplayers { name: \"b\" "
                 "config {} }\n"
                 "games: 2\ntime_control { nodes: 5 }\nopenings { file: "
                 "\"nope.epd\" }\n"),
      HasSubstr("m.textproto:5:12: openings.file: cannot read nope.epd"));
  EXPECT_THAT(
      ParseError("players { name: \"a\" config_file: \"missing.textproto\" }\n"
                 "players { name: \"b\" config {} }\ngames: 2\ntime_control { "
                 "nodes: 5 }\n"),
      HasSubstr("missing.textproto"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\nplayers { name: "
                         "\"a\" config {} }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("used twice"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\nplayers { name: "
                         "\"b\" config {} }\n"
                         "games: 2\ntime_control { increment_ms: 100 }\n"),
              HasSubstr("base_ms"));
  EXPECT_THAT(ParseError("players { name: \"a\" config {} }\nplayers { name: "
                         "\"b\" config {} }\n"
                         "players { name: \"c\" config {} }\n"
                         "games: 2\ntime_control { nodes: 5 }\n"),
              HasSubstr("HEAD_TO_HEAD needs exactly 2"));
  EXPECT_THAT(
      ParseError(
          "players { name: \"a\" config {} }\nplayers { name: \"b\" config {} "
          "}\n"
          "games: 2\ntime_control { nodes: 5 }\nsprt { elo0: 5 elo1: 0 }\n"),
      HasSubstr("m.textproto:5:1: sprt: elo0"));
}

TEST(ScheduleTest, PairsSwapColoursAndGauntletCoversEveryone) {
  auto match = ParseMatch(
      "players { name: \"a\" config {} }\nplayers { name: \"b\" config {} }\n"
      "players { name: \"c\" config {} }\npairing: GAUNTLET\nrounds: 3\n"
      "time_control { nodes: 5 }\n",
      "g", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  ASSERT_EQ(match->schedule.size(), 12u);
  for (size_t i = 0; i < match->schedule.size(); i += 2) {
    const ScheduledGame& a = match->schedule[i];
    const ScheduledGame& b = match->schedule[i + 1];
    EXPECT_EQ(a.white, b.black);
    EXPECT_EQ(a.black, b.white);
    EXPECT_EQ(a.opening, b.opening);
    EXPECT_EQ(a.white, 0);
  }
}

std::map<int, GameRecord> GamesByIndex(const std::string& log) {
  auto file = ReadRecordFile(log);
  EXPECT_TRUE(file.ok());
  std::map<int, GameRecord> games;
  for (size_t i = 1; i < file->records.size(); ++i) {
    GameRecord g;
    EXPECT_TRUE(g.ParseFromString(std::string(file->records[i])));
    EXPECT_TRUE(games.emplace(g.index(), g).second)
        << "duplicate game " << g.index();
  }
  return games;
}

void ExpectSameGames(const std::map<int, GameRecord>& a,
                     const std::map<int, GameRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [index, game] : a) {
    const GameRecord& other = b.at(index);
    ASSERT_EQ(game.moves_size(), other.moves_size()) << index;
    for (int i = 0; i < game.moves_size(); ++i) {
      EXPECT_EQ(game.moves(i).uci(), other.moves(i).uci());
      EXPECT_EQ(game.moves(i).nodes(), other.moves(i).nodes());
      EXPECT_EQ(game.moves(i).score_cp(), other.moves(i).score_cp());
    }
    EXPECT_EQ(game.result(), other.result());
    EXPECT_EQ(game.opening_fen(), other.opening_fen());
  }
}

TEST(MatchTest, SameSeedSameGamesWhateverTheConcurrency) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  std::ostringstream report;
  std::map<int, GameRecord> runs[2];
  for (int run = 0; run < 2; ++run) {
    const std::string dir = ::testing::TempDir() + absl::StrCat("repro", run);
    RunOptions options{.output_dir = dir,
                       .fresh = true,
                       .concurrency = run + 1,
                       .progress = false,
                       .out = &report};
    ASSERT_EQ(RunMatch(*match, options), kExitOk) << report.str();
    runs[run] = GamesByIndex(dir + "/games.log");
  }
  ASSERT_EQ(runs[0].size(), 12u);
  ExpectSameGames(runs[0], runs[1]);
}

// Random plies after the book position: the same for both games of a pair
// (colours swapped), different between pairs, each game its own when asked;
// recorded as opening moves, so the games replay; soft and hard node limits.
TEST(MatchTest, RandomPliesArePairedOrPerGame) {
  for (const bool per_game : {false, true}) {
    SCOPED_TRACE(per_game);
    std::string text = kSmallMatch;
    text.replace(text.find("games: 12"), 9, "games: 4");
    text.replace(text.find("order: SHUFFLED }"), 17,
                 absl::StrCat("order: SHUFFLED random_plies: 6 ",
                              "random_plies_per_game: ", per_game, " }"));
    text.replace(text.find("nodes: 600 }"), 12,
                 "nodes: 2000 soft_nodes: 300 }");
    auto match = ParseMatch(text, "random", ".");
    ASSERT_TRUE(match.ok()) << match.status();
    const std::string dir = ::testing::TempDir() + "random-plies";
    std::ostringstream report;
    RunOptions options{
        .output_dir = dir, .fresh = true, .progress = false, .out = &report};
    ASSERT_EQ(RunMatch(*match, options), kExitOk) << report.str();
    const std::map<int, GameRecord> games = GamesByIndex(dir + "/games.log");
    ASSERT_EQ(games.size(), 4u);
    std::set<std::string> starts;
    for (const auto& [index, g] : games) {
      EXPECT_GE(g.opening_moves_size(), 6);
      starts.insert(g.opening_fen());
      for (const MoveRecord& m : g.moves()) EXPECT_LE(m.nodes(), 2001);
    }
    EXPECT_EQ(starts.size(), per_game ? 4u : 2u);
    EXPECT_EQ(games.at(0).opening_fen() == games.at(1).opening_fen(),
              !per_game);
  }
  std::string bad = kSmallMatch;
  bad.replace(bad.find("order: SHUFFLED }"), 17,
              "order: SHUFFLED random_plies: 41 }");
  EXPECT_THAT(ParseError(bad), HasSubstr("random_plies"));
  bad = kSmallMatch;
  bad.replace(bad.find("nodes: 600 }"), 12, "nodes: 600 soft_nodes: 700 }");
  EXPECT_THAT(ParseError(bad), HasSubstr("soft_nodes above nodes"));
  bad = kSmallMatch;
  bad.replace(bad.find("nodes: 600 }"), 12, "depth: 3 soft_nodes: 700 }");
  EXPECT_THAT(ParseError(bad), HasSubstr("soft_nodes needs nodes"));
}

// The report a running match rewrites from the games it has added (every
// 100 ms here, while two threads add games): the match still ends with the
// report of its log. Under TSan this checks the rewrite's locking.
TEST(MatchTest, TheReportIsRewrittenWhileGamesComeIn) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "running_report";
  std::ostringstream out, notes;
  RunOptions options{.output_dir = dir,
                     .fresh = true,
                     .concurrency = 2,
                     .progress = false,
                     .out = &out,
                     .notes = &notes,
                     .report_interval_ms = 1};
  ASSERT_EQ(RunMatch(*match, options), kExitOk) << notes.str();
  EXPECT_THAT(notes.str(), Not(HasSubstr("report not updated")));
  auto written = ReadFile(dir + "/report.html");
  ASSERT_TRUE(written.ok());
  MatchSummary summary = SummarizeLog(*ReadLog(dir + "/games.log"));
  fs::create_directories(dir + "/again");
  ASSERT_TRUE(
      WriteDerivedFiles(dir + "/again", dir + "/games.log", &summary).ok());
  EXPECT_TRUE(*written == *ReadFile(dir + "/again/report.html"));
}

TEST(MatchTest, PgnReadsBackToTheSameMoves) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "pgn";
  std::ostringstream report;
  RunOptions options{
      .output_dir = dir, .fresh = true, .progress = false, .out = &report};
  ASSERT_EQ(RunMatch(*match, options), kExitOk);
  auto pgn = LogToPgn(dir + "/games.log");
  ASSERT_TRUE(pgn.ok());
  auto book = ParsePgnBook(*pgn, "games.pgn", 0);
  ASSERT_TRUE(book.ok()) << book.status();
  const std::map<int, GameRecord> games = GamesByIndex(dir + "/games.log");
  ASSERT_EQ(book->size(), games.size());
  size_t i = 0;
  for (const auto& [index, game] : games) {
    const Opening& read = (*book)[i++];
    EXPECT_EQ(read.start.ToFen(), game.book_fen());
    std::vector<std::string> expected(game.opening_moves().begin(),
                                      game.opening_moves().end());
    for (const MoveRecord& m : game.moves()) expected.push_back(m.uci());
    std::vector<std::string> actual;
    for (Move m : read.moves) actual.push_back(ToUci(m));
    EXPECT_EQ(actual, expected) << index;
  }
  // The summary command recomputes what the match printed.
  auto summary = SummarizeLog(dir + "/games.log");
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(FormatSummary(*summary), report.str());
}

// A match ends by writing games.pgn and report.html from its log read a batch
// of games at a time: the same files as from the log held in memory, in
// schedule order however the games lie in the log.
TEST(MatchTest, DerivedFilesReadABatchAtATimeEqualThoseOfTheHeldLog) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "derived";
  std::ostringstream out;
  RunOptions options{
      .output_dir = dir, .fresh = true, .progress = false, .out = &out};
  ASSERT_EQ(RunMatch(*match, options), kExitOk);
  auto played = ReadLog(dir + "/games.log");
  ASSERT_TRUE(played.ok());
  // 600 games, over two batches of the reader, written last game first.
  constexpr int kGames = 600;
  MatchHeader header = played->header;
  header.set_scheduled_games(kGames);
  std::vector<std::string> records = {header.SerializeAsString()};
  // Games 0 and 1 as the models of even and odd games (colours as in round
  // 0): the first two in the log need not be a pair, as games finish in any
  // order.
  const GameRecord* pair[2] = {nullptr, nullptr};
  for (const GameRecord& g : played->games)
    if (g.index() < 2) pair[g.index()] = &g;
  ASSERT_TRUE(pair[0] && pair[1]);
  for (int i = kGames - 1; i >= 0; --i) {
    GameRecord g = *pair[i % 2];
    g.set_index(i);
    g.set_round(i / 2);
    records.push_back(g.SerializeAsString());
  }
  const std::string big = dir + "/big";
  fs::create_directories(big + "/held");
  ASSERT_TRUE(ReplaceRecordFile(big + "/games.log", records).ok());
  auto held = ReadLog(big + "/games.log");
  ASSERT_TRUE(held.ok());
  ASSERT_EQ(held->games.size(), size_t(kGames));
  MatchSummary streamed_summary = SummarizeLog(*held);
  MatchSummary held_summary = streamed_summary;
  ASSERT_TRUE(
      WriteDerivedFiles(big, big + "/games.log", &streamed_summary).ok());
  ASSERT_TRUE(WriteDerivedFiles(big + "/held", *held, &held_summary).ok());
  for (const char* file : {"games.pgn", "report.html", "result.textproto"}) {
    auto streamed_text = ReadFile(big + "/" + file);
    auto held_text = ReadFile(big + "/held/" + file);
    ASSERT_TRUE(streamed_text.ok() && held_text.ok()) << file;
    EXPECT_TRUE(*streamed_text == *held_text) << file;
  }
  auto pgn = LogToPgn(big + "/games.log");
  ASSERT_TRUE(pgn.ok());
  EXPECT_EQ(*pgn, LogToPgn(*held));
  EXPECT_EQ(pgn->find("[Round \"1.1\"]"), pgn->find("[Round \""))
      << "schedule order";
}
TEST(MatchTest, ResumeSkipsFinishedGamesAndRefusesAnotherMatch) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "resume";
  std::ostringstream report;
  RunOptions options{
      .output_dir = dir, .fresh = true, .progress = false, .out = &report};
  ASSERT_EQ(RunMatch(*match, options), kExitOk);
  options.fresh = false;
  // The library writes its notes only where it is told to, never to stderr.
  std::ostringstream notes;
  options.notes = &notes;
  options.progress = true;
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(RunMatch(*match, options), kExitOk);  // nothing left to play
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_THAT(notes.str(),
              ::testing::HasSubstr("resuming: 12 games in the log, 0 to play"));
  EXPECT_EQ(GamesByIndex(dir + "/games.log").size(), 12u);

  auto other =
      ParseMatch(absl::StrReplaceAll(SmallMatch(), {{"seed: 7", "seed: 8"}}),
                 "other", ".");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(RunMatch(*other, options), kExitBadInput);
}

// A log that stops taking writes mid-match (a full disk; here the file size
// limit) ends the match with exit code 4, and every game already on disk is
// kept: resumed, the match plays only the rest and ends as a fresh one does.
TEST(MatchTest, ALogThatStopsTakingWritesLosesNoGame) {
  auto match = ParseMatch(SmallMatch(), "small", ".");
  ASSERT_TRUE(match.ok());
  const std::string dir = ::testing::TempDir() + "log-full";
  std::ostringstream report, fresh_report;
  RunOptions options{.output_dir = dir + "-fresh",
                     .fresh = true,
                     .concurrency = 3,
                     .progress = false,
                     .out = &fresh_report};
  ASSERT_EQ(RunMatch(*match, options), kExitOk);
  auto fresh_log = ReadRecordFile(dir + "-fresh/games.log");
  ASSERT_TRUE(fresh_log.ok());
  ASSERT_EQ(fresh_log->offsets.size(), 13u);

  options.output_dir = dir;
  options.out = &report;
  ::signal(SIGXFSZ, SIG_IGN);  // past the limit, write() fails with EFBIG
  rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  rlimit small = old_limit;
  small.rlim_cur = fresh_log->offsets[4] + 100;  // the header and ~3 games
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const int failed = RunMatch(*match, options);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old_limit), 0);
  EXPECT_EQ(failed, kExitIoError);
  const size_t kept = GamesByIndex(dir + "/games.log").size();
  EXPECT_GT(kept, 0u);
  EXPECT_LT(kept, 12u);

  options.fresh = false;
  ASSERT_EQ(RunMatch(*match, options), kExitOk);
  EXPECT_EQ(GamesByIndex(dir + "/games.log").size(), 12u);
  EXPECT_THAT(report.str(), HasSubstr(fresh_report.str()));
}

// An inconclusive SPRT at its cap can play on: the same games as a match
// scheduled that long from the start.
TEST(MatchTest, ResumeMayRaiseTheGameCapButNotLowerIt) {
  auto short_match = ParseMatch(
      absl::StrReplaceAll(SmallMatch(), {{"games: 12", "games: 6"}}), "s", ".");
  auto full_match = ParseMatch(SmallMatch(), "small", ".");
  auto lower_match = ParseMatch(
      absl::StrReplaceAll(SmallMatch(), {{"games: 12", "games: 4"}}), "l", ".");
  ASSERT_TRUE(short_match.ok() && full_match.ok() && lower_match.ok());
  std::ostringstream report;
  RunOptions options{.output_dir = ::testing::TempDir() + "extend-direct",
                     .fresh = true,
                     .progress = false,
                     .out = &report};
  ASSERT_EQ(RunMatch(*full_match, options), kExitOk);
  const auto direct = GamesByIndex(options.output_dir + "/games.log");

  options.output_dir = ::testing::TempDir() + "extend";
  ASSERT_EQ(RunMatch(*short_match, options), kExitOk);
  EXPECT_EQ(GamesByIndex(options.output_dir + "/games.log").size(), 6u);
  options.fresh = false;
  ASSERT_EQ(RunMatch(*full_match, options), kExitOk);
  const std::string log = options.output_dir + "/games.log";
  ExpectSameGames(GamesByIndex(log), direct);
  auto summary = SummarizeLog(log);
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->scheduled_games(), 12);

  EXPECT_EQ(RunMatch(*lower_match, options), kExitBadInput);
  EXPECT_EQ(GamesByIndex(log).size(), 12u);  // untouched
}

TEST(MatchTest, SprtStopsEarlyAgainstAMuchWeakerEngine) {
  auto match = ParseMatch(R"(
players { name: "default" config_file: "configs/engines/default.textproto"
          overrides { search { hash_mb: 1 } } }
players { name: "material" config_file: "configs/engines/material.textproto"
          overrides { search { hash_mb: 1 } } }
games: 400
openings { file: "configs/openings/balanced.epd" }
time_control { nodes: 500 }
adjudication { resign_score_cp: 600 resign_moves: 3 max_moves: 80 }
sprt { elo0: 0 elo1: 20 }
)",
                          "sprt", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  // Under a sanitizer, wider SPRT bounds decide in fewer, shorter (slow) games.
  if (UnderSanitizer()) {
    match->config.mutable_sprt()->set_elo1(60);
    match->config.mutable_time_control()->set_nodes(200);
  }
  std::ostringstream report;
  RunOptions options{.output_dir = ::testing::TempDir() + "sprt",
                     .fresh = true,
                     .progress = false,
                     .out = &report};
  EXPECT_EQ(RunMatch(*match, options), kExitOk);
  EXPECT_THAT(report.str(), HasSubstr("H1 accepted"));
  auto summary = SummarizeLog(::testing::TempDir() + "sprt/games.log");
  EXPECT_LT(summary->played_games(), 400);

  // The same match seen from the weaker side accepts H0: exit code 1.
  MatchConfig reversed = match->config;
  reversed.mutable_players()->SwapElements(0, 1);
  LoadedMatch weaker = *match;
  weaker.config = reversed;
  options.output_dir = ::testing::TempDir() + "sprt-h0";
  EXPECT_EQ(RunMatch(weaker, options), kExitH0);
}

}  // namespace
}  // namespace chess
