#include "arena/standings.h"

#include "arena/stats.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

using ::testing::HasSubstr;

MatchConfig Config(const std::string& text) {
  MatchConfig config;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &config));
  return config;
}

// A gauntlet of "us" against two anchors and an unrated player.
constexpr char kLadder[] = R"(
players { name: "us" config {} }
players { name: "sf-2000" config {} anchor_elo: 2000 }
players { name: "sf-2400" config {} anchor_elo: 2400 }
players { name: "friend" config {} }
pairing: GAUNTLET
)";

// Game pair `round` of `pairing`: `first_points` for the pairing's first
// player in each game (1, 0.5 or 0), colours swapped in the second.
void AddPair(Standings& standings, const MatchConfig& config, int pairing,
             int round, double first_points_a, double first_points_b) {
  const auto pairings = Pairings(config);
  const std::string& first = config.players(pairings[pairing].first).name();
  const std::string& second = config.players(pairings[pairing].second).name();
  for (int game = 0; game < 2; ++game) {
    const double points = game == 0 ? first_points_a : first_points_b;
    GameRecord g;
    g.set_pairing(pairing);
    g.set_round(round);
    g.set_index((round * int(pairings.size()) + pairing) * 2 + game);
    g.set_white(game == 0 ? first : second);
    g.set_black(game == 0 ? second : first);
    const bool white_scores = (game == 0) == (points == 1);
    g.set_result(points == 0.5  ? GameRecord::DRAW
                 : white_scores ? GameRecord::WHITE_WINS
                                : GameRecord::BLACK_WINS);
    standings.Add(g);
  }
}

// The games still under way when the LLR crosses a bound are logged and
// counted, and may pull the LLR back inside: the verdict stays.
TEST(StandingsTest, TheSprtVerdictIsWhereTheLlrFirstCrossedABound) {
  const MatchConfig config = Config(R"(
    players { name: "new" config {} }
    players { name: "old" config {} }
    sprt { elo0: 0 elo1: 10 }
  )");
  Standings standings(config);
  int round = 0;
  // Mixed pairs with a steady edge for "new" until H1 is accepted.
  while (standings.Decision() == SprtDecision::kContinue && round < 10000) {
    const double first = round % 2 ? 1 : 0.5;
    const double second = round % 3 == 0 ? 1 : round % 3 == 1 ? 0.5 : 0;
    AddPair(standings, config, 0, round, first, second);
    ++round;
  }
  ASSERT_EQ(standings.Decision(), SprtDecision::kAcceptH1);
  const int decided_after = 2 * round;
  // Two lost pairs finished after it: the LLR falls below the bound.
  AddPair(standings, config, 0, round++, 0, 0);
  AddPair(standings, config, 0, round++, 0, 0);
  const PairingSummary summary = standings.Build(100000).pairings(0);
  EXPECT_LT(summary.llr(), summary.llr_upper());
  EXPECT_EQ(standings.Decision(), SprtDecision::kAcceptH1);
  EXPECT_EQ(summary.sprt_verdict(), SPRT_ACCEPT_H1);
  EXPECT_EQ(summary.sprt(),
            absl::StrCat("H1 accepted (its bound crossed after ", decided_after,
                         " games)"));
  EXPECT_EQ(summary.games(), decided_after + 4);
}

// Unpaired games: Elo and the SPRT per game (trinomial), no pentanomial.
TEST(StandingsTest, UnpairedGamesAreJudgedPerGame) {
  const MatchConfig config = Config(R"(
    players { name: "new" config {} }
    players { name: "old" config {} }
    unpaired: true
    sprt { elo0: 0 elo1: 10 }
  )");
  Standings standings(config);
  int games = 0;
  while (standings.Decision() == SprtDecision::kContinue && games < 10000) {
    GameRecord g;
    g.set_round(games);
    g.set_index(games);
    const bool new_is_white = games % 2 == 0;
    g.set_white(new_is_white ? "new" : "old");
    g.set_black(new_is_white ? "old" : "new");
    // new wins 2 of every 5, draws 2, loses 1.
    const int k = games % 5;
    const bool new_wins = k < 2, draw = k < 4 && !new_wins;
    g.set_result(draw                       ? GameRecord::DRAW
                 : new_wins == new_is_white ? GameRecord::WHITE_WINS
                                            : GameRecord::BLACK_WINS);
    standings.Add(g);
    ++games;
  }
  EXPECT_EQ(standings.Decision(), SprtDecision::kAcceptH1);
  const MatchSummary m = standings.Build(games);
  EXPECT_TRUE(m.unpaired());
  EXPECT_EQ(m.pairings(0).games(), games);
  EXPECT_EQ(m.pairings(0).pentanomial(0), 0);
  EXPECT_TRUE(m.pairings(0).has_elo());
  const Trinomial tri{m.pairings(0).wins(), m.pairings(0).draws(),
                      m.pairings(0).losses()};
  SprtParams sprt;
  sprt.elo0 = 0;
  sprt.elo1 = 10;
  EXPECT_DOUBLE_EQ(m.pairings(0).llr(), SprtLlr(sprt, tri));
  EXPECT_THAT(FormatSummary(m), HasSubstr("Statistics per game (trinomial)"));
}

