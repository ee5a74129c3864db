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
#include "tuner/tune.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

// Plays `default` as `first_name` against itself as "other" from balanced.epd
// into a temporary directory `name`; returns the log's path.
std::string PlayShortMatch(const std::string& name, int games, int nodes,
                           const std::string& first_name) {
  absl::StatusOr<std::vector<Opening>> book =
      LoadBook("configs/openings/balanced.epd", BookFormat::kEpd, 0);
  EXPECT_TRUE(book.ok()) << book.status();
  MatchRequest r;
  r.first = r.second = DefaultEngineConfig();
  r.first_name = first_name;
  r.second_name = "other";
  r.openings = &*book;
  r.games = games;
  r.nodes = nodes;
  r.output_dir = ::testing::TempDir() + name;
  EXPECT_TRUE(PlayMatch(r).ok());
  return r.output_dir + "/games.log";
}

TEST(ExtractTest, FromAnArenaLog) {
  const std::string log = PlayShortMatch("extract-match", 6, 500, "first");
  TrainingSet set;
  TrainingSetSink sink(&set);
  ExtractOptions options;
  options.qsearch_config = DefaultEngineConfig();
  ASSERT_TRUE(ExtractFromLog(log, options, &sink).ok());
  EXPECT_THAT(set.sources(), ::testing::ElementsAre(log));
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
  EXPECT_THAT(
      fen.substr(0, fen.find('\n')),
      ::testing::MatchesRegex(".* [0-9]+ [0-9]+ \\[(1|0|0\\.5)\\.?0?\\]"));
}

TEST(ExtractTest, RecordsTheNamedPlayersColour) {
  const std::string log = PlayShortMatch("extract-player", 4, 300, "ours");

  ExtractOptions options;
  options.qsearch_config = DefaultEngineConfig();
  options.player = "ours";
  TrainingSet set;
  TrainingSetSink sink(&set);
  ASSERT_TRUE(ExtractFromLog(log, options, &sink).ok());
  ASSERT_GT(set.positions_size(), 0);
  int white = 0, black = 0;
  for (const TrainingPosition& p : set.positions()) {
    ASSERT_TRUE(p.has_player_sign());
    (p.player_sign() == 1 ? white : black) += 1;
    EXPECT_TRUE(p.player_sign() == 1 || p.player_sign() == -1);
  }
  EXPECT_GT(white, 0);
  EXPECT_GT(black, 0);

  // Texel fits the player's offset from such a set, and refuses a colour that
  // is neither. `gen1`: a linear evaluation with a network added to it.
  absl::StatusOr<EngineConfig> gen1 =
      LoadEngineConfig("tests/data/engines/gen1.textproto");
  ASSERT_TRUE(gen1.ok()) << gen1.status();
  TexelSettings settings;
  settings.set_epochs(2);
  settings.set_k(1.0);
  absl::StatusOr<TunedConfig> tuned =
      TuneEvaluation(set, *gen1, settings, nullptr);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  EXPECT_TRUE(tuned->texel.player_offset.has_value());
  set.mutable_positions(0)->set_player_sign(2);
  tuned = TuneEvaluation(set, *gen1, settings, nullptr);
  EXPECT_THAT(tuned.status().message(),
              HasSubstr("training position 0: player_sign 2"));
  // `gen1`'s network is held while the linear weights are fitted around
  // it, and kept; without it the same fit starts from another loss.
  set.mutable_positions(0)->set_player_sign(1);
  tuned = TuneEvaluation(set, *gen1, settings, nullptr);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  EXPECT_EQ(tuned->config.eval().network().SerializeAsString(),
            gen1->eval().network().SerializeAsString());
  EngineConfig linear = *gen1;
  linear.mutable_eval()->clear_network();
  absl::StatusOr<TunedConfig> without =
      TuneEvaluation(set, linear, settings, nullptr);
  ASSERT_TRUE(without.ok()) << without.status();
  EXPECT_FALSE(without->config.eval().has_network());
  EXPECT_NE(without->texel.start_loss, tuned->texel.start_loss);
  // A network that is the whole evaluation leaves nothing to tune.
  EngineConfig whole = *gen1;
  whole.mutable_eval()->mutable_network()->set_whole_evaluation(true);
  EXPECT_THAT(TuneEvaluation(set, whole, settings, nullptr).status().message(),
              HasSubstr("is the whole evaluation"));

  // A player that is in none of the games: every game is dropped.
  options.player = "nobody";
  TrainingSet none;
  TrainingSetSink none_sink(&none);
  ASSERT_TRUE(ExtractFromLog(log, options, &none_sink).ok());
  EXPECT_EQ(none.positions_size(), 0);
  EXPECT_GT(none.dropped().at("player_not_in_game"), 0);
}

}  // namespace
}  // namespace chess
