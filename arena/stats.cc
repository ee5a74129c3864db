#include "arena/stats.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace chess {
namespace {

constexpr double kZ95 = 1.959963984540054;
const double kNeloScale = 800.0 / std::log(10.0);

struct Distribution {
  std::vector<double> score;  // outcome scores, equally spaced in [0, 1]
  std::vector<double> prob;   // empirical probabilities
  double n = 0;               // samples (games or pairs)
};

template <size_t N>
Distribution Empirical(const std::array<int, N>& counts, bool regularize) {
  Distribution d;
  for (size_t i = 0; i < N; ++i) {
    d.score.push_back(double(i) / (N - 1));
    d.prob.push_back(regularize && counts[i] == 0 ? 1e-3 : double(counts[i]));
    d.n += d.prob.back();
  }
  for (double& p : d.prob) p /= d.n;
  return d;
}

double Mean(const std::vector<double>& x, const std::vector<double>& p) {
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m += x[i] * p[i];
  return m;
}

double Variance(const std::vector<double>& x, const std::vector<double>& p) {
  const double mu = Mean(x, p);
  double v = 0;
  for (size_t i = 0; i < x.size(); ++i) v += p[i] * (x[i] - mu) * (x[i] - mu);
  return v;
}

// Root of a function increasing... or decreasing on (lo, hi), by bisection:
// slow but unconditionally convergent, and the LLR is computed once per game.
template <typename F>
double Bisect(F f, double lo, double hi) {
  const bool increasing = f(lo + (hi - lo) * 1e-9) < f(hi - (hi - lo) * 1e-9);
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    if ((f(mid) < 0) == increasing)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

// The distribution closest (maximum likelihood) to the empirical one among
// those where sum_i p_i * phi_i = 0: p_i = phat_i / (1 + theta * phi_i) (Van
// den Bergh, prop. 1.1).
std::vector<double> ConstrainedMle(const Distribution& d,
                                   const std::vector<double>& phi) {
  const double lo_phi = *std::min_element(phi.begin(), phi.end());
  const double hi_phi = *std::max_element(phi.begin(), phi.end());
  const double eps = 1e-12;
  const double theta = Bisect(
      [&](double theta) {
        double sum = 0;
        for (size_t i = 0; i < phi.size(); ++i)
          sum += d.prob[i] * phi[i] / (1 + theta * phi[i]);
        return sum;
      },
      -1 / hi_phi + eps, -1 / lo_phi - eps);
  std::vector<double> p(phi.size());
  for (size_t i = 0; i < phi.size(); ++i)
    p[i] = d.prob[i] / (1 + theta * phi[i]);
  return p;
}

// MLE with expected score `s` (logistic model).
std::vector<double> MleForScore(const Distribution& d, double s) {
  std::vector<double> phi;
  for (double a : d.score) phi.push_back(a - s);
  return ConstrainedMle(d, phi);
}

// MLE with normalized score (mu - 0.5) / sigma = t (section 4.1): a fixed
// point, as the constraint involves the unknown distribution's own mean and
// deviation.
std::vector<double> MleForNormalized(const Distribution& d, double t) {
  std::vector<double> p(d.score.size(), 1.0 / d.score.size());
  for (int iteration = 0; iteration < 1000; ++iteration) {
    const double mu = Mean(d.score, p);
    const double sigma = std::sqrt(Variance(d.score, p));
    std::vector<double> phi;
    for (double a : d.score) {
      const double z = (a - mu) / sigma;
      phi.push_back(a - 0.5 - 0.5 * t * sigma * (1 + z * z));
    }
    std::vector<double> next = ConstrainedMle(d, phi);
    double change = 0;
    for (size_t i = 0; i < p.size(); ++i)
      change = std::max(change, std::abs(next[i] - p[i]));
    p = next;
    if (change < 1e-9) break;
  }
  return p;
}

double Llr(const Distribution& d, const std::vector<double>& p0,
           const std::vector<double>& p1) {
  double sum = 0;
  for (size_t i = 0; i < p0.size(); ++i)
    sum += d.prob[i] * (std::log(p1[i]) - std::log(p0[i]));
  return d.n * sum;
}

template <size_t N>
double LlrFor(const SprtParams& sprt, const std::array<int, N>& counts) {
  const Distribution d = Empirical(counts, /*regularize=*/true);
  if (sprt.model == SprtModel::kLogistic) {
    return Llr(d, MleForScore(d, EloToScore(sprt.elo0)),
               MleForScore(d, EloToScore(sprt.elo1)));
  }
  // A pair's score has sqrt(2) times a game's deviation at the same normalized
  // Elo.
  const double scale = (N == 5 ? std::sqrt(2.0) : 1.0) / kNeloScale;
  return Llr(d, MleForNormalized(d, sprt.elo0 * scale),
             MleForNormalized(d, sprt.elo1 * scale));
}

template <size_t N>
EloEstimate Estimate(const std::array<int, N>& counts) {
  EloEstimate e;
  const Distribution d = Empirical(counts, /*regularize=*/false);
  if (d.n == 0) return e;
  const double per_game_pairs = N == 5 ? 2.0 : 1.0;
  e.score = Mean(d.score, d.prob);
  const double variance = Variance(d.score, d.prob);
  const double stderr_mean = std::sqrt(variance / d.n);
  const double lo = e.score - kZ95 * stderr_mean,
               hi = e.score + kZ95 * stderr_mean;
  e.elo = ScoreToElo(e.score);
  e.elo_error = (ScoreToElo(hi) - ScoreToElo(lo)) / 2;
  const double sigma = std::sqrt(per_game_pairs * variance);
  e.measurable = variance > 0;
  e.elo += 0.0;  // -0.0 (an even score, rounded) prints as -0.0
  if (sigma > 0) {
    e.nelo = (e.score - 0.5) / sigma * kNeloScale;
    e.nelo_error = kZ95 * stderr_mean / sigma * kNeloScale;
    e.los =
        0.5 * (1 + std::erf((e.score - 0.5) / (std::sqrt(2.0) * stderr_mean)));
  } else {
    e.los = e.score > 0.5 ? 1 : e.score < 0.5 ? 0 : 0.5;
  }
  return e;
}

}  // namespace

double ScoreToElo(double score) {
  score = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400 * std::log10(1 / score - 1);
}

double EloToScore(double elo) { return 1 / (1 + std::pow(10, -elo / 400)); }

EloEstimate EstimateElo(const Trinomial& t) {
  return Estimate(std::array<int, 3>{t.losses, t.draws, t.wins});
}

EloEstimate EstimateElo(const Pentanomial& p) { return Estimate(p.counts()); }

Trinomial Mirrored(const Trinomial& t) {
  return Trinomial{t.losses, t.draws, t.wins};
}

Pentanomial Mirrored(const Pentanomial& p) {
  return Pentanomial{p.ww, p.wd, p.wl_dd, p.ld, p.ll};
}

namespace {

// The spread of the score about the one expected of a player of rating `elo`:
// the sum, over independent units (game pairs where there are pairs, else
// games), of the squared difference between the unit's score and its
// expectation, pairs scaled up to every game played. Measured about the
// fitted rating rather than about each anchor's mean, so few games against an
// anchor (a single pair, all wins) still count as the noise they are; against
// one anchor it equals the sample variance EstimateElo uses.
double ScoreSpread(const std::vector<AnchoredResults>& results, double elo) {
  double spread = 0;
  for (const AnchoredResults& a : results) {
    const int n = a.games.games();
    if (n == 0) continue;
    const double expected = EloToScore(elo - a.anchor_elo);
    const std::array<int, 3> games{a.games.losses, a.games.draws, a.games.wins};
    double sum = 0;
    if (a.pairs.pairs() > 0) {
      const std::array<int, 5> pairs = a.pairs.counts();
      for (int i = 0; i < 5; ++i) {
        const double miss = i / 2.0 - 2 * expected;
        sum += pairs[i] * miss * miss;
      }
      sum *= double(n) / (2 * a.pairs.pairs());
    } else {
      for (int i = 0; i < 3; ++i) {
        const double miss = i / 2.0 - expected;
        sum += games[i] * miss * miss;
      }
    }
    spread += sum;
  }
  return spread;
}

}  // namespace

RatingEstimate EstimateRating(const std::vector<AnchoredResults>& results) {
  RatingEstimate r;
  double points = 0;
  double lowest = 0, highest = 0;
  for (const AnchoredResults& a : results) {
    const int n = a.games.games();
    if (n == 0) continue;
    lowest = r.games == 0 ? a.anchor_elo : std::min(lowest, a.anchor_elo);
    highest = r.games == 0 ? a.anchor_elo : std::max(highest, a.anchor_elo);
    r.games += n;
    points += a.games.wins + 0.5 * a.games.draws;
  }
  if (r.games == 0) return r;
  // Points expected at rating `elo`, less those scored: decreasing in elo.
  auto shortfall = [&](double elo, double margin) {
    double expected = 0;
    for (const AnchoredResults& a : results)
      expected += a.games.games() * EloToScore(elo - a.anchor_elo);
    return points + margin - expected;
  };
  const double lo = lowest - 2000, hi = highest + 2000;
  auto solve = [&](double margin) -> std::optional<double> {
    auto f = [&](double elo) { return shortfall(elo, margin); };
    if (f(lo) <= 0 || f(hi) >= 0) return std::nullopt;
    return Bisect(f, lo, hi);
  };
  const std::optional<double> most_likely = solve(0);
  if (!most_likely) return r;  // a 0 % or 100 % score
  const double spread = ScoreSpread(results, *most_likely);
  if (!(spread > 0)) return r;  // e.g. all draws against one anchor
  r.measurable = true;
  r.elo = *most_likely + 0.0;  // not -0.0
  const double margin = kZ95 * std::sqrt(spread);
  r.lower = solve(-margin);
  r.upper = solve(margin);
  return r;
}

double SprtParams::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper_bound() const { return std::log((1 - beta) / alpha); }

double SprtLlr(const SprtParams& sprt, const Trinomial& t) {
  return LlrFor(sprt, std::array<int, 3>{t.losses, t.draws, t.wins});
}

double SprtLlr(const SprtParams& sprt, const Pentanomial& p) {
  return LlrFor(sprt, p.counts());
}

SprtDecision SprtDecide(const SprtParams& sprt, double llr) {
  if (llr >= sprt.upper_bound()) return SprtDecision::kAcceptH1;
  if (llr <= sprt.lower_bound()) return SprtDecision::kAcceptH0;
  return SprtDecision::kContinue;
}

}  // namespace chess
