#include "engine/syzygy.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/config.h"
#include "engine/notation.h"
#include "engine/search.h"
#include "engine/test_util.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using syzygy::Wdl;
using testing::FromFen;

// Every 3- and 4-piece table, from ../shared/tablebases/syzygy.
class SyzygyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path dir = testing::SharedDirectory("tablebases");
    if (dir.empty()) {
      GTEST_SKIP() << "../shared/tablebases is absent; skipping the tests "
                      "that probe real tables";
    }
    path_ = (dir / "syzygy").string();
    absl::StatusOr<syzygy::TableSet> tables = syzygy::Load(path_);
    ASSERT_TRUE(tables.ok()) << tables.status();
    ASSERT_EQ(tables->tables, 35);
    ASSERT_EQ(tables->largest, 4);
  }
  std::string path_;
};

TEST(SyzygyLoadTest, MissingDirectoryIsAnErrorNamingIt) {
  absl::StatusOr<syzygy::TableSet> tables = syzygy::Load("/no/such/dir:/tmp");
  ASSERT_FALSE(tables.ok());
  EXPECT_NE(tables.status().message().find("/no/such/dir"), std::string::npos);
}

// Links left by a process that was killed go at the next load; a directory of
// a live process, or one holding anything but links, stays.
TEST(SyzygyLoadTest, LinksOfEndedProcessesAreRemoved) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(::testing::TempDir()) / "syzygy-links";
  fs::remove_all(root);
  fs::create_directories(root / "tables");
  const pid_t ended = fork();
  if (ended == 0) _exit(0);
  ASSERT_GT(ended, 0);
  waitpid(ended, nullptr, 0);
  auto link_dir = [&](pid_t pid, const std::string& suffix) {
    const fs::path dir =
        root / ("chess-harness-syzygy-" + std::to_string(pid) + "-" + suffix);
    fs::create_directories(dir);
    fs::create_symlink("/nowhere/KvK.rtbw", dir / "KvK.rtbw");
    return dir;
  };
  const fs::path stale = link_dir(ended, "aaaaaa");
  const fs::path user_files = link_dir(ended, "bbbbbb");
  std::ofstream(user_files / "notes.txt") << "mine";
  const fs::path live = link_dir(getppid(), "cccccc");
  const char* old_tmpdir = getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  setenv("TMPDIR", root.c_str(), 1);
  (void)syzygy::Load((root / "tables").string());
  if (old_tmpdir)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(user_files / "notes.txt"));
  EXPECT_TRUE(fs::exists(live));
}

TEST(SyzygyLoadTest, ConfigWithMissingDirectoryIsRefused) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_tablebases()->set_syzygy_path("/no/such/tables");
  const absl::Status status = ValidateEngineConfig(config);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("syzygy_path"), std::string::npos);
  config.mutable_tablebases()->set_syzygy_path("");
  config.mutable_tablebases()->set_syzygy_probe_limit(8);
  EXPECT_FALSE(ValidateEngineConfig(config).ok());
}

// Known values, the same Stockfish 15.1 gives with these tables.
TEST_F(SyzygyTest, WinDrawLossOfKnownPositions) {
  struct Case {
    const char* fen;
    Wdl wdl;
  } cases[] = {
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Wdl::kWin},   // KPvK, opposition
      {"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Wdl::kDraw},  // black takes it
      {"k7/8/8/8/8/8/P7/K7 w - - 0 1", Wdl::kDraw},     // rook pawn
      {"8/8/8/8/8/3k4/8/3KQ3 b - - 0 1", Wdl::kLoss},   // KQvK
      {"8/8/8/8/8/3k4/8/3KQ3 w - - 0 1", Wdl::kWin},
      {"8/8/4k3/8/8/8/8/4KN2 w - - 0 1", Wdl::kDraw},  // KNvK
      {"8/8/4k3/8/8/8/8/4KB2 b - - 0 1", Wdl::kDraw},  // KBvK
  };
  for (const Case& c : cases) {
    const std::optional<Wdl> wdl = syzygy::ProbeWdl(FromFen(c.fen));
    ASSERT_TRUE(wdl.has_value()) << c.fen;
    EXPECT_EQ(int(*wdl), int(c.wdl)) << c.fen;
  }
  // Too many pieces, castling rights, a clock Fathom cannot use: no answer.
  EXPECT_FALSE(syzygy::ProbeWdl(Position::Start()).has_value());
  EXPECT_FALSE(
      syzygy::ProbeWdl(FromFen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).has_value());
  EXPECT_FALSE(
      syzygy::ProbeWdl(FromFen("4k3/8/8/8/8/8/4P3/4K3 w - - 3 9")).has_value());
}

