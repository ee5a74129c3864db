#include "tuner/perspective_training.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "common/parallel.h"
#include "engine/network.h"
#include "tuner/expected_score.h"

namespace chess {
namespace {

// Gradients of one thread's share of a batch, laid out as the weights.
struct Gradients {
  std::vector<float> input_weights, hidden_biases, output_weights;
  double output_bias = 0;
  double loss = 0;
  // Scratch for one position.
  std::vector<float> us, them, us_gradient, them_gradient;

  explicit Gradients(int hidden)
      : input_weights(size_t(kNetworkInputs) * hidden),
        hidden_biases(hidden),
        output_weights(2 * size_t(hidden)),
        us(hidden),
        them(hidden),
        us_gradient(hidden),
        them_gradient(hidden) {}
  void Clear() {
    std::fill(input_weights.begin(), input_weights.end(), 0.0f);
    std::fill(hidden_biases.begin(), hidden_biases.end(), 0.0f);
    std::fill(output_weights.begin(), output_weights.end(), 0.0f);
    output_bias = 0;
    loss = 0;
  }
};

// Uniform within +-1/sqrt(fan-in) (bullet's and PyTorch's default), biases 0.
FloatNetwork RandomPerspective(int hidden, std::mt19937_64& rng) {
  FloatNetwork net;
  net.hidden = hidden;
  std::uniform_real_distribution<float> input(
      -1.0f / std::sqrt(float(kNetworkInputs)),
      1.0f / std::sqrt(float(kNetworkInputs)));
  net.input_weights.resize(size_t(kNetworkInputs) * hidden);
  for (float& w : net.input_weights) w = input(rng);
  net.hidden_biases.assign(hidden, 0.0f);
  std::uniform_real_distribution<float> output(
      -1.0f / std::sqrt(float(2 * hidden)),
      1.0f / std::sqrt(float(2 * hidden)));
  net.output_weights.resize(2 * size_t(hidden));
  for (float& w : net.output_weights) w = output(rng);
  return net;
}

float SquaredClipped(float x) {
  const float a = std::clamp(x, 0.0f, 1.0f);
  return a * a;
}

// d SquaredClipped / dx, times `g`.
float SquaredClippedGradient(float x, float g) {
  return x > 0.0f && x < 1.0f ? 2.0f * x * g : 0.0f;
}

void AddRow(const float* __restrict row, int hidden, float* __restrict sums) {
  for (int j = 0; j < hidden; ++j) sums[j] += row[j];
}

// Forward and backward through one training item, into `g`.
void Accumulate(const FloatNetwork& net, const NetworkSamples& samples,
                size_t item, double k, Gradients& g) {
  const int hidden = net.hidden;
  const size_t i = item / 2;
  // An input's square is its low 6 bits: XOR 7 swaps files a-h.
  const int file_flip = item % 2 ? 7 : 0;
  int inputs[kMaxPieces];
  const int count = samples.input_count(i);
  for (int c = 0; c < count; ++c) inputs[c] = samples.inputs(i)[c] ^ file_flip;
  std::copy(net.hidden_biases.begin(), net.hidden_biases.end(), g.us.begin());
  std::copy(net.hidden_biases.begin(), net.hidden_biases.end(), g.them.begin());
  for (int c = 0; c < count; ++c) {
    AddRow(&net.input_weights[size_t(inputs[c]) * hidden], hidden, g.us.data());
    AddRow(&net.input_weights[size_t(OtherSideInput(inputs[c])) * hidden],
           hidden, g.them.data());
  }
  const float* out_us = net.output_weights.data();
  const float* out_them = out_us + hidden;
  float out = net.output_bias;
  for (int j = 0; j < hidden; ++j) {
    out += SquaredClipped(g.us[j]) * out_us[j] +
           SquaredClipped(g.them[j]) * out_them[j];
  }
  const double s =
      ExpectedScore(k, samples.linear(i) + kCentipawnsPerOutput * out);
  const double error = s - samples.target(i);
  g.loss += error * error;
  // d(error^2) / d(output in pawns)
  const float d =
      float(2 * error * s * (1 - s) * k * kLn10Over400 * kCentipawnsPerOutput);
  g.output_bias += d;
  float* grad_out_us = g.output_weights.data();
  float* grad_out_them = grad_out_us + hidden;
  for (int j = 0; j < hidden; ++j) {
    grad_out_us[j] += d * SquaredClipped(g.us[j]);
    grad_out_them[j] += d * SquaredClipped(g.them[j]);
    g.us_gradient[j] = SquaredClippedGradient(g.us[j], d * out_us[j]);
    g.them_gradient[j] = SquaredClippedGradient(g.them[j], d * out_them[j]);
    g.hidden_biases[j] += g.us_gradient[j] + g.them_gradient[j];
  }
  for (int c = 0; c < count; ++c) {
    AddRow(g.us_gradient.data(), hidden,
           &g.input_weights[size_t(inputs[c]) * hidden]);
    AddRow(g.them_gradient.data(), hidden,
           &g.input_weights[size_t(OtherSideInput(inputs[c])) * hidden]);
  }
}

// AdamW over a slice of one array of weights.
struct AdamW {
  std::vector<float> m, v;
  explicit AdamW(size_t n) : m(n), v(n) {}
  // `decay`: the fraction of each weight taken away this step.
  void Step(size_t begin, size_t end, float* params, const float* gradients,
            float scale, float step_size, float decay,
            float limit = kMaxPerspectiveWeight) {
    for (size_t i = begin; i < end; ++i) {
      const float gradient = gradients[i] * scale;
      m[i] = 0.9f * m[i] + 0.1f * gradient;
      v[i] = 0.999f * v[i] + 0.001f * gradient * gradient;
      const float p = params[i] * (1 - decay) -
                      step_size * m[i] / (std::sqrt(v[i]) + 1e-8f);
      params[i] = std::clamp(p, -limit, limit);
    }
  }
};

}  // namespace

std::vector<size_t> PerspectiveTrainingItems(const NetworkSamples& samples,
                                             const NetworkSettings& settings) {
  std::vector<size_t> items;
  items.reserve(PerspectiveTrainingItemCount(samples, settings));
  for (size_t i = 0; i < samples.size(); ++i) {
    items.push_back(2 * i);
    if (settings.mirror_files() && samples.mirrorable(i))
      items.push_back(2 * i + 1);
  }
  return items;
}

size_t PerspectiveTrainingItemCount(const NetworkSamples& samples,
                                    const NetworkSettings& settings) {
  size_t count = samples.size();
  if (!settings.mirror_files()) return count;
  for (size_t i = 0; i < samples.size(); ++i) count += samples.mirrorable(i);
  return count;
}

NetworkTraining TrainPerspectiveNetwork(
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch,
    const NetworkParams* initial) {
  std::mt19937_64 rng(settings.seed());
  FloatNetwork net = initial ? Unrounded(*initial)
                             : RandomPerspective(settings.hidden_size(), rng);
  const Quantisation q =
      initial ? QuantisationOf(*initial)
              : Quantisation{settings.activation_one(), settings.output_one(),
                             settings.output_scale()};
  // bullet's clip, in output units, and what the engine's fast product takes.
  const float output_limit =
      std::min(kMaxPerspectiveWeight * float(q.output_scale) /
                   float(kCentipawnsPerOutput),
               MaxPerspectiveOutputWeight(q));
  const int hidden = net.hidden;
  const size_t threads =
      settings.threads() > 0 ? size_t(settings.threads()) : CoreCount();
  std::vector<Gradients> parts(threads, Gradients(hidden));
  AdamW input_adam(net.input_weights.size()), bias_adam(hidden),
      output_adam(net.output_weights.size()), output_bias_adam(1);
  std::vector<size_t> order = PerspectiveTrainingItems(train, settings);
  const size_t batch = size_t(std::max(1, settings.batch_size()));
  const size_t batches_per_epoch = (order.size() + batch - 1) / batch;

  NetworkTraining result;
  int64_t steps = 0;
  for (int epoch = 0; epoch < settings.epochs(); ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    double epoch_loss = 0;
    for (size_t b = 0; b < batches_per_epoch; ++b) {
      const size_t first = b * batch,
                   last = std::min(order.size(), first + batch);
      ForEachSlice(last - first, threads,
                   [&](size_t part, size_t begin, size_t end) {
                     Gradients& g = parts[part];
                     g.Clear();
                     for (size_t n = first + begin; n < first + end; ++n)
                       Accumulate(net, train, order[n], settings.k(), g);
                   });
      // The parts' gradients summed into part 0's, a slice per thread.
      Gradients& sum = parts[0];
      for (size_t p = 1; p < threads; ++p) {
        sum.output_bias += parts[p].output_bias;
        sum.loss += parts[p].loss;
      }
      epoch_loss += sum.loss;
      ++steps;
      const double rate = LearningRateAt(
          settings, epoch + double(b) / double(batches_per_epoch));
      const float step_size =
          float(rate * std::sqrt(1 - std::pow(0.999, steps)) /
                (1 - std::pow(0.9, steps)));
      const float decay = float(rate * settings.weight_decay());
      const float scale = 1.0f / float(last - first);
      ForEachSlice(net.input_weights.size(), threads,
                   [&](size_t, size_t begin, size_t end) {
                     for (size_t p = 1; p < threads; ++p) {
                       for (size_t i = begin; i < end; ++i)
                         sum.input_weights[i] += parts[p].input_weights[i];
                     }
                     input_adam.Step(begin, end, net.input_weights.data(),
                                     sum.input_weights.data(), scale, step_size,
                                     decay);
                   });
      for (size_t p = 1; p < threads; ++p) {
        for (int j = 0; j < hidden; ++j)
          sum.hidden_biases[j] += parts[p].hidden_biases[j];
        for (size_t j = 0; j < sum.output_weights.size(); ++j)
          sum.output_weights[j] += parts[p].output_weights[j];
      }
      bias_adam.Step(0, hidden, net.hidden_biases.data(),
                     sum.hidden_biases.data(), scale, step_size, 0);
      output_adam.Step(0, net.output_weights.size(), net.output_weights.data(),
                       sum.output_weights.data(), scale, step_size, decay,
                       output_limit);
      const float output_bias_gradient = float(sum.output_bias);
      output_bias_adam.Step(0, 1, &net.output_bias, &output_bias_gradient,
                            scale, step_size, 0, output_limit);
    }
    result.epoch_loss.push_back(order.size() ? epoch_loss / order.size() : 0);
    if (on_epoch) on_epoch(epoch, Rounded(net, NetworkParams::PERSPECTIVE, q));
  }
  result.params = Rounded(net, NetworkParams::PERSPECTIVE, q);
  return result;
}

}  // namespace chess
