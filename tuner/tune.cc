#include "tuner/tune.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/schedule.h"
#include "engine/config.h"
#include "engine/network.h"
#include "google/protobuf/text_format.h"

namespace chess {

absl::StatusOr<TunedConfig> TuneEvaluation(const TrainingSet& data,
                                           const EngineConfig& start,
                                           const TexelSettings& settings,
                                           std::ostream* log) {
  return TuneEvaluation(
      [&](const PositionVisitor& visit) {
        for (const TrainingPosition& tp : data.positions()) {
          if (absl::Status s = visit(tp); !s.ok()) return s;
        }
        return absl::OkStatus();
      },
      start, settings, log);
}

absl::StatusOr<TunedConfig> TuneEvaluation(const PositionSource& positions,
                                           const EngineConfig& start,
                                           const TexelSettings& settings,
                                           std::ostream* log) {
  absl::StatusOr<EvalWeights> weights = EvalWeights::FromProto(start.eval());
  if (!weights.ok()) return weights.status();
  // A network is held: its output is part of each position's evaluation
  // while the linear weights are fitted around it, and it is kept.
  absl::StatusOr<Network> network = Network::FromEval(start.eval());
  if (!network.ok()) return network.status();
  if (network->whole_evaluation()) {
    return absl::InvalidArgumentError(
        "the start config's eval.network is the whole evaluation "
        "(whole_evaluation): its linear weights count for nothing to tune");
  }
  CoefficientSet in_order;
  absl::Status read = positions([&](const TrainingPosition& tp) {
    absl::StatusOr<Position> pos = Position::FromFen(tp.fen());
    if (!pos.ok()) {
      return absl::DataLossError(absl::StrCat(
          "training position ", in_order.size(), ": ", pos.status().message()));
    }
    if (tp.player_sign() < -1 || tp.player_sign() > 1) {
      return absl::DataLossError(
          absl::StrCat("training position ", in_order.size(), ": player_sign ",
                       tp.player_sign(), " (must be -1, 0 or 1)"));
    }
    const int network_cp = network->Evaluate(*pos);
    in_order.Add(
        *pos, tp.result(), weights->phase_weight,
        tp.has_score_cp() ? std::optional<int>(tp.score_cp()) : std::nullopt,
        tp.player_sign(),
        pos->side_to_move() == kWhite ? network_cp : -network_cp);
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  if (in_order.size() == 0)
    return absl::InvalidArgumentError("no training positions");
  // Mini-batches need the positions in random order, not by game.
  std::vector<size_t> order(in_order.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(Mix64(settings.seed()));
  for (size_t i = order.size() - 1; i > 0; --i)
    std::swap(order[i], order[rng() % (i + 1)]);
  CoefficientSet set = in_order.Permuted(order);
  in_order = CoefficientSet();
  TunedConfig out;
  out.positions = set.size();
  out.texel = TuneTexel(
      set, ToWeights(*weights), settings, [&](int epoch, double loss) {
        if (log && (epoch % 50 == 0 || epoch == 1)) {
          *log << absl::StrFormat("epoch %4d  loss %.6f\n", epoch, loss);
        }
      });
  out.config = start;
  *out.config.mutable_eval() =
      ToEvalWeights(out.texel.weights, weights->phase_weight).ToProto();
  if (start.eval().has_network())
    *out.config.mutable_eval()->mutable_network() = start.eval().network();
  return out;
}

std::string DescribeChanges(const EvalParams& before, const EvalParams& after,
                            int top) {
  absl::StatusOr<EvalWeights> a = EvalWeights::FromProto(before);
  absl::StatusOr<EvalWeights> b = EvalWeights::FromProto(after);
  if (!a.ok() || !b.ok()) return "(cannot compare)\n";
  std::string s = "piece values (mg / eg): before -> after\n";
  for (int t = kPawn; t <= kQueen; ++t) {
    const int f = kValueFeatures + t;
    absl::StrAppendFormat(&s, "  %-14s %5d / %5d  ->  %5d / %5d\n",
                          EvalWeights::FeatureName(f), a->weight[kMg][f],
                          a->weight[kEg][f], b->weight[kMg][f],
                          b->weight[kEg][f]);
  }
  bool any_term = false;
  for (int f = kTermFeatures; f < kNumFeatures; ++f) {
    any_term = any_term || a->weight[kMg][f] || a->weight[kEg][f] ||
               b->weight[kMg][f] || b->weight[kEg][f];
  }
  if (any_term) {
    absl::StrAppend(&s, "positional terms (mg / eg): before -> after\n");
    for (int f = kTermFeatures; f < kNumFeatures; ++f) {
      absl::StrAppendFormat(&s, "  %-20s %5d / %5d  ->  %5d / %5d\n",
                            EvalWeights::FeatureName(f), a->weight[kMg][f],
                            a->weight[kEg][f], b->weight[kMg][f],
                            b->weight[kEg][f]);
    }
  }
  struct Change {
    int feature, phase, from, to;
  };
  std::vector<Change> changes;
  for (int p = 0; p < 2; ++p)
    for (int f = kPstFeatures; f < kPstFeatures + 384; ++f)
      if (a->weight[p][f] != b->weight[p][f])
        changes.push_back({f, p, a->weight[p][f], b->weight[p][f]});
  std::sort(changes.begin(), changes.end(),
            [](const Change& x, const Change& y) {
              return std::abs(x.to - x.from) > std::abs(y.to - y.from);
            });
  absl::StrAppendFormat(&s, "largest piece-square changes (of %d changed):\n",
                        changes.size());
  for (int i = 0; i < std::min<int>(top, int(changes.size())); ++i) {
    const Change& c = changes[i];
    absl::StrAppendFormat(&s, "  %-20s %s %5d -> %5d (%+d)\n",
                          EvalWeights::FeatureName(c.feature),
                          c.phase == kMg ? "mg" : "eg", c.from, c.to,
                          c.to - c.from);
  }
  return s;
}

}  // namespace chess