// Debian's Fathom is built without locks of its own and loads each table on
// its first probe: probes from several threads at once (Threads, or an arena
// playing games side by side) must neither race on that loading, which leaked
// and could read a half-loaded table, nor answer otherwise than one thread.
// Damaged, unreadable and blocking files among intact tables: each is named
// as skipped (before, a cut or zeroed table aborted or crashed the engine
// inside Fathom, and a FIFO blocked it), the others load and answer, and the
// probes of a skipped table fall back to the search (no value).
TEST_F(SyzygyTest, DamagedTablesAreSkippedNamingThem) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "damaged_tables";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(path_)) {
    fs::copy_file(entry.path(), dir / entry.path().filename());
    fs::permissions(dir / entry.path().filename(), fs::perms::owner_write,
                    fs::perm_options::add);
  }
  const auto file = [&](const char* name) { return (dir / name).string(); };
  fs::resize_file(file("KQvK.rtbw"), 16);     // cut to its header
  fs::resize_file(file("KRvKP.rtbw"), 1040);  // cut, 16 more than 64 x 16
  {
    // Zeros over half of it, the magic number kept.
    std::fstream f(file("KBNvK.rtbw"),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4);
    const std::string zeros(fs::file_size(file("KBNvK.rtbw")) / 2, '\0');
    f.write(zeros.data(), std::streamsize(zeros.size()));
  }
  {
    std::fstream f(file("KNvKP.rtbw"),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.put('\0');  // the magic number
  }
  fs::remove(file("KPvKP.rtbw"));
  ASSERT_EQ(::mkfifo(file("KPvKP.rtbw").c_str(), 0644), 0);  // would block
  fs::remove(file("KBvKP.rtbw"));
  fs::create_directory(file("KBvKP.rtbw"));

  absl::StatusOr<syzygy::TableSet> tables = syzygy::Load(dir.string());
  ASSERT_TRUE(tables.ok()) << tables.status();
  std::string skipped;
  for (const std::string& line : tables->skipped) skipped += line + "\n";
  for (const char* name : {"KQvK.rtbw", "KRvKP.rtbw", "KBNvK.rtbw",
                           "KNvKP.rtbw", "KPvKP.rtbw", "KBvKP.rtbw"}) {
    EXPECT_NE(skipped.find(file(name) + "\" skipped: "), std::string::npos)
        << name << " not named in:\n"
        << skipped;
  }
  EXPECT_EQ(tables->tables, 35 - 6);
  // Intact tables answer; a skipped one gives no value, never a crash.
  EXPECT_EQ(syzygy::ProbeWdl(FromFen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")),
            Wdl::kWin);
  EXPECT_EQ(syzygy::ProbeWdl(FromFen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")),
            Wdl::kWin);
  EXPECT_EQ(syzygy::ProbeWdl(FromFen("8/8/8/4k3/8/8/2N5/2B1K3 w - - 0 1")),
            std::nullopt);
  EXPECT_EQ(syzygy::ProbeWdl(FromFen("8/8/8/3k4/8/8/1Q6/K7 w - - 0 1")),
            std::nullopt);
  ASSERT_TRUE(syzygy::Load(path_).ok());
}

TEST(SyzygyFilesTest, TableNamesAndFileChecks) {
  EXPECT_EQ(syzygy::TablePieces("KQvKR"), 4);
  EXPECT_EQ(syzygy::TablePieces("KQRBNPvKQ"), 0);  // 9 pieces: no such table
  EXPECT_EQ(syzygy::TablePieces("KQvQK"), 0);
  EXPECT_EQ(syzygy::TablePieces("KXvK"), 0);
  EXPECT_EQ(syzygy::TablePieces("vK"), 0);
  const std::string dir = ::testing::TempDir();
  const std::string fifo = dir + "/KQvK.rtbw";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const absl::Status s = syzygy::CheckTableFile(fifo, false);  // at once
  EXPECT_NE(s.message().find("not a regular file"), std::string::npos) << s;
  ::unlink(fifo.c_str());
  // The directories of a path, each once.
  absl::StatusOr<std::vector<std::string>> dirs =
      syzygy::Directories(dir + ":" + dir + "::" + dir);
  ASSERT_TRUE(dirs.ok());
  EXPECT_EQ(dirs->size(), 1u);
}

TEST_F(SyzygyTest, ConcurrentFirstProbesAgreeWithSerialOnes) {
  const char* fens[] = {
      "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  "8/8/8/8/8/3k4/8/3KQ3 b - - 0 1",
      "8/8/4k3/8/8/8/8/4KN2 w - - 0 1",   "8/8/4k3/8/8/8/8/4KB2 b - - 0 1",
      "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",   "8/8/8/4k3/8/8/2N5/2B1K3 w - - 0 1",
      "8/8/8/3pk3/8/8/3P4/4K3 w - - 0 1", "8/8/8/3rk3/8/8/8/3QK3 w - - 0 1",
  };
  std::vector<std::optional<Wdl>> serial;
  for (const char* fen : fens) serial.push_back(syzygy::ProbeWdl(FromFen(fen)));
  for (int round = 0; round < 20; ++round) {
    // Another spelling of the same directory loads the tables afresh, so
    // that every round's first probes load them.
    ASSERT_TRUE(syzygy::Load(round % 2 ? path_ : path_ + "/").ok());
    std::vector<std::optional<Wdl>> got[2];
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 8; ++i)
          got[t].push_back(syzygy::ProbeWdl(FromFen(fens[t ? 7 - i : i])));
      });
    }
    for (std::thread& thread : threads) thread.join();
    std::reverse(got[1].begin(), got[1].end());
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(got[0][i], serial[i]) << fens[i];
      EXPECT_EQ(got[1][i], serial[i]) << fens[i];
    }
  }
  ASSERT_TRUE(syzygy::Load(path_).ok());
}

