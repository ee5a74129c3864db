// A damaged or hostile log loses nothing that is intact: damage is reported
// with its offset, resuming refuses to touch the log unless told to drop the
// damaged records (and then plays those games again), and records that a
// match could not have produced never reach the standings or the PGN.
#include "arena/log_reader.h"

#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "arena/match.h"
#include "arena/match_outputs.h"
#include "arena/standings.h"
#include "common/files.h"
#include "common/record_io.h"
#include "common/sanitizer.h"
#include "engine/config.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kMatch[] = R"(
name: "damage"
players { name: "a" config { search { hash_mb: 1 } } }
players { name: "b" config_file: "configs/engines/simplified.textproto"
          overrides { search { hash_mb: 1 } } }
games: 8
openings { file: "configs/openings/balanced.epd" }
time_control { nodes: 300 }
adjudication { max_moves: 40 }
seed: 3
)";

std::string Slurp(const std::string& path) { return *ReadFile(path); }

void Spit(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}

class DamagedLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto match = ParseMatch(kMatch, "damage.textproto", ".");
    ASSERT_TRUE(match.ok()) << match.status();
    match_ = *match;
    dir_ = ::testing::TempDir() + "damaged-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_EQ(Run(/*fresh=*/true), kExitOk) << report_.str();
    log_ = dir_ + "/games.log";
    auto file = ReadRecordFile(log_);
    ASSERT_TRUE(file.ok());
    ASSERT_EQ(file->records.size(), 9u);
    offsets_ = file->offsets;
    original_ = Slurp(log_);
  }

  int Run(bool fresh, bool drop_damaged = false) {
    report_.str("");
    RunOptions options{.output_dir = dir_,
                       .fresh = fresh,
                       .drop_damaged = drop_damaged,
                       .progress = false,
                       .out = &report_};
    return RunMatch(match_, options);
  }

  // Flips one byte of the record at `record` (0: the header).
  void FlipByteOf(int record, int at = 20) {
    std::string data = original_;
    data[offsets_[record] + 8 + at] ^= 0x40;
    Spit(log_, data);
  }

  LoadedMatch match_;
  std::string dir_, log_, original_;
  std::vector<uint64_t> offsets_;
  std::ostringstream report_;
};

TEST_F(DamagedLogTest, MiddleRecordIsReportedAndTheRestKept) {
  FlipByteOf(3);
  auto log = ReadLog(log_);
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->games.size(), 7u);
  ASSERT_EQ(log->damage.size(), 1u);
  EXPECT_THAT(log->damage[0], HasSubstr(absl::StrCat("offset ", offsets_[3])));
  EXPECT_FALSE(log->torn);

  auto summary = SummarizeLog(log_);
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->exit_code(), kExitBadInput);
  EXPECT_EQ(summary->played_games(), 7);
  EXPECT_THAT(FormatSummary(*summary), HasSubstr("DAMAGED: offset"));
  EXPECT_FALSE(LogToPgn(log_).ok());

  // Resuming refuses and leaves every byte as it was...
  EXPECT_EQ(Run(/*fresh=*/false), kExitBadInput);
  std::string damaged = original_;
  damaged[offsets_[3] + 28] ^= 0x40;
  EXPECT_EQ(Slurp(log_), damaged);
  // ...until told to drop the damaged record: its game is played again, the
  // old file is kept beside.
  EXPECT_EQ(Run(/*fresh=*/false, /*drop_damaged=*/true), kExitOk);
  EXPECT_EQ(Slurp(log_ + ".damaged"), damaged);
  auto repaired = ReadLog(log_);
  ASSERT_TRUE(repaired.ok());
  EXPECT_TRUE(repaired->damage.empty());
  EXPECT_EQ(repaired->games.size(), 8u);
}

TEST_F(DamagedLogTest, DamagedHeaderIsAnErrorAndNothingIsRewritten) {
  FlipByteOf(0, 5);
  const std::string damaged = Slurp(log_);
  auto log = ReadLog(log_);
  ASSERT_FALSE(log.ok());
  EXPECT_THAT(log.status().message(), HasSubstr(log_));
  EXPECT_THAT(log.status().message(), HasSubstr("header"));
  EXPECT_FALSE(SummarizeLog(log_).ok());
  EXPECT_FALSE(LogToPgn(log_).ok());
  EXPECT_EQ(Run(/*fresh=*/false), kExitBadInput);
  EXPECT_EQ(Run(/*fresh=*/false, /*drop_damaged=*/true), kExitBadInput);
  EXPECT_EQ(Slurp(log_), damaged);
}

