#include "arena/book_maker.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "engine/config.h"
#include "engine/position.h"
#include "engine/search.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

BookOptions Small() {
  BookOptions options;
  options.positions = 6;
  options.plies = 6;
  options.check_depth = 3;
  options.margin_cp = 80;
  return options;
}

TEST(BookMakerTest, BalancedUniquePositionsAfterThePlies) {
  const BookOptions options = Small();
  auto book = MakeBook(DefaultEngineConfig(), options, nullptr);
  ASSERT_TRUE(book.ok()) << book.status();
  ASSERT_EQ(book->size(), 6u);
  std::set<std::string> unique(book->begin(), book->end());
  EXPECT_EQ(unique.size(), book->size());
  EngineConfig config = DefaultEngineConfig();
  config.mutable_search()->set_hash_mb(1);
  Engine engine(config);
  for (const std::string& fen : *book) {
    auto pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    EXPECT_EQ(pos->side_to_move(), kWhite) << fen;
    EXPECT_EQ(pos->fullmove_number(), 4) << fen;  // six plies played
    SearchLimits limits;
    limits.depth = options.check_depth;
    engine.NewGame();
    EXPECT_LE(std::abs(engine.Search(*pos, {}, limits).score),
              options.margin_cp)
        << fen;
  }
}

TEST(BookMakerTest, TheSeedDecidesTheBook) {
  BookOptions options = Small();
  options.candidate_margin_cp = 0;  // any legal move: more variety, faster
  auto first = MakeBook(DefaultEngineConfig(), options, nullptr);
  auto again = MakeBook(DefaultEngineConfig(), options, nullptr);
  options.seed = 2;
  auto other = MakeBook(DefaultEngineConfig(), options, nullptr);
  ASSERT_TRUE(first.ok() && again.ok() && other.ok());
  EXPECT_EQ(*first, *again);
  EXPECT_NE(*first, *other);
}

TEST(BookMakerTest, AnImpossibleMarginFailsSayingWhatToChange) {
  BookOptions options = Small();
  options.positions = 1;
  options.check_depth = 1;
  options.margin_cp = -1;           // no score is within it
  options.candidate_margin_cp = 0;  // no search per candidate move: faster
  auto book = MakeBook(DefaultEngineConfig(), options, nullptr);
  ASSERT_FALSE(book.ok());
  EXPECT_EQ(book.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(book.status().message(), "--margin_cp"));
}

}  // namespace
}  // namespace chess