TEST_F(SyzygyTest, RootMovesKeepTheWin) {
  const Position pos = FromFen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  const std::optional<syzygy::RootRanking> ranking =
      syzygy::RankRootMoves(pos, false, true);
  ASSERT_TRUE(ranking.has_value());
  EXPECT_TRUE(ranking->by_dtz);
  EXPECT_EQ(int(ranking->value), int(Wdl::kWin));
  // Kf2 (Stockfish's choice) wins; Kd1 lets black take the opposition.
  auto has = [&](const char* uci) {
    const Move m = *ParseUci(pos, uci);
    return std::find(ranking->best_moves.begin(), ranking->best_moves.end(),
                     m) != ranking->best_moves.end();
  };
  EXPECT_TRUE(has("e1f2"));
  EXPECT_FALSE(has("e1d1"));
}

EngineConfig WithTables(const std::string& path) {
  EngineConfig config = DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  config.mutable_tablebases()->set_syzygy_path(path);
  return config;
}

TEST_F(SyzygyTest, SearchReportsTheTablesVerdictAndRepeats) {
  Engine engine(WithTables(path_));
  SearchLimits limits;
  limits.depth = 6;
  const Position won = FromFen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  const SearchInfo info = engine.Search(won, {}, limits);
  EXPECT_GE(info.score, kTbWinScore - kMaxPly);
  EXPECT_GT(info.tb_hits, 0u);
  engine.NewGame();
  const SearchInfo again = engine.Search(won, {}, limits);
  EXPECT_EQ(again.nodes, info.nodes);
  EXPECT_EQ(again.best_move, info.best_move);
  // Black to move holds the draw.
  const SearchInfo drawn =
      engine.Search(FromFen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"), {}, limits);
  EXPECT_EQ(drawn.score, 0);
}

TEST_F(SyzygyTest, SearchProbesPositionsACaptureReaches) {
  // Five pieces: the root is not in the tables, Rxe2 reaches KRvK... and
  // the search finds the rook can be taken for a won ending.
  const Position pos = FromFen("4k3/8/8/8/8/8/4r3/3QK3 w - - 0 1");
  SearchLimits limits;
  limits.depth = 6;
  Engine with_tables(WithTables(path_));
  const SearchInfo info = with_tables.Search(pos, {}, limits);
  EXPECT_GT(info.tb_hits, 0u);
  EXPECT_GE(info.score, kTbWinScore - kMaxPly);
  Engine without(WithTables(""));
  EXPECT_EQ(without.Search(pos, {}, limits).tb_hits, 0u);
}

}  // namespace
}  // namespace chess