TEST(StandingsTest, PlayersAreRatedAgainstTheConfigsAnchors) {
  const MatchConfig config = Config(kLadder);
  Standings standings(config);
  // us: against sf-2000 a win and a draw per pair, against sf-2400 a loss and
  // a draw, against friend (unrated) always wins.
  for (int round = 0; round < 6; ++round) {
    AddPair(standings, config, 0, round, 1, 0.5);
    AddPair(standings, config, 1, round, 0, 0.5);
    AddPair(standings, config, 2, round, 1, 1);
  }
  const MatchSummary summary = standings.Build(36);
  ASSERT_EQ(summary.ratings_size(), 1);  // friend met no anchor
  const PlayerRating& us = summary.ratings(0);
  EXPECT_EQ(us.player(), "us");
  EXPECT_EQ(us.games(), 24);
  const RatingEstimate expected =
      EstimateRating({{.anchor_elo = 2000,
                       .games = {.wins = 6, .draws = 6, .losses = 0},
                       .pairs = {.wd = 6}},
                      {.anchor_elo = 2400,
                       .games = {.wins = 0, .draws = 6, .losses = 6},
                       .pairs = {.ld = 6}}});
  EXPECT_DOUBLE_EQ(us.elo(), expected.elo);
  EXPECT_NEAR(us.elo(), 2200, 1e-6);  // the symmetry of the results
  EXPECT_DOUBLE_EQ(us.elo_lower(), *expected.lower);
  EXPECT_DOUBLE_EQ(us.elo_upper(), *expected.upper);
  EXPECT_EQ(summary.anchor_elo().at("sf-2400"), 2400);
  EXPECT_THAT(FormatSummary(summary),
              HasSubstr("Ratings (maximum likelihood; anchors sf-2000 = 2000, "
                        "sf-2400 = 2400):\n  us: 2200, 95% ["));
}

// An anchor that plays first in its pairing: its results are mirrored.
TEST(StandingsTest, AnAnchorsOpponentIsRatedFromItsOwnSide) {
  const MatchConfig config = Config(R"(
players { name: "sf" config {} anchor_elo: 1500 }
players { name: "us" config {} }
)");
  Standings standings(config);
  for (int round = 0; round < 4; ++round)
    AddPair(standings, config, 0, round, 0, 0.5);
  AddPair(standings, config, 0, 4, 1, 0);
  const MatchSummary summary = standings.Build(10);
  ASSERT_EQ(summary.ratings_size(), 1);
  EXPECT_EQ(summary.ratings(0).player(), "us");
  // 1.5 points a pair in four pairs, 1 in the fifth: 7 of 10 for us.
  EXPECT_NEAR(summary.ratings(0).elo(), 1500 + ScoreToElo(0.7), 1e-6);
}

TEST(StandingsTest, AnchorsFromTheCommandLine) {
  absl::StatusOr<std::map<std::string, double>> anchors =
      ParseAnchors("sf-2200=2200,x=y=-12.5,");
  ASSERT_TRUE(anchors.ok()) << anchors.status();
  EXPECT_EQ(*anchors,
            (std::map<std::string, double>{{"sf-2200", 2200}, {"x=y", -12.5}}));
  for (const char* bad : {"sf", "=2200", "sf=", "sf=nan", "sf=1e9", "sf=12x"}) {
    EXPECT_THAT(ParseAnchors(bad).status().message(),
                HasSubstr("is not NAME=ELO"))
        << bad;
  }

  const MatchConfig config = Config(kLadder);
  Standings standings(config);
  AddPair(standings, config, 2, 0, 1, 0.5);
  MatchSummary summary = standings.Build(36);
  const MatchSummary before = summary;
  const absl::Status unknown =
      RateAgainstAnchors({{"sf-2000", 2000}, {"nobody", 1}}, &summary);
  EXPECT_THAT(unknown.message(),
              HasSubstr("anchor \"nobody\" is not a player of the match"));
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(summary, before));
  // friend as the only anchor: us is rated from the games against it alone.
  ASSERT_TRUE(RateAgainstAnchors({{"friend", 1000}}, &summary).ok());
  ASSERT_EQ(summary.ratings_size(), 1);
  EXPECT_EQ(summary.ratings(0).player(), "us");
  EXPECT_EQ(summary.ratings(0).games(), 2);
  EXPECT_EQ(summary.anchor_elo_size(), 1);
}

}  // namespace
}  // namespace chess
