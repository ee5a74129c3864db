#include "arena/openings.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

TEST(EpdBookTest, FourAndSixFieldsAndOpcodes) {
  auto book = ParseEpdBook(
      "# comment\n"
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
      "\n"
      "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "
      "\"x\";\n",
      "t.epd");
  ASSERT_TRUE(book.ok()) << book.status();
  ASSERT_EQ(book->size(), 3u);
  EXPECT_EQ((*book)[0].start.side_to_move(), kBlack);
  EXPECT_EQ((*book)[1].start.fullmove_number(), 2);
}

TEST(EpdBookTest, BadLineNamesFileAndLine) {
  auto book =
      ParseEpdBook("8/8/8/8/8/8/8/K6k w - -\nnot a fen at all\n", "bad.epd");
  ASSERT_FALSE(book.ok());
  EXPECT_NE(book.status().message().find("bad.epd:2:"), std::string::npos)
      << book.status();
  EXPECT_FALSE(ParseEpdBook("\n# nothing\n", "empty.epd").ok());
}

TEST(PgnBookTest, MovesCommentsVariationsAndFen) {
  auto book = ParsePgnBook(
      "[Event \"a\"]\n[Result \"*\"]\n\n"
      "1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 3.Bb5 a6 *\n\n"
      "[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 "
      "1\"]\n\n"
      "1. e4 Kd7 2. e5 ; rest of line\nKe6 1/2-1/2\n",
      "t.pgn", 0);
  ASSERT_TRUE(book.ok()) << book.status();
  ASSERT_EQ(book->size(), 2u);
  EXPECT_EQ((*book)[0].moves.size(), 6u);
  EXPECT_EQ(ToUci((*book)[0].moves[4]), "f1b5");
  EXPECT_EQ((*book)[1].moves.size(), 4u);
  EXPECT_EQ((*book)[1].ToGame().position().ToFen(),
            "8/8/4k3/4P3/8/8/8/4K3 w - - 1 3");
}

// A game termination marker ends a game, with or without tags around it.
TEST(PgnBookTest, TerminationMarkerEndsAGameWithoutTags) {
  auto book = ParsePgnBook(
      "1. e4 e5 1-0\n1. d4 d5 *\n2. c4 0-1 1. Nf3 1/2-1/2\n", "t.pgn", 0);
  ASSERT_TRUE(book.ok()) << book.status();
  ASSERT_EQ(book->size(), 4u);
  EXPECT_EQ((*book)[0].moves.size(), 2u);
  EXPECT_EQ((*book)[1].moves.size(), 2u);
  EXPECT_EQ(ToUci((*book)[2].moves[0]), "c2c4");
  EXPECT_EQ(ToUci((*book)[3].moves[0]), "g1f3");
  auto bad = ParsePgnBook("1. e4 e5 *\n\n1. d4 d5\n2. Ke3 *\n", "bad.pgn", 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.pgn:4:"), std::string::npos)
      << bad.status();
}

TEST(PgnBookTest, MaxPliesAndErrors) {
  auto book = ParsePgnBook("1. e4 e5 2. Nf3 Nc6 *\n", "t.pgn", 3);
  ASSERT_TRUE(book.ok());
  EXPECT_EQ((*book)[0].moves.size(), 3u);
  auto bad = ParsePgnBook("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n", "bad.pgn", 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.pgn:3:"), std::string::npos)
      << bad.status();
  EXPECT_NE(bad.status().message().find("Ke3"), std::string::npos);
  EXPECT_FALSE(ParsePgnBook("1. e4 {never closed\n", "t.pgn", 0).ok());
}

// The real books in ../shared/books (zipped, as published), found next to the
// checkout.
std::filesystem::path SharedBooks() {
  std::error_code ec;
  auto config =
      std::filesystem::canonical("configs/engines/default.textproto", ec);
  if (ec) return {};
  return config.parent_path().parent_path().parent_path().parent_path() /
         "shared" / "books";
}

std::string Unzip(const std::filesystem::path& zip, const std::string& member) {
  const std::string out = ::testing::TempDir() + member;
  const std::string command = absl::StrCat("unzip -p '", zip.string(), "' '",
                                           member, "' > '", out, "'");
  return std::system(command.c_str()) == 0 ? out : "";
}

TEST(RandomPliesTest, LegalRepeatableAndDifferentBySeed) {
  const Opening start{Position::Start(), {}};
  const Opening a = WithRandomPlies(start, 8, 1);
  ASSERT_EQ(a.moves.size(), 8u);
  Game game = a.ToGame();  // plays them: each was legal
  EXPECT_FALSE(LegalMoves(game.position()).empty());
  EXPECT_EQ(WithRandomPlies(start, 8, 1).moves, a.moves);
  EXPECT_NE(WithRandomPlies(start, 8, 2).moves, a.moves);
  EXPECT_EQ(WithRandomPlies(start, 0, 1).moves.size(), 0u);
  // After a book line: the line first, then the random plies.
  const Opening book = WithRandomPlies(start, 2, 7);
  const Opening more = WithRandomPlies(book, 4, 1);
  ASSERT_EQ(more.moves.size(), 6u);
  EXPECT_TRUE(
      std::equal(book.moves.begin(), book.moves.end(), more.moves.begin()));
}

TEST(RandomPliesTest, NeverEndsTheGame) {
  // White mates or stalemates in one in several ways here: random lines often
  // end the game, and none may be returned finished.
  absl::StatusOr<Position> pos =
      Position::FromFen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const Opening line = WithRandomPlies(Opening{*pos, {}}, 6, seed);
    Game game = line.ToGame();
    EXPECT_FALSE(LegalMoves(game.position()).empty()) << seed;
    EXPECT_EQ(game.GetOutcome().result, GameResult::kOngoing) << seed;
  }
}

TEST(SharedBooksTest, RealBooksReadCompletely) {
  const std::filesystem::path books = SharedBooks();
  if (books.empty() || !std::filesystem::exists(books)) {
    GTEST_SKIP() << "../shared/books is absent; skipping the real-book test";
  }
  struct Case {
    const char* zip;
    const char* member;
    BookFormat format;
    size_t count;
    size_t plies;
  } cases[] = {
      {"2moves_v1.epd.zip", "2moves_v1.epd", BookFormat::kEpd, 40457, 0},
      {"8mvs_+90_+99.epd.zip", "8mvs_+90_+99.epd", BookFormat::kEpd, 8533, 0},
      {"8moves_v3.pgn.zip", "8moves_v3.pgn", BookFormat::kPgn, 34700, 16},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.member);
    const std::string path = Unzip(books / c.zip, c.member);
    if (path.empty()) GTEST_SKIP() << "unzip failed or missing";
    auto book = LoadBook(path, c.format, 0);
    ASSERT_TRUE(book.ok()) << book.status();
    EXPECT_EQ(book->size(), c.count);
    for (const Opening& o : *book) ASSERT_EQ(o.moves.size(), c.plies);
  }
}

}  // namespace
}  // namespace chess
