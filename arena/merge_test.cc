// A match played in shards and merged is the match played on one machine:
// the same games, the same standings number for number. Bad merges are
// refused with the file and the games named, and change nothing.
#include "arena/merge.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "arena/report.h"
#include "common/files.h"
#include "common/record_io.h"
#include "common/sanitizer.h"
#include "engine/config.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

constexpr char kMatch[] = R"(
name: "sharded"
players { name: "a" config { search { hash_mb: 1 } } }
players { name: "b" config_file: "configs/engines/simplified.textproto"
          overrides { search { hash_mb: 1 } } }
games: 14
openings { file: "configs/openings/balanced.epd" order: SHUFFLED }
time_control { nodes: 400 }
adjudication { max_moves: 60 }
sprt { elo0: 0 elo1: 10 alpha: 0.05 beta: 0.05 }
seed: 5
)";

// kMatch's node limit, a third of it under a sanitizer (5-20x slower code).
std::string ShortUnderSanitizer(const std::string& text) {
  return UnderSanitizer()
             ? absl::StrReplaceAll(text, {{"nodes: 400 }", "nodes: 150 }"}})
             : text;
}

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "merge-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
  }

  int Play(const std::string& text, const std::string& out, int shard = 0,
           int shards = 0) {
    auto match =
        ParseMatch(ShortUnderSanitizer(text), "sharded.textproto", ".");
    EXPECT_TRUE(match.ok()) << match.status();
    std::ostringstream report;
    RunOptions options{.output_dir = out,
                       .shard_index = shard,
                       .shard_count = shards,
                       .progress = false,
                       .out = &report};
    return RunMatch(*match, options);
  }

  void PlayShards(int shards, const std::string& text = kMatch) {
    for (int s = 0; s < shards; ++s)
      ASSERT_EQ(Play(text, Shard(s), s, shards), kExitOk);
  }
  std::string Shard(int s) const { return absl::StrCat(dir_, "/shard-", s); }

  std::string dir_;
};

std::map<int, std::string> MovesByIndex(const std::vector<GameRecord>& games) {
  std::map<int, std::string> moves;
  for (const GameRecord& g : games) {
    std::string& m = moves[g.index()];
    for (const MoveRecord& move : g.moves())
      absl::StrAppend(&m, move.uci(), " ");
    absl::StrAppend(&m, GameRecord::Result_Name(g.result()));
  }
  return moves;
}