// Every single-byte flip in any game record costs that record alone: the
// reader resynchronises on the framing. (The campaign found 944 of 1,000
// random flips losing intact records.)
TEST_F(DamagedLogTest, EveryFlipCostsOnlyItsOwnRecord) {
  const size_t first_game = offsets_[1];
  int lost_intact = 0, flips = 0;
  // Every 7th byte (every 29th under a sanitizer): a flip in every field.
  const size_t step = UnderSanitizer() ? 29 : 7;
  for (size_t at = first_game; at < original_.size(); at += step) {
    std::string data = original_;
    data[at] ^= 0x01;
    auto log = ParseLog(data, "flipped.log");
    ASSERT_TRUE(log.ok()) << at << ": " << log.status();
    ++flips;
    // The record holding the flipped byte:
    size_t hit = 1;
    while (hit + 1 < offsets_.size() && offsets_[hit + 1] <= at) ++hit;
    if (log->games.size() + 1 < offsets_.size() - 1) ++lost_intact;
    EXPECT_GE(log->games.size(), offsets_.size() - 2) << "flip at " << at;
    for (const GameRecord& g : log->games) EXPECT_NE(int(g.index()), -1) << hit;
  }
  EXPECT_GT(flips, UnderSanitizer() ? 25 : 100);
  EXPECT_EQ(lost_intact, 0);
}

TEST_F(DamagedLogTest, TornTailIsCutAndItsGamePlayedAgain) {
  Spit(log_, original_.substr(0, original_.size() - 5));
  auto log = ReadLog(log_);
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(log->torn);
  EXPECT_TRUE(log->damage.empty());
  EXPECT_EQ(log->games.size(), 7u);
  EXPECT_EQ(Run(/*fresh=*/false), kExitOk);
  EXPECT_EQ(ReadLog(log_)->games.size(), 8u);
}

