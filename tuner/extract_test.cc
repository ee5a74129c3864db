#include "tuner/extract.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "arena/openings.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tuner/loop.h"
#include "tuner/selfplay.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

TEST(TextDatasetTest, FormatsAndMalformedLines) {
  const std::string path = ::testing::TempDir() + "data.txt";
  std::ofstream(path)
      << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]\n"
         "4k3/8/8/8/8/8/8/4K2R w K - [1.0]\n"
         "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 "
         "\"0-1\";\n"
         "this line is not a position [1.0]\n"
         "\n"
         "4k3/8/8/8/8/8/8/4K2R w K - [2.0]\n";
  TrainingSet set;
  std::ostringstream report;
  ASSERT_TRUE(ReadTextDataset(path, &set, &report).ok());
  ASSERT_EQ(set.positions_size(), 3);
  EXPECT_EQ(set.positions(0).result(), 0.5f);
  EXPECT_EQ(set.positions(1).result(), 1.0f);
  EXPECT_EQ(set.positions(2).result(), 0.0f);
  EXPECT_EQ(set.dropped().at("malformed_line"), 2);
  EXPECT_THAT(report.str(), HasSubstr("data.txt:4:"));
  EXPECT_THAT(report.str(), HasSubstr("data.txt:6:"));
  EXPECT_FALSE(
      ReadTextDataset(::testing::TempDir() + "missing.txt", &set, &report)
          .ok());
}

// A FEN without a result is reported, not labelled with its move number.
TEST(TextDatasetTest, PlainFenWithoutResultIsDropped) {
  TrainingSet set;
  std::ostringstream report;
  ParseTextDataset(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1.0\n"
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0.5\n",
      "plain.fen", &set, &report);
  ASSERT_EQ(set.positions_size(), 2);
  EXPECT_EQ(set.positions(0).result(), 1.0f);
  EXPECT_EQ(set.positions(1).result(), 0.5f);
  EXPECT_THAT(report.str(), HasSubstr("plain.fen:1: no result"));
}

TEST(ExtractTest, FromAnArenaLog) {
  absl::StatusOr<std::vector<Opening>> book =
      LoadBook("configs/openings/balanced.epd", BookFormat::kEpd, 0);
  ASSERT_TRUE(book.ok());
  MatchRequest r;
  r.first = r.second = DefaultEngineConfig();
  r.second_name = "other";
  r.openings = &*book;
  r.games = 6;
  r.nodes = 500;
  r.output_dir = ::testing::TempDir() + "extract-match";
  ASSERT_TRUE(PlayMatch(r).ok());
  TrainingSet set;
  ExtractOptions options;
  options.qsearch_config = DefaultEngineConfig();
  ASSERT_TRUE(ExtractFromLog(r.output_dir + "/games.log", options, &set).ok());
  EXPECT_GT(set.positions_size(), 100);
  for (const TrainingPosition& p : set.positions()) {
    auto pos = Position::FromFen(p.fen());
    ASSERT_TRUE(pos.ok());
    EXPECT_FALSE(pos->InCheck());
    EXPECT_TRUE(p.result() == 0 || p.result() == 0.5f || p.result() == 1);
  }
  // Written and read back.
  ASSERT_TRUE(WriteTrainingSet(set, ::testing::TempDir() + "set.bin").ok());
  auto again = ReadTrainingSet(::testing::TempDir() + "set.bin");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->positions_size(), set.positions_size());

  // The text formats other tuners read come back as they went out: EPD with
  // the clocks and the recorded score, FEN [result] with the clocks.
  for (const auto& [format, file] :
       {std::pair{DatasetFormat::kEpd, "set.epd"},
        std::pair{DatasetFormat::kFen, "set.fen"}}) {
    SCOPED_TRACE(file);
    const std::string path = ::testing::TempDir() + file;
    ASSERT_TRUE(WriteTrainingSet(set, path, format).ok());
    auto text = ReadTrainingSet(path);
    ASSERT_TRUE(text.ok()) << text.status();
    ASSERT_EQ(text->positions_size(), set.positions_size());
    EXPECT_EQ(text->dropped_size(), 0) << "no malformed line";
    for (int i = 0; i < set.positions_size(); ++i) {
      EXPECT_EQ(text->positions(i).fen(), set.positions(i).fen());
      EXPECT_EQ(text->positions(i).result(), set.positions(i).result());
      if (format == DatasetFormat::kEpd) {
        EXPECT_EQ(text->positions(i).has_score_cp(),
                  set.positions(i).has_score_cp());
        EXPECT_EQ(text->positions(i).score_cp(), set.positions(i).score_cp());
      }
    }
  }
  const std::string epd = FormatTextDataset(set, DatasetFormat::kEpd);
  EXPECT_THAT(epd.substr(0, epd.find('\n')),
              ::testing::MatchesRegex(
                  "[^ ]+ [wb] [-KQkq]+ [-a-h1-8]+ hmvc [0-9]+; fmvn [0-9]+;"
                  "( ce -?[0-9]+;)? c9 \"(1-0|0-1|1/2-1/2)\";"));
  const std::string fen = FormatTextDataset(set, DatasetFormat::kFen);
  EXPECT_THAT(fen.substr(0, fen.find('\n')),
              ::testing::MatchesRegex(".* [0-9]+ [0-9]+ \\[(1|0|0\\.5)\\.?0?\\]"));
}

