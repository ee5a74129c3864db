#include "arena/venue.h"

#include <filesystem>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "arena/match_setup.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kMatch[] =
    "name: \"venue\"\n"
    "players { name: \"a\" config {} }\nplayers { name: \"b\" config {} }\n"
    "games: 2\ntime_control { nodes: 200 }\nadjudication { max_moves: 10 }\n";

TEST(VenueTest, AVenueIsCheckedNamingTheField) {
  EXPECT_TRUE(ValidateVenue(Venue{}).ok());
  EXPECT_THAT(ValidateVenue(Venue{.shards = -1}).message(),
              HasSubstr("shards"));
  EXPECT_THAT(ValidateVenue(Venue{.shards = 2, .cpus_per_shard = 0}).message(),
              HasSubstr("cpus_per_shard"));
  EXPECT_THAT(ValidateVenue(Venue{.shards = 2}).message(), HasSubstr("arena"));
}

TEST(VenueTest, WhereTheGamesAreAndWhereTheBinaryGoes) {
  EXPECT_EQ(PlayedLogPath("/runs/m", Venue{}), "/runs/m/games.log");
  EXPECT_EQ(PlayedLogPath("/runs/m", Venue{.shards = 4}),
            "/runs/m/merged/games.log");
  EXPECT_EQ(RunCopyOfArena(Venue{.shards = 4}, "/runs/m/iteration-3"),
            "/runs/m/iteration-3/bin/arena");
  EXPECT_EQ(RunCopyOfArena(Venue{.shards = 4, .run_dir = "/runs/m"},
                           "/runs/m/iteration-3"),
            "/runs/m/bin/arena")
      << "one copy for every match of a run";
}

TEST(VenueTest, DryRunScriptsWriteNothing) {
  auto match = ParseMatch(kMatch, "m.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  const std::string dir = ::testing::TempDir() + "venue-dry";
  const Venue venue{.shards = 3, .arena = "/opt/arena", .run_dir = dir};
  auto scripts = SlurmScripts(*match, venue, dir);
  ASSERT_TRUE(scripts.ok()) << scripts.status();
  EXPECT_THAT(*scripts, HasSubstr("#SBATCH --array=0-2"));
  EXPECT_THAT(*scripts, HasSubstr(absl::StrCat("exec '", dir, "/bin/arena' '",
                                               dir, "/match.textproto'")));
  EXPECT_FALSE(fs::exists(dir));
}

TEST(VenueTest, InProcessIsTheArenasOwnMatch) {
  auto match = ParseMatch(kMatch, "m.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  RunOptions options;
  options.output_dir = ::testing::TempDir() + "venue-local";
  options.fresh = true;
  options.progress = false;
  auto summary = PlayAnywhere(*match, Venue{}, options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->played_games(), 2);
  EXPECT_TRUE(fs::exists(PlayedLogPath(options.output_dir, Venue{})));
}

}  // namespace
}  // namespace chess