// The identity of a match is what decides its games, not where its files
// lie: the same book elsewhere resumes, another book does not.
TEST_F(DamagedLogTest, ResumeWhereverTheBookLies) {
  const std::string moved = dir_ + "/moved";
  std::filesystem::create_directories(moved + "/configs/openings");
  std::filesystem::copy_file("configs/openings/balanced.epd",
                             moved + "/configs/openings/balanced.epd");
  std::filesystem::create_directories(moved + "/configs/engines");
  std::filesystem::copy_file("configs/engines/simplified.textproto",
                             moved + "/configs/engines/simplified.textproto");
  auto elsewhere = ParseMatch(kMatch, "moved.textproto", moved);
  ASSERT_TRUE(elsewhere.ok()) << elsewhere.status();
  match_ = *elsewhere;
  EXPECT_EQ(Run(/*fresh=*/false), kExitOk) << report_.str();

  Spit(moved + "/configs/openings/balanced.epd",
       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
  auto other_book = ParseMatch(kMatch, "moved.textproto", moved);
  ASSERT_TRUE(other_book.ok());
  match_ = *other_book;
  EXPECT_EQ(Run(/*fresh=*/false), kExitBadInput);
}

// ---- records that are intact but could not come from the match ----

class HostileRecordTest : public DamagedLogTest {
 protected:
  // Rewrites the log with game record 1 changed by `edit`.
  void EditGame(const std::function<void(GameRecord*)>& edit) {
    auto file = ReadRecordFile(log_);
    ASSERT_TRUE(file.ok());
    std::vector<std::string> records(file->records.begin(),
                                     file->records.end());
    GameRecord g;
    ASSERT_TRUE(g.ParseFromString(records[1]));
    edit(&g);
    records[1] = g.SerializeAsString();
    ASSERT_TRUE(ReplaceRecordFile(log_, records).ok());
  }
  void EditHeader(const std::function<void(MatchHeader*)>& edit) {
    auto file = ReadRecordFile(log_);
    ASSERT_TRUE(file.ok());
    std::vector<std::string> records(file->records.begin(),
                                     file->records.end());
    MatchHeader h;
    ASSERT_TRUE(h.ParseFromString(records[0]));
    edit(&h);
    records[0] = h.SerializeAsString();
    ASSERT_TRUE(ReplaceRecordFile(log_, records).ok());
  }
  void ExpectReportedGame(absl::string_view what) {
    auto log = ReadLog(log_);
    ASSERT_TRUE(log.ok()) << log.status();
    ASSERT_EQ(log->damage.size(), 1u);
    EXPECT_THAT(log->damage[0], HasSubstr(what));
    EXPECT_EQ(log->games.size(), 7u);
    auto summary = SummarizeLog(log_);
    ASSERT_TRUE(summary.ok());
    EXPECT_EQ(summary->exit_code(), kExitBadInput);
    EXPECT_FALSE(LogToPgn(log_).ok());
    EXPECT_EQ(Run(/*fresh=*/false), kExitBadInput);
  }
};

TEST_F(HostileRecordTest, PairingOutOfRange) {
  for (int pairing : {99, -1, INT_MAX}) {
    EditGame([&](GameRecord* g) { g->set_pairing(pairing); });
    ExpectReportedGame("pairing");
  }
}

TEST_F(HostileRecordTest, IndexOutsideTheSchedule) {
  EditGame([](GameRecord* g) { g->set_index(8); });
  ExpectReportedGame("outside the schedule");
}

TEST_F(HostileRecordTest, IllegalMove) {
  EditGame([](GameRecord* g) { g->mutable_moves(1)->set_uci("a1a8"); });
  ExpectReportedGame("move 2 \"a1a8\"");
}

TEST_F(HostileRecordTest, WrongPlayers) {
  EditGame([](GameRecord* g) { g->set_white("mallory"); });
  ExpectReportedGame("mallory");
}

// A CRC-valid record whose result contradicts how the game ended was once
// counted as it said.
TEST_F(HostileRecordTest, ResultThatContradictsTheTermination) {
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::MAX_MOVES);
    g->set_result(GameRecord::BLACK_WINS);
  });
  {
    SCOPED_TRACE("result BLACK_WINS with termination MAX_MOVES");
    ExpectReportedGame("result BLACK_WINS with termination MAX_MOVES");
  }
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::MAX_MOVES);
    g->set_result(GameRecord::UNFINISHED);
  });
  {
    SCOPED_TRACE("result UNFINISHED");
    ExpectReportedGame("result UNFINISHED");
  }
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::ADJUDICATED_RESIGN);
    g->set_result(GameRecord::DRAW);
  });
  {
    SCOPED_TRACE("ADJUDICATED_RESIGN");
    ExpectReportedGame("ADJUDICATED_RESIGN");
  }
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::CHECKMATE);
    g->set_result(GameRecord::DRAW);
  });
  {
    SCOPED_TRACE("the final position says otherwise");
    ExpectReportedGame("the final position says otherwise");
  }
  // No termination, a win: a reason is needed for a decisive result.
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::NONE);
    g->set_result(GameRecord::WHITE_WINS);
  });
  {
    SCOPED_TRACE("NONE and a win");
    ExpectReportedGame("result WHITE_WINS with termination NONE");
  }
  // A stalemate the final position does not show (a game cut short).
  EditGame([](GameRecord* g) {
    g->set_termination(GameRecord::STALEMATE);
    g->set_result(GameRecord::DRAW);
  });
  {
    SCOPED_TRACE("STALEMATE");
    ExpectReportedGame("STALEMATE: the final position says otherwise");
  }
}

TEST_F(HostileRecordTest, HeaderWithoutPlayersOrWithOneGauntletPlayer) {
  EditHeader([](MatchHeader* h) { h->mutable_config()->clear_players(); });
  EXPECT_THAT(ReadLog(log_).status().message(), HasSubstr("players"));
  EXPECT_EQ(Run(/*fresh=*/false), kExitBadInput);
  Spit(log_, original_);
  EditHeader([](MatchHeader* h) {
    h->mutable_config()->set_pairing(MatchConfig::GAUNTLET);
    h->mutable_config()->mutable_players()->RemoveLast();
  });
  EXPECT_FALSE(ReadLog(log_).ok());
  EXPECT_FALSE(SummarizeLog(log_).ok());
}

