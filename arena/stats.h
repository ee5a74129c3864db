// Match statistics as engine testers use them: Elo from game results
// (trinomial) and from game pairs (pentanomial), normalized Elo, likelihood of
// superiority, and the generalized SPRT of Van den Bergh ("Comments on
// Normalized Elo"), as fishtest and fastchess do.
#ifndef ARENA_STATS_H_
#define ARENA_STATS_H_

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace chess {

// Results from one player's point of view.
struct Trinomial {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
};

// Game pairs (same opening, colours swapped) by their total score from one
// player's point of view: 0, 0.5, 1 (a win and a loss, or two draws), 1.5, 2.
struct Pentanomial {
  int ll = 0, ld = 0, wl_dd = 0, wd = 0, ww = 0;
  int pairs() const { return ll + ld + wl_dd + wd + ww; }
  std::array<int, 5> counts() const { return {ll, ld, wl_dd, wd, ww}; }
};

struct EloEstimate {
  double score = 0.5;  // mean score per game
  double elo = 0,
         elo_error = 0;  // logistic Elo and half-width of its 95 % interval
  double nelo = 0, nelo_error = 0;  // normalized Elo and half-width
  double los = 0.5;                 // likelihood of superiority
  // False while the sample has no variance (no games, all wins, all draws,
  // one pair): then no interval exists, and elo, nelo and los mean nothing.
  bool measurable = false;
};

// From counts of outcomes with equally spaced scores in [0, 1] (3 or 5 of
// them).
EloEstimate EstimateElo(const Trinomial& t);
EloEstimate EstimateElo(const Pentanomial& p);

// The same results from the other player's side.
Trinomial Mirrored(const Trinomial& t);
Pentanomial Mirrored(const Pentanomial& p);

// A player's results against one opponent of known rating (an anchor, such as
// Stockfish at a given UCI_Elo), from the player's side.
struct AnchoredResults {
  double anchor_elo = 0;
  Trinomial games{};
  Pentanomial pairs{};  // the complete game pairs among `games`
};

// Anchors' ratings are refused beyond this: no public scale reaches it, so
// such a number is a typo.
inline constexpr double kMaxAnchorElo = 10000;
// False for NaN, infinities and ratings beyond kMaxAnchorElo.
inline bool IsAnchorElo(double elo) { return std::abs(elo) <= kMaxAnchorElo; }

struct RatingEstimate {
  int games = 0;
  double elo = 0;  // maximum likelihood under the logistic model
  // The 95 % interval's ends; absent where the interval reaches beyond 2,000
  // Elo of every anchor (a near 0 % or 100 % score).
  std::optional<double> lower, upper;
  // False with no games, a 0 % or 100 % score (no finite maximum), or
  // results that do not vary (no interval): then elo means nothing.
  bool measurable = false;
};

// The rating r that makes the expected score against the anchors equal the
// actual one (the maximum of the logistic likelihood, as Ordo and BayesElo
// without draw model compute it). Its interval comes from the spread of the
// results about the scores expected at r (per game pair where there are
// pairs, as EstimateElo), so draws and pairing narrow it as they should:
// against one anchor the estimate and interval are EstimateElo's, shifted by
// the anchor's rating.
RatingEstimate EstimateRating(const std::vector<AnchoredResults>& results);

double ScoreToElo(double score);
double EloToScore(double elo);

enum class SprtModel { kNormalized, kLogistic };
enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  SprtModel model = SprtModel::kNormalized;
  double lower_bound()
      const;  // ln(beta / (1 - alpha)): below it, H0 is accepted
  double upper_bound()
      const;  // ln((1 - beta) / alpha): above it, H1 is accepted
};

// Log-likelihood ratio of H1 (elo1) against H0 (elo0); zero counts are
// regularised.
double SprtLlr(const SprtParams& sprt, const Trinomial& t);
double SprtLlr(const SprtParams& sprt, const Pentanomial& p);
SprtDecision SprtDecide(const SprtParams& sprt, double llr);

}  // namespace chess

#endif  // ARENA_STATS_H_
