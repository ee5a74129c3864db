// `tuner bench`: a Texel gradient epoch and network training, timed.
#include <algorithm>
#include <array>
#include <fstream>
#include <ostream>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "common/exit_code.h"
#include "common/stopwatch.h"
#include "engine/config.h"
#include "engine/eval_weights.h"
#include "tuner/commands.h"
#include "tuner/network_export.h"
#include "tuner/network_training.h"
#include "tuner/perspective_training.h"
#include "tuner/texel.h"

namespace chess {
namespace {

// The clock /proc/cpuinfo reports for the first processor, in GHz (0 when
// it says none).
double ClockGhz() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    double mhz;
    if (absl::StartsWith(line, "cpu MHz") &&
        absl::SimpleAtod(line.substr(line.find(':') + 1), &mhz))
      return mhz / 1000;
  }
  return 0;
}

// bullet's reference shape, (768 -> 256) x 2 -> 1 at bullet's batch of
// 16,384, trained on positions of random games with random labels: the
// arithmetic is what is timed.
void BenchNetworkTraining(int positions, int threads, int batch, uint64_t seed,
                          std::ostream& out) {
  NetworkSamples samples;
  std::mt19937_64 rng(seed);
  for (const Position& pos : RandomGamePositions(positions, seed))
    samples.Add(pos, 0, float(rng() % 1001) / 1000);
  NetworkSettings settings;
  settings.set_layout(NetworkParams::PERSPECTIVE);
  settings.set_whole_evaluation(true);
  settings.set_hidden_size(256);
  settings.set_batch_size(batch);
  settings.set_epochs(1);
  settings.set_threads(threads);
  TrainPerspectiveNetwork(samples, settings);  // warm-up
  settings.set_epochs(2);
  Stopwatch t0;
  TrainPerspectiveNetwork(samples, settings);
  const double seconds = t0.Seconds();
  const double rate = 2 * positions / seconds;
  out << absl::StrFormat(
      "net training: %.0f positions/s (%d threads; (768 -> 256) x 2 -> 1, "
      "batch %d, %d positions x 2 epochs in %.2f s)\n",
      rate, threads, batch, positions, seconds);
  // The arithmetic: each input's row of 256 sums added forward and its
  // gradient row backward, from both sides (4 n H), and about 16 operations
  // per unit and side through the activation and the output layer.
  double inputs = 0;
  for (size_t i = 0; i < samples.size(); ++i) inputs += samples.input_count(i);
  inputs /= std::max<size_t>(1, samples.size());
  const double flops = 4 * inputs * 256 + 2 * 256 * 16;
  out << absl::StrFormat(
      "net training arithmetic: %.0f float operations a position (%.1f "
      "inputs); %.1f GFLOP/s",
      flops, inputs, rate * flops / 1e9);
  if (const double ghz = ClockGhz(); ghz > 0) {
    // AVX2: two 8-float adds a cycle per core (the bulk of the work is adds).
    const double peak = threads * 16 * ghz;
    out << absl::StrFormat(
        ", %.0f%% of %d cores x 16 FLOP/cycle x %.2f GHz = %.1f GFLOP/s",
        100 * rate * flops / 1e9 / peak, threads, ghz, peak);
  }
  out << "\n";
}

// Positions from seeded random play: the coefficient layout is what matters,
// not the labels.
CoefficientSet RandomCoefficients(int count, uint64_t seed) {
  CoefficientSet set;
  std::mt19937_64 rng(seed);
  const std::array<int, 6> phase = {0, 1, 1, 2, 4, 0};
  for (const Position& pos : RandomGamePositions(count, seed))
    set.Add(pos, float(rng() % 3) / 2, phase);
  return set;
}

}  // namespace

int BenchCommand(const BenchRequest& request, std::ostream& out) {
  const int n = request.positions;
  const CoefficientSet set = RandomCoefficients(n, request.seed);
  const Weights w =
      ToWeights(*EvalWeights::FromProto(DefaultEngineConfig().eval()));
  Weights g;
  Loss(set, w, 1.0, request.threads, &g);  // warm-up
  double best = 1e9;
  for (int i = 0; i < 10; ++i) {
    Stopwatch t0;
    Loss(set, w, 1.0, request.threads, &g);
    best = std::min(best, t0.Seconds());
  }
  out << absl::StrFormat(
      "full-batch gradient epoch: %d positions, %d threads: %.1f ms (best of "
      "10), %.1f M positions/s\n",
      n, request.threads, best * 1000, n / best / 1e6);
  BenchNetworkTraining(std::min(n, 400000), request.threads,
                       request.batch_size > 0 ? request.batch_size : 16384,
                       request.seed, out);
  return kExitOk;
}

}  // namespace chess