// A log of many batches, with a damaged region, an invalid game and a
// duplicate in it: read a batch at a time, it gives what ParseLog gives.
TEST_F(DamagedLogTest, ScanningInBatchesReadsWhatParsingReads) {
  auto played = ReadLog(log_);
  ASSERT_TRUE(played.ok());
  const int games = 1200;
  MatchHeader header = played->header;
  header.mutable_config()->set_games(games);
  header.set_scheduled_games(games);
  std::vector<std::string> records = {header.SerializeAsString()};
  const GameRecord* pair[2] = {nullptr, nullptr};  // colours as in round 0
  for (const GameRecord& g : played->games)
    if (g.index() < 2) pair[g.index()] = &g;
  ASSERT_TRUE(pair[0] && pair[1]);
  for (int i = 0; i < games; ++i) {
    GameRecord g = *pair[i % 2];
    g.set_index(i);
    g.set_round(i / 2);
    if (i == 300) g.set_pairing(99);
    records.push_back(g.SerializeAsString());
    if (i == 500) records.push_back(records[4]);  // game 3 again
  }
  ASSERT_TRUE(ReplaceRecordFile(log_, records).ok());
  auto file = ReadRecordFile(log_);
  ASSERT_TRUE(file.ok());
  std::string data = Slurp(log_);
  data[file->offsets[900] + 30] ^= 0x40;
  Spit(log_, data);

  auto parsed = ReadLog(log_);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  std::vector<int> scanned;
  size_t calls = 0;
  auto scan = ScanLogFile(
      log_, [&](const LogScan& so_far, absl::Span<const GameRecord* const> g) {
        ++calls;
        EXPECT_LE(so_far.game_records, size_t(games));
        for (const GameRecord* game : g) scanned.push_back(game->index());
      });
  ASSERT_TRUE(scan.ok()) << scan.status();
  EXPECT_GT(calls, 2u) << "several batches";
  // The games, the duplicate, less the damaged record.
  EXPECT_EQ(scan->game_records, size_t(games));
  EXPECT_EQ(scan->damage, parsed->damage);
  ASSERT_EQ(scan->damage.size(), 2u) << "in file order";
  EXPECT_THAT(scan->damage[0], HasSubstr("pairing 99"));
  EXPECT_THAT(scan->damage[1], HasSubstr("bytes hold no intact record"));
  EXPECT_EQ(scan->duplicates, 1);
  EXPECT_EQ(parsed->duplicates, 1);
  EXPECT_EQ(scan->valid_bytes, parsed->valid_bytes);
  ASSERT_EQ(scanned.size(), parsed->games.size());
  EXPECT_EQ(scanned.size(), size_t(games - 2));
  for (size_t i = 0; i < scanned.size(); ++i)
    ASSERT_EQ(scanned[i], parsed->games[i].index()) << i;
  auto summary = SummarizeLog(log_);
  ASSERT_TRUE(summary.ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      *summary, SummarizeLog(*parsed)));
}

// The calls a scan of `path` makes, in order: "start", then "games N" per
// batch (N games kept).
std::vector<std::string> ScanCalls(const std::string& path, bool* empty) {
  std::vector<std::string> calls;
  auto scan = ScanLogFile(
      path, [&](const LogScan&) { calls.push_back("start"); },
      [&](const LogScan&, absl::Span<const GameRecord* const> g) {
        calls.push_back(absl::StrCat("games ", g.size()));
      });
  EXPECT_TRUE(scan.ok()) << scan.status();
  *empty = scan.ok() && scan->empty();
  return calls;
}

TEST_F(DamagedLogTest, ScanStartsOnceBeforeTheGamesAndForAHeaderAlone) {
  auto played = ReadLog(log_);
  ASSERT_TRUE(played.ok()) << played.status();
  const std::string games = absl::StrCat(played->games.size());
  bool empty = true;
  EXPECT_THAT(ScanCalls(log_, &empty), ElementsAre("start", "games " + games));
  EXPECT_FALSE(empty);

  ASSERT_TRUE(
      ReplaceRecordFile(log_, {played->header.SerializeAsString()}).ok());
  EXPECT_THAT(ScanCalls(log_, &empty), ElementsAre("start"));
  EXPECT_FALSE(empty);

  ASSERT_TRUE(ReplaceRecordFile(log_, {}).ok());
  EXPECT_THAT(ScanCalls(log_, &empty), ElementsAre())
      << "an empty log has nothing to start on";
  EXPECT_TRUE(empty);
}

// Anchors change how games are rated, not which are played: a match resumes
// with them added, changed or removed.
TEST(LogReaderTest, AnchorsDoNotMakeAnotherMatch) {
  auto match = ParseMatch(kMatch, "m.textproto", ".");
  ASSERT_TRUE(match.ok()) << match.status();
  MatchHeader logged;
  *logged.mutable_config() = match->config;
  MatchConfig anchored = match->config;
  anchored.mutable_players(1)->set_anchor_elo(1800);
  EXPECT_TRUE(SameMatch(logged, anchored, 0));
  anchored.mutable_players(1)->set_name("c");
  EXPECT_FALSE(SameMatch(logged, anchored, 0));
}

TEST(LogReaderTest, DirectoryIsNotALog) {
  auto log = ReadLog(::testing::TempDir());
  ASSERT_FALSE(log.ok());
  EXPECT_THAT(log.status().message(), HasSubstr("directory"));
}

}  // namespace
}  // namespace chess