TEST_F(MergeTest, ShardsMergeToTheSingleMachineMatch) {
  ASSERT_EQ(Play(kMatch, dir_ + "/single"), kExitOk);
  auto single = SummarizeLog(dir_ + "/single/games.log");
  ASSERT_TRUE(single.ok());
  PlayShards(3);
  // Each shard holds its own game pairs only.
  auto shard0 = ReadLog(Shard(0) + "/games.log");
  ASSERT_TRUE(shard0.ok());
  EXPECT_EQ(shard0->games.size(), 6u);  // pairs 0, 3, 6 of 7
  for (const GameRecord& g : shard0->games) EXPECT_EQ(g.index() / 2 % 3, 0);

  auto paths = ExpandLogPaths({dir_});  // the directory of shard-*/
  ASSERT_TRUE(paths.ok()) << paths.status();
  ASSERT_EQ(paths->size(), 3u);
  auto merged = MergeLogs(*paths, /*final_merge=*/true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_TRUE(merged->missing_games.empty());
  auto summary = WriteMerge(*merged, dir_ + "/merged");
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(FormatSummary(*summary), FormatSummary(*single));
  EXPECT_EQ(summary->pairings(0).llr(), single->pairings(0).llr());

  auto merged_log = ReadLog(dir_ + "/merged/games.log");
  auto single_log = ReadLog(dir_ + "/single/games.log");
  ASSERT_TRUE(merged_log.ok() && single_log.ok());
  EXPECT_EQ(MovesByIndex(merged_log->games), MovesByIndex(single_log->games));
  EXPECT_EQ(*ReadFile(dir_ + "/merged/games.pgn"), LogToPgn(*merged_log));
  // Merging again (the shards resumed or not) rewrites the merge.
  EXPECT_TRUE(WriteMerge(*merged, dir_ + "/merged").ok());
  // A merge never overwrites a match log.
  auto over = WriteMerge(*merged, dir_ + "/single");
  ASSERT_FALSE(over.ok());
  EXPECT_THAT(over.status().message(), HasSubstr("not a merge"));
}

// A merge keeps where the games lie: read again, they come in schedule order
// as the merged log holds them, and the report, summary and PGN of the shards
// are those of the merged log.
TEST_F(MergeTest, MergedGamesAreReadAgainFromTheShardsInScheduleOrder) {
  PlayShards(3);
  auto paths = ExpandLogPaths({dir_});
  ASSERT_TRUE(paths.ok()) << paths.status();
  auto merged = MergeLogs(*paths, /*final_merge=*/true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  ASSERT_TRUE(WriteMerge(*merged, dir_ + "/merged").ok());
  const std::string merged_path = dir_ + "/merged/games.log";
  auto merged_log = ReadLog(merged_path);
  ASSERT_TRUE(merged_log.ok()) << merged_log.status();

  std::vector<GameRecord> read_again;
  auto scan = ScanMerged(
      *merged, [](const LogScan& scan) { EXPECT_FALSE(scan.empty()); },
      [&](const LogScan&, absl::Span<const GameRecord* const> games) {
        for (const GameRecord* g : games) read_again.push_back(*g);
      });
  ASSERT_TRUE(scan.ok()) << scan.status();
  ASSERT_EQ(read_again.size(), 14u);
  for (size_t i = 0; i < read_again.size(); ++i) {
    EXPECT_EQ(read_again[i].index(), int(i));
    EXPECT_EQ(read_again[i].SerializeAsString(),
              merged_log->games[i].SerializeAsString());
  }
  auto from_shards = [&](StartScan start, TakeGames take) {
    return ScanMerged(*merged, start, take);
  };
  auto report = ReadGamesForReport(from_shards, "shards");
  auto merged_report = ReadLogForReport(merged_path);
  ASSERT_TRUE(report.ok() && merged_report.ok());
  EXPECT_EQ(RenderMatchReport(report->data, report->header)[0].contents,
            RenderMatchReport(merged_report->data, merged_report->header)[0]
                .contents);
  auto summary = SummarizeGames(from_shards, "shards");
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(FormatSummary(*summary), FormatSummary(merged->summary));
  auto pgn = ReadGamesAsPgn(from_shards, "shards");
  ASSERT_TRUE(pgn.ok()) << pgn.status();
  EXPECT_EQ(pgn->pgn, *ReadFile(dir_ + "/merged/games.pgn"));
}

// A shard log rewritten after the merge read it is caught when the games are
// read again, not merged wrongly: here its first two games swap indices,
// which leaves every record where it was, intact and of the same length.
TEST_F(MergeTest, ALogChangedSinceTheMergeIsAnError) {
  PlayShards(2);
  auto merged = MergeLogs(*ExpandLogPaths({dir_}), /*final_merge=*/true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  const std::string shard0 = Shard(0) + "/games.log";
  auto file = ReadRecordFile(shard0);
  ASSERT_TRUE(file.ok());
  std::vector<std::string> records(file->records.begin(), file->records.end());
  GameRecord first, second;
  ASSERT_TRUE(first.ParseFromString(records[1]));
  ASSERT_TRUE(second.ParseFromString(records[2]));
  const int index = first.index();
  first.set_index(second.index());
  second.set_index(index);
  records[1] = first.SerializeAsString();
  records[2] = second.SerializeAsString();
  ASSERT_EQ(records[1].size(), file->records[1].size());
  ASSERT_TRUE(ReplaceRecordFile(shard0, records).ok());
  auto scan = ScanMerged(
      *merged, [](const LogScan&) {},
      [](const LogScan&, absl::Span<const GameRecord* const>) {});
  ASSERT_FALSE(scan.ok());
  EXPECT_TRUE(absl::IsDataLoss(scan.status())) << scan.status();
  EXPECT_THAT(scan.status().message(), HasSubstr(shard0));
  auto written = WriteMerge(*merged, dir_ + "/merged");
  ASSERT_FALSE(written.ok());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/merged/games.log"))
      << "nothing written";
}

TEST_F(MergeTest, MissingShardIsNamedWithItsGames) {
  PlayShards(3);
  const std::vector<std::string> two = {Shard(0) + "/games.log",
                                        Shard(2) + "/games.log"};
  auto final_merge = MergeLogs(two, /*final_merge=*/true);
  ASSERT_FALSE(final_merge.ok());
  EXPECT_THAT(final_merge.status().message(),
              HasSubstr("shard 1/3 is missing: its 4 games are in no log"));
  auto merged = MergeLogs(two, /*final_merge=*/false);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(merged->missing_games, (std::vector<int>{2, 3, 8, 9}));
  EXPECT_THAT(absl::StrJoin(merged->notes, "\n"),
              HasSubstr("shard 1/3 is missing"));
}

// arena status: each shard's games of its share, where it ran and how often
// it started (a requeued shard started more than once).
TEST_F(MergeTest, ProgressShowsEachShardWithItsNodeAndStarts) {
  PlayShards(3);
  auto merged = MergeLogs({Shard(0) + "/games.log", Shard(2) + "/games.log"},
                          /*final_merge=*/false);
  ASSERT_TRUE(merged.ok()) << merged.status();
  ASSERT_EQ(merged->progress.size(), 2u);
  EXPECT_EQ(merged->progress[1].shard_index, 2);
  EXPECT_EQ(merged->progress[1].games, merged->progress[1].scheduled);
  const std::string text =
      FormatProgress(*merged, absl::Now(),
                     {{0, ShardRun{.node = "node2", .starts = 2}},
                      {2, ShardRun{.node = "node3", .starts = 1}}});
  EXPECT_THAT(text, HasSubstr("  shard 0  node2        6 of 6 games  done "
                              "(started 2 times)\n"));
  EXPECT_THAT(text, HasSubstr("  shard 2  node3        4 of 4 games  done\n"));
  EXPECT_THAT(text, HasSubstr("shard 1/3 is missing"));
}

TEST_F(MergeTest, BadMergesNameTheFileAndChangeNothing) {
  PlayShards(2);
  const std::string log0 = Shard(0) + "/games.log";
  const std::string log1 = Shard(1) + "/games.log";
  // The same shard twice.
  auto twice = MergeLogs({log0, log0}, true);
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(), HasSubstr("shard 0/2 is also"));
  // Another seed: another match.
  const std::string other = dir_ + "/other";
  ASSERT_EQ(
      Play(absl::StrReplaceAll(kMatch, {{"seed: 5", "seed: 6"}}), other, 1, 2),
      kExitOk);
  auto mixed = MergeLogs({log0, other + "/games.log"}, true);
  ASSERT_FALSE(mixed.ok());
  EXPECT_THAT(mixed.status().message(),
              HasSubstr(other + "/games.log: a different match"));
  // A whole match and a shard.
  ASSERT_EQ(Play(kMatch, dir_ + "/whole"), kExitOk);
  auto whole = MergeLogs({log0, dir_ + "/whole/games.log"}, true);
  ASSERT_FALSE(whole.ok());
  EXPECT_THAT(whole.status().message(), HasSubstr("a whole match"));
  // A torn shard: refused by the final merge, noted by a summary.
  const std::string before = *ReadFile(log1);
  std::ofstream(log1, std::ios::binary) << before.substr(0, before.size() - 9);
  const std::string torn = *ReadFile(log1);
  auto final_merge = MergeLogs({log0, log1}, true);
  ASSERT_FALSE(final_merge.ok());
  EXPECT_THAT(final_merge.status().message(),
              HasSubstr(log1 + ": ends in a torn record"));
  auto in_progress = MergeLogs({log0, log1}, false);
  ASSERT_TRUE(in_progress.ok());
  EXPECT_EQ(in_progress->missing_games.size(), 1u);  // the torn last game
  // A damaged shard: refused, and no file changed.
  std::string damaged = before;
  damaged[damaged.size() - 30] ^= 0x20;
  std::ofstream(log1, std::ios::binary) << damaged;
  auto bad = MergeLogs({log0, log1}, true);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr(log1 + ": damaged records"));
  EXPECT_EQ(*ReadFile(log1), damaged);
  (void)torn;
}

// A shard resumes its own part only; a killed shard loses nothing.
TEST_F(MergeTest, ShardResumesItsOwnLogOnly) {
  PlayShards(2);
  EXPECT_EQ(Play(kMatch, Shard(0), 1, 2), kExitBadInput);
  EXPECT_EQ(Play(kMatch, Shard(0)), kExitBadInput);
  // Cut the last game of shard 1 (as a kill mid-write would): resuming plays
  // exactly that game again.
  const std::string log1 = Shard(1) + "/games.log";
  auto file = ReadRecordFile(log1);
  ASSERT_TRUE(file.ok());
  const std::string data = *ReadFile(log1);
  std::ofstream(log1, std::ios::binary)
      << data.substr(0, file->offsets.back() + 5);
  ASSERT_EQ(Play(kMatch, Shard(1), 1, 2), kExitOk);
  auto merged = MergeLogs(*ExpandLogPaths({dir_}), true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_TRUE(merged->missing_games.empty());
  EXPECT_EQ(merged->games.size(), 14u);
}

// With an SPRT, shards running at once stop when the LLR over all of them
// crosses a bound, each learning it from the others' logs within one check
// interval (here 100 ms, longer as the logs grow) and the games then in
// progress.
TEST_F(MergeTest, SprtOverAllShardsStopsEveryShard) {
  // Under a sanitizer, wider SPRT bounds decide in fewer, shorter (slow) games.
  const std::string text = absl::StrReplaceAll(
      ShortUnderSanitizer(kMatch),
      {{"games: 14", "games: 600"},
       {"elo1: 10", UnderSanitizer() ? "elo1: 40" : "elo1: 10"},
       {"config_file: \"configs/engines/simplified.textproto\"",
        "config_file: \"configs/engines/material.textproto\""}});
  auto match = ParseMatch(text, "sprt.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  std::vector<std::thread> shards;
  std::ostringstream reports[2];
  int codes[2];
  for (int s = 0; s < 2; ++s) {
    shards.emplace_back([&, s] {
      RunOptions options{.output_dir = Shard(s),
                         .shard_index = s,
                         .shard_count = 2,
                         .peer_check_ms = 100,
                         .concurrency = 1,
                         .progress = false,
                         .out = &reports[s]};
      codes[s] = RunMatch(*match, options);
    });
  }
  for (std::thread& t : shards) t.join();
  // Every shard names the verdict of all shards; at least one was stopped by
  // it. (On a loaded machine one shard may race through its share of the
  // games before the other has played enough for the verdict: it then learns
  // the verdict at its last look.)
  int stopped = 0;
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(codes[s], kExitOk);
    EXPECT_THAT(reports[s].str(),
                HasSubstr("the SPRT over all shards accepted H1"))
        << reports[s].str();
    stopped += absl::StrContains(reports[s].str(),
                                 "stopped: the SPRT over all shards");
  }
  EXPECT_GE(stopped, 1);
  auto merged = MergeLogs(*ExpandLogPaths({dir_}), true);
  ASSERT_TRUE(merged.ok()) << merged.status();
  const MatchSummary& all = merged->summary;
  // The shards' games after the crossing are in the merge too.
  EXPECT_EQ(all.pairings(0).sprt_verdict(), SPRT_ACCEPT_H1);
  EXPECT_THAT(all.pairings(0).sprt(), ::testing::StartsWith("H1 accepted"));
  EXPECT_LT(all.played_games(), 600) << FormatSummary(all);
}

}  // namespace
}  // namespace chess
