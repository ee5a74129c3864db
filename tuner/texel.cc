#include "tuner/texel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>

#include "tuner/expected_score.h"

namespace chess {
namespace {

bool HasPlayerOffset(const Weights& w) { return w.size() > kPlayerOffset; }
double PlayerOffset(const Weights& w) {
  return HasPlayerOffset(w) ? w[kPlayerOffset] : 0;
}

}  // namespace

void CoefficientSet::BlendTargets(double result_weight, double k) {
  target_.assign(result_.begin(), result_.end());
  if (result_weight >= 1) return;
  for (size_t i = 0; i < result_.size(); ++i) {
    if (std::isnan(score_[i])) continue;
    target_[i] = float(BlendedTarget(result_[i], score_[i], result_weight, k));
  }
}

void CoefficientSet::Add(const Position& pos, float result,
                         const std::array<int, 6>& phase_weight,
                         std::optional<int> score_cp, int player_sign,
                         int fixed_cp) {
  player_sign_.push_back(int8_t(player_sign));
  fixed_cp_.push_back(float(fixed_cp));
  has_player_ = has_player_ || player_sign != 0;
  score_.push_back(score_cp ? float(*score_cp) : std::nanf(""));
  for (const FeatureCount& fc : CountFeatures(pos)) {
    entries_.push_back({uint16_t(fc.feature), int16_t(fc.count)});
  }
  offsets_.push_back(uint32_t(entries_.size()));
  mg_share_.push_back(float(GamePhase(pos, phase_weight)) / float(kMaxPhase));
  result_.push_back(result);
}

CoefficientSet CoefficientSet::Permuted(
    const std::vector<size_t>& order) const {
  CoefficientSet out;
  out.has_player_ = has_player_;
  out.entries_.reserve(entries_.size());
  for (size_t i : order) {
    out.entries_.insert(out.entries_.end(), begin(i), end(i));
    out.offsets_.push_back(uint32_t(out.entries_.size()));
    out.mg_share_.push_back(mg_share_[i]);
    out.result_.push_back(result_[i]);
    out.score_.push_back(score_[i]);
    out.player_sign_.push_back(player_sign_[i]);
    out.fixed_cp_.push_back(fixed_cp_[i]);
    if (!target_.empty()) out.target_.push_back(target_[i]);
  }
  return out;
}

Weights ToWeights(const EvalWeights& w) {
  Weights out(2 * kNumFeatures);
  for (int p = 0; p < 2; ++p)
    for (int f = 0; f < kNumFeatures; ++f)
      out[p * kNumFeatures + f] = w.weight[p][f];
  return out;
}

EvalWeights ToEvalWeights(const Weights& w,
                          const std::array<int, 6>& phase_weight) {
  EvalWeights out;
  out.phase_weight = phase_weight;
  for (int p = 0; p < 2; ++p)
    for (int f = 0; f < kNumFeatures; ++f) {
      out.weight[p][f] = int(std::lround(w[p * kNumFeatures + f]));
    }
  return out;
}

double LinearEval(const CoefficientSet& set, size_t i, const Weights& w) {
  double mg = 0, eg = 0;
  const double* wmg = w.data();
  const double* weg = w.data() + kNumFeatures;
  for (const Coefficient* c = set.begin(i); c != set.end(i); ++c) {
    mg += c->count * wmg[c->feature];
    eg += c->count * weg[c->feature];
  }
  const double share = set.mg_share(i);
  return mg * share + eg * (1 - share) + PlayerOffset(w) * set.player_sign(i) +
         set.fixed_cp(i);
}

double Loss(const CoefficientSet& set, const Weights& w, double k, int threads,
            Weights* gradient, size_t first, size_t last) {
  last = std::min(last, set.size());
  if (first >= last) return 0;
  threads = std::max(1, threads);
  const size_t n = last - first;
  std::vector<double> partial_loss(threads, 0);
  std::vector<Weights> partial_grad(gradient ? threads : 0,
                                    Weights(w.size(), 0));
  auto work = [&](int t) {
    const size_t begin = first + n * t / threads,
                 end = first + n * (t + 1) / threads;
    double loss = 0;
    double* g_mg = gradient ? partial_grad[t].data() : nullptr;
    double* g_eg = gradient ? partial_grad[t].data() + kNumFeatures : nullptr;
    const double* wmg = w.data();
    const double* weg = w.data() + kNumFeatures;
    const double offset = PlayerOffset(w);
    const bool fit_offset = gradient && HasPlayerOffset(w);
    for (size_t i = begin; i < end; ++i) {
      const Coefficient* b = set.begin(i);
      const Coefficient* e = set.end(i);
      double mg = 0, eg = 0;
      for (const Coefficient* c = b; c != e; ++c) {
        mg += c->count * wmg[c->feature];
        eg += c->count * weg[c->feature];
      }
      const double share = set.mg_share(i);
      const int sign = set.player_sign(i);
      const double s = ExpectedScore(
          k, mg * share + eg * (1 - share) + offset * sign + set.fixed_cp(i));
      const double error = set.result(i) - s;
      loss += error * error;
      if (gradient) {
        // d(error^2)/dq = -2 error s (1 - s) K ln10/400
        const double d = -2 * error * s * (1 - s) * k * kLn10Over400;
        const double d_mg = d * share, d_eg = d * (1 - share);
        for (const Coefficient* c = b; c != e; ++c) {
          g_mg[c->feature] += d_mg * c->count;
          g_eg[c->feature] += d_eg * c->count;
        }
        if (fit_offset) partial_grad[t][kPlayerOffset] += d * sign;
      }
    }
    partial_loss[t] = loss;
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& th : pool) th.join();
  double loss = 0;
  for (double l : partial_loss) loss += l;
  if (gradient) {
    gradient->assign(w.size(), 0);
    for (const Weights& g : partial_grad)
      for (size_t j = 0; j < g.size(); ++j) (*gradient)[j] += g[j] / double(n);
  }
  return loss / double(n);
}

double FitK(const CoefficientSet& set, const Weights& w, int threads,
            std::vector<std::pair<double, double>>* samples) {
  auto loss_at = [&](double k) {
    const double loss = Loss(set, w, k, threads);
    if (samples) samples->emplace_back(k, loss);
    return loss;
  };
  double lo = 0.05, hi = 5.0;
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
  double fa = loss_at(a), fb = loss_at(b);
  for (int i = 0; i < 60; ++i) {
    if (fa < fb) {
      hi = b, b = a, fb = fa;
      a = hi - ratio * (hi - lo);
      fa = loss_at(a);
    } else {
      lo = a, a = b, fa = fb;
      b = lo + ratio * (hi - lo);
      fb = loss_at(b);
    }
  }
  return (lo + hi) / 2;
}

std::vector<bool> TunableMask(const TexelSettings& s) {
  std::vector<bool> mask(2 * kNumFeatures, s.blocks().empty());
  for (int p = 0; p < 2; ++p) {
    for (int f = 0; f < kNumFeatures; ++f) {
      const std::string name = EvalWeights::FeatureName(f);
      for (const std::string& block : s.blocks()) {
        if (name == block || name.rfind(block + ".", 0) == 0)
          mask[p * kNumFeatures + f] = true;
      }
      // The king's value cancels out (one king each): never tune it.
      if (f == kValueFeatures + kKing) mask[p * kNumFeatures + f] = false;
    }
  }
  return mask;
}

namespace {

// Adam, with steps in centipawns, for `epochs` more epochs on the weights
// `mask` selects, pulled by l2 towards `anchor` (the player's offset, a
// strength and not a weight to keep small, excepted).
void RunAdam(const CoefficientSet& set, const TexelSettings& s, int epochs,
             const std::vector<bool>& mask, const Weights& anchor, int threads,
             const std::function<void(int, double)>& on_epoch, TexelResult& r) {
  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  Weights m(r.weights.size(), 0), v(r.weights.size(), 0), g;
  const size_t batch = s.batch_size() > 0 ? size_t(s.batch_size()) : set.size();
  int step = 0;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    double epoch_loss = 0;
    for (size_t first = 0; first < set.size(); first += batch) {
      const double loss =
          Loss(set, r.weights, r.k, threads, &g, first, first + batch);
      epoch_loss += loss * double(std::min(batch, set.size() - first));
      ++step;
      const double c1 = 1 - std::pow(beta1, step),
                   c2 = 1 - std::pow(beta2, step);
      for (size_t j = 0; j < r.weights.size(); ++j) {
        if (!mask[j]) continue;
        if (j != kPlayerOffset) g[j] += 2 * s.l2() * (r.weights[j] - anchor[j]);
        m[j] = beta1 * m[j] + (1 - beta1) * g[j];
        v[j] = beta2 * v[j] + (1 - beta2) * g[j] * g[j];
        r.weights[j] -=
            s.learning_rate() * (m[j] / c1) / (std::sqrt(v[j] / c2) + eps);
      }
    }
    r.epoch_loss.push_back(epoch_loss /
                           double(std::max<size_t>(1, set.size())));
    if (on_epoch) on_epoch(int(r.epoch_loss.size()), r.epoch_loss.back());
  }
}

// The mask without the positional terms, whose weights are rounded to the
// integers the evaluation will use.
std::vector<bool> RoundTerms(const std::vector<bool>& mask, Weights& w) {
  std::vector<bool> rest = mask;
  for (int p = 0; p < 2; ++p) {
    for (int f = kTermFeatures; f < kNumFeatures; ++f) {
      const size_t j = size_t(p) * kNumFeatures + f;
      if (mask[j]) w[j] = double(std::lround(w[j]));
      rest[j] = false;
    }
  }
  return rest;
}

}  // namespace

