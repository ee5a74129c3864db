#include "tuner/datagen.h"

#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "arena/match_outputs.h"
#include "common/sanitizer.h"
#include "common/textproto.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

DatagenOptions PlayedOnly() {
  DatagenOptions options;
  options.played_only = true;
  return options;
}

using ::testing::HasSubstr;

// A game from the initial position: 1. e4 (+30) d5 (-25) 2. exd5 (+40)
// Qxd5 (mate score) 3. Nc3 (+10) Qe5+ (+10) 4. Qe2 (+5), won by White.
GameRecord SampleGame() {
  GameRecord g;
  g.set_index(0);
  g.set_opening_fen(Position::Start().ToFen());
  g.set_result(GameRecord::WHITE_WINS);
  g.set_termination(GameRecord::ADJUDICATED_RESIGN);
  const std::pair<const char*, int> moves[] = {
      {"e2e4", 30}, {"d7d5", -25}, {"e4d5", 40}, {"d8d5", 0},
      {"b1c3", 10}, {"d5e5", 10},  {"d1e2", 5}};
  for (const auto& [uci, score] : moves) {
    MoveRecord* m = g.add_moves();
    m->set_uci(uci);
    if (std::string(uci) == "d8d5") {
      m->set_mate(-7);
    } else {
      m->set_score_cp(score);
    }
  }
  return g;
}

TEST(DatagenTest, FiltersLabelAndDeduplicate) {
  TrainingSet set;
  TrainingSetSink sink(&set);
  absl::flat_hash_set<uint64_t> seen;
  int64_t kept = 0;
  DatagenFilters filters;
  filters.set_max_opening_score_cp(1000);
  ASSERT_TRUE(
      AddSelfPlayPositions(SampleGame(), filters, &seen, &sink, &kept).ok());
  // Kept: before e4, d5, Nc3, Qe5+ ... Dropped: exd5 (capture), Qxd5 (mate
  // score), Qe2 (in check).
  EXPECT_EQ(kept, 4);
  ASSERT_EQ(set.positions_size(), 4);
  EXPECT_EQ(set.positions(0).fen(), Position::Start().ToFen());
  EXPECT_EQ(set.positions(0).score_cp(), 30);  // White to move: as recorded
  EXPECT_EQ(set.positions(1).score_cp(), 25);  // Black's -25, from White's side
  for (const TrainingPosition& p : set.positions()) EXPECT_EQ(p.result(), 1.0f);
  EXPECT_EQ(set.dropped().at("noisy_best_move"), 1);
  EXPECT_EQ(set.dropped().at("mate_score"), 1);
  EXPECT_EQ(set.dropped().at("in_check"), 1);

  // The same game again: every position is a duplicate.
  kept = 0;
  ASSERT_TRUE(
      AddSelfPlayPositions(SampleGame(), filters, &seen, &sink, &kept).ok());
  EXPECT_EQ(kept, 0);
  EXPECT_EQ(set.dropped().at("duplicate"), 4);

  // Everything kept when asked, mate scores at the bound.
  filters.set_keep_in_check(true);
  filters.set_keep_noisy_best_moves(true);
  filters.set_keep_mate_scores(true);
  filters.set_keep_duplicates(true);
  kept = 0;
  ASSERT_TRUE(
      AddSelfPlayPositions(SampleGame(), filters, &seen, &sink, &kept).ok());
  EXPECT_EQ(kept, 7);
  EXPECT_EQ(set.positions(4 + 3).score_cp(), 32000);  // Black is mated

  // A lopsided opening gives nothing; an unfinished game neither.
  GameRecord lopsided = SampleGame();
  lopsided.mutable_moves(0)->set_score_cp(1200);
  kept = 0;
  ASSERT_TRUE(
      AddSelfPlayPositions(lopsided, DatagenFilters(), &seen, &sink, &kept)
          .ok());
  EXPECT_EQ(kept, 0);
  EXPECT_EQ(set.dropped().at("opening_score_above_max"), 7);
  GameRecord crashed = SampleGame();
  crashed.set_termination(GameRecord::ENGINE_CRASH);
  ASSERT_TRUE(
      AddSelfPlayPositions(crashed, DatagenFilters(), &seen, &sink, &kept)
          .ok());
  EXPECT_EQ(kept, 0);
  EXPECT_EQ(set.dropped().at("game_without_meaningful_result"), 7);
}

TEST(DatagenTest, IllegalMoveInTheLogIsDataLoss) {
  GameRecord g = SampleGame();
  g.mutable_moves(2)->set_uci("e4e6");
  TrainingSet set;
  TrainingSetSink sink(&set);
  absl::flat_hash_set<uint64_t> seen;
  int64_t kept = 0;
  const absl::Status s =
      AddSelfPlayPositions(g, DatagenFilters(), &seen, &sink, &kept);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
}

DatagenConfig SmallRun() {
  DatagenConfig config;
  EXPECT_TRUE(ParseTextProto(
                  R"(player { name: "simplified"
                              config_file: "configs/engines/simplified.textproto"
                              overrides { search { hash_mb: 1 } } }
                     soft_nodes: 300
                     random_plies: 8
                     concurrency: 2
                     seed: 5)",
                  "small", &config, nullptr)
                  .ok());
  config.set_games(UnderSanitizer() ? 2 : 6);
  return config;
}

