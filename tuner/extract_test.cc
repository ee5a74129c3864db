#include "tuner/extract.h"

#include <filesystem>
#include <fstream>

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
  TrainingSetSink sink(&set);
  ExtractOptions options;
  options.qsearch_config = DefaultEngineConfig();
  ASSERT_TRUE(ExtractFromLog(r.output_dir + "/games.log", options, &sink).ok());
  EXPECT_THAT(set.sources(), ::testing::ElementsAre(r.output_dir + "/games.log"));
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

}  // namespace
}  // namespace chess