TexelResult TuneTexel(CoefficientSet& set, const Weights& start,
                      const TexelSettings& s,
                      const std::function<void(int, double)>& on_epoch) {
  TexelResult r;
  r.weights = start;
  std::vector<bool> mask = TunableMask(s);
  // The player's offset starts at 0 (the start's loss is the evaluation's
  // alone) and is always tuned.
  if (set.has_player()) {
    r.weights.resize(kPlayerOffset + 1, 0);
    mask.push_back(true);
  }
  const Weights initial = r.weights;
  const int threads = std::max(1, s.threads());
  r.k = s.k() > 0 ? s.k() : FitK(set, initial, threads, &r.k_fit);
  set.BlendTargets(s.result_weight(), r.k);
  r.start_loss = Loss(set, initial, r.k, threads);
  RunAdam(set, s, s.epochs(), mask, initial, threads, on_epoch, r);
  if (s.refit_epochs() > 0) {
    // A term counts up to dozens per position (mobility squares, danger
    // units): rounding its weight moves evaluations by many centipawns, where
    // rounding a value or a table entry moves them by half of one. So the
    // terms are rounded first and the rest fitted again around them, pulled
    // towards this fit rather than the start (which it has left behind).
    const std::vector<bool> rest = RoundTerms(mask, r.weights);
    const Weights first_fit = r.weights;
    RunAdam(set, s, s.refit_epochs(), rest, first_fit, threads, on_epoch, r);
  }
  r.final_loss = Loss(set, r.weights, r.k, threads);
  if (set.has_player()) {
    r.player_offset = r.weights[kPlayerOffset];
    r.weights.resize(kPlayerOffset);
  }
  return r;
}

}  // namespace chess