TEST(TextDatasetTest, FormatNames) {
  EXPECT_EQ(*ParseDatasetFormat("epd"), DatasetFormat::kEpd);
  EXPECT_EQ(*ParseDatasetFormat("fen"), DatasetFormat::kFen);
  EXPECT_EQ(*ParseDatasetFormat("data"), DatasetFormat::kProto);
  EXPECT_FALSE(ParseDatasetFormat("csv").ok());
  EXPECT_EQ(DatasetFormatOf("x/y.epd"), DatasetFormat::kEpd);
  EXPECT_EQ(DatasetFormatOf("x/y.bin"), DatasetFormat::kProto);
}

template <typename Message>
void ExpectParses(const std::string& path) {
  auto text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  Message m;
  EXPECT_TRUE(ParseTextProto(*text, path, &m, nullptr).ok()) << path;
}

// Every shipped tuning file parses as the message its name says, and every
// shipped engine config loads.
TEST(TuningConfigsTest, ShippedConfigsParse) {
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("configs/tuning")) {
    const std::string path = entry.path().string();
    const std::string name = entry.path().filename().string();
    if (absl::StrContains(name, "report")) {
      ExpectParses<LoopReport>(path);
    } else if (absl::StartsWith(name, "spsa")) {
      ExpectParses<SpsaConfig>(path);
    } else {
      ExpectParses<LoopConfig>(path);
    }
    ++files;
  }
  EXPECT_GE(files, 9);
  for (const auto& entry :
       std::filesystem::directory_iterator("configs/engines")) {
    EXPECT_TRUE(LoadEngineConfig(entry.path().string()).ok()) << entry.path();
  }
}

TEST(LoopTest, TinyLoopRunsEndToEnd) {
  LoopConfig config;
  config.set_name("tiny");
  config.set_start_config("configs/engines/simplified.textproto");
  config.set_book("configs/openings/balanced.epd");
  config.set_generations(1);
  config.set_selfplay_games(8);
  config.set_selfplay_nodes(300);
  config.set_sprt_games(8);
  config.mutable_texel()->set_epochs(20);
  std::ostringstream log;
  auto report = RunLoop(config, ".", ::testing::TempDir() + "loop", log);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->generations_size(), 1);
  EXPECT_EQ(report->generations(0).games(), 8);
  EXPECT_GT(report->generations(0).positions(), 50);
  EXPECT_GT(report->generations(0).k(), 0);
  EXPECT_TRUE(
      LoadEngineConfig(::testing::TempDir() + "loop/gen1.textproto").ok());
  EXPECT_THAT(FormatLoopReport(*report), HasSubstr("Elo vs previous"));
}

}  // namespace
}  // namespace chess