TEST(DatagenTest, PlaysFromRandomPliesAndResumesWithoutPlayingAgain) {
  const std::string dir = ::testing::TempDir() + "datagen";
  std::filesystem::remove_all(dir);
  const DatagenConfig config = SmallRun();
  absl::StatusOr<DatagenReport> first =
      RunDatagen(config, ".", dir, dir + "/data.bin");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->games, config.games());
  EXPECT_EQ(first->new_games, config.games());
  EXPECT_GT(first->positions, 10 * config.games());
  EXPECT_GT(first->search_share, 0);
  EXPECT_LE(first->search_share, 1.0);
  EXPECT_GT(first->positions_per_core_hour, 0);
  EXPECT_THAT(FormatDatagenReport(*first),
              HasSubstr("positions per core hour"));

  // The games: 8 random plies each, every game its own (both games of a pair
  // of one engine would be the same game), no search past the hard cap.
  absl::StatusOr<MatchLog> log = ReadMatchLog(dir + "/games/games.log");
  ASSERT_TRUE(log.ok()) << log.status();
  std::set<std::string> openings;
  for (const GameRecord& g : log->games) {
    EXPECT_EQ(g.opening_moves_size(), 8);
    openings.insert(g.opening_fen());
    for (const MoveRecord& m : g.moves()) EXPECT_LE(m.nodes(), 3000);
  }
  EXPECT_EQ(openings.size(), size_t(config.games()));

  absl::StatusOr<TrainingSet> set = ReadTrainingSet(dir + "/data.bin");
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->positions_size(), first->positions);
  ASSERT_EQ(set->sources_size(), 1);
  EXPECT_THAT(set->sources(0), HasSubstr("self-play of \"simplified\""));
  EXPECT_THAT(set->sources(0), HasSubstr("its own search scores"));
  for (const TrainingPosition& p : set->positions()) {
    ASSERT_TRUE(p.has_score_cp());
    absl::StatusOr<Position> pos = Position::FromFen(p.fen());
    ASSERT_TRUE(pos.ok());
    EXPECT_FALSE(pos->InCheck());
  }

  // Again into the same directory: nothing played twice, the same data.
  absl::StatusOr<DatagenReport> again =
      RunDatagen(config, ".", dir, dir + "/data.txt");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->new_games, 0);
  EXPECT_EQ(again->positions, first->positions);
  absl::StatusOr<TrainingSet> text = ReadTrainingSet(dir + "/data.txt");
  ASSERT_TRUE(text.ok()) << text.status();
  ASSERT_EQ(text->positions_size(), set->positions_size());
  EXPECT_EQ(text->positions(0).fen(), set->positions(0).fen());
  EXPECT_EQ(text->positions(0).score_cp(), set->positions(0).score_cp());

  // A run of more games stopped early: --played_only writes what was played
  // and plays nothing more.
  DatagenConfig more = config;
  more.set_games(config.games() + 4);
  absl::StatusOr<DatagenReport> played =
      RunDatagen(more, ".", dir, dir + "/played.bin", PlayedOnly());
  ASSERT_TRUE(played.ok()) << played.status();
  EXPECT_EQ(played->games, config.games());
  EXPECT_EQ(played->new_games, 0);
  EXPECT_EQ(played->positions, first->positions);
  EXPECT_EQ(ReadMatchLog(dir + "/games/games.log")->games.size(),
            size_t(config.games()));
  // Another run's config (here its seed) is refused, as a resume would be:
  // its provenance would name games that were never played.
  DatagenConfig other = config;
  other.set_seed(config.seed() + 1);
  const absl::Status mismatch =
      RunDatagen(other, ".", dir, dir + "/other.bin", PlayedOnly()).status();
  EXPECT_EQ(mismatch.code(), absl::StatusCode::kInvalidArgument) << mismatch;
  EXPECT_THAT(mismatch.message(), HasSubstr("a different match"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/other.bin"));
  const absl::Status nothing_played =
      RunDatagen(config, ".", dir + "-none", dir + "/none.bin", PlayedOnly())
          .status();
  EXPECT_EQ(nothing_played.code(), absl::StatusCode::kNotFound)
      << nothing_played;
  EXPECT_FALSE(std::filesystem::exists(dir + "/none.bin"));
}

// The error of a run of SmallRun() changed by `edit`: each bad value is
// refused before anything is played, naming its field.
std::string ErrorOf(const std::function<void(DatagenConfig*)>& edit) {
  DatagenConfig config = SmallRun();
  edit(&config);
  const absl::Status s =
      RunDatagen(config, ".", ::testing::TempDir() + "bad", "x.bin").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  return std::string(s.message());
}

TEST(DatagenTest, BadConfigsNameTheField) {
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) { c->clear_player(); }),
              HasSubstr("player: set config"));
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) { c->set_hard_nodes(10); }),
              HasSubstr("hard_nodes"));
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) { c->set_random_plies(41); }),
              HasSubstr("random_plies"));
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) {
                c->mutable_player()->set_config_file("no/such.textproto");
              }),
              HasSubstr("player.config_file"));
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) {
                c->mutable_player()->mutable_external();
              }),
              HasSubstr("player.external.argv"));
  EXPECT_THAT(ErrorOf([](DatagenConfig* c) {
                c->mutable_adjudication()->set_resign_moves(-1);
              }),
              HasSubstr("adjudication"));
  EXPECT_FALSE(std::filesystem::exists(::testing::TempDir() + "bad/games"));
}

}  // namespace
}  // namespace chess
