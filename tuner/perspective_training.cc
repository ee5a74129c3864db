#include "tuner/perspective_training.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <future>
#include <numeric>
#include <random>
#include <vector>

#include "common/parallel.h"
#include "engine/network.h"
#include "tuner/expected_score.h"

#ifdef __AVX__
#include <immintrin.h>
#endif

namespace chess {
namespace {

// Positions whose gradients by the hidden sums are kept before they are added
// to the input weights' gradients, a row of inputs at a time: each input's
// row is then read and written once per chunk rather than once per position
// that has it.
inline constexpr int kChunkPositions = 256;

// Gradients of one thread's share of a batch, laid out as the weights.
struct Gradients {
  std::vector<float> input_weights, hidden_biases, output_weights;
  std::vector<double> output_biases;  // by output bucket
  double loss = 0;
  // Scratch for one position.
  std::vector<float> us, them;
  // The chunk: each position's inputs and gradients by the hidden sums, by
  // side (entry 2 * position + side).
  int chunk_size = 0;
  std::vector<float> hidden_gradients;  // [entry][hidden]
  std::vector<uint16_t> entry_inputs;   // [entry][kMaxPieces]
  std::vector<uint8_t> entry_counts;    // [entry]
  // Scratch of AddChunk: the entries of each input.
  std::vector<int> input_entries, input_first, input_next;

  // `rows`: the inputs of every king bucket.
  Gradients(int hidden, int rows, int output_buckets)
      : input_weights(size_t(rows) * hidden),
        hidden_biases(hidden),
        output_weights(2 * size_t(output_buckets) * hidden),
        output_biases(output_buckets),
        us(hidden),
        them(hidden),
        hidden_gradients(2 * size_t(kChunkPositions) * hidden),
        entry_inputs(2 * size_t(kChunkPositions) * kMaxPieces),
        entry_counts(2 * size_t(kChunkPositions)),
        input_entries(2 * size_t(kChunkPositions) * kMaxPieces),
        input_first(size_t(rows) + 1),
        input_next(rows) {}
  void Clear() {
    std::fill(input_weights.begin(), input_weights.end(), 0.0f);
    std::fill(hidden_biases.begin(), hidden_biases.end(), 0.0f);
    std::fill(output_weights.begin(), output_weights.end(), 0.0f);
    std::fill(output_biases.begin(), output_biases.end(), 0.0);
    loss = 0;
  }
};

// Uniform within +-1/sqrt(fan-in) (bullet's and PyTorch's default; a
// position uses 768 inputs of one king bucket), biases 0; the buckets as
// `settings` ask.
FloatNetwork RandomPerspective(const NetworkSettings& settings,
                               std::mt19937_64& rng) {
  FloatNetwork net;
  const int hidden = settings.hidden_size();
  net.hidden = hidden;
  net.king_buckets.assign(settings.king_buckets().begin(),
                          settings.king_buckets().end());
  net.output_buckets = settings.output_buckets();
  if (net.output_buckets > 1) net.output_biases.assign(net.output_buckets, 0);
  std::uniform_real_distribution<float> input(
      -1.0f / std::sqrt(float(kNetworkInputs)),
      1.0f / std::sqrt(float(kNetworkInputs)));
  net.input_weights.resize(size_t(InputBuckets(net)) * kNetworkInputs * hidden);
  for (float& w : net.input_weights) w = input(rng);
  net.hidden_biases.assign(hidden, 0.0f);
  std::uniform_real_distribution<float> output(
      -1.0f / std::sqrt(float(2 * hidden)),
      1.0f / std::sqrt(float(2 * hidden)));
  net.output_weights.resize(2 * size_t(net.output_buckets) * hidden);
  for (float& w : net.output_weights) w = output(rng);
  return net;
}

// The start network with the buckets `settings` ask for, when it has none:
// each output bucket a copy of its output layer (so it evaluates every
// position exactly as before), each king bucket a copy of its input layer
// (exactly as before while the side's king stands on files a-d; on e-h the
// engine mirrors the board's files, so there it starts as the start's
// evaluation of the mirrored board). A start that has buckets keeps its own.
FloatNetwork WithBuckets(FloatNetwork net, const NetworkSettings& settings) {
  // `layer` followed by copies of itself, `copies` in all.
  auto repeat = [](std::vector<float>& layer, int copies) {
    const size_t size = layer.size();
    layer.resize(size * copies);
    for (int c = 1; c < copies; ++c)
      std::copy_n(layer.begin(), size, layer.begin() + c * size);
  };
  if (net.output_buckets == 1 && settings.output_buckets() > 1) {
    net.output_buckets = settings.output_buckets();
    repeat(net.output_weights, net.output_buckets);
    net.output_biases.assign(net.output_buckets, net.output_bias);
  }
  if (net.king_buckets.empty() && settings.king_buckets_size() > 0) {
    net.king_buckets.assign(settings.king_buckets().begin(),
                            settings.king_buckets().end());
    repeat(net.input_weights, InputBuckets(net));
  }
  return net;
}

// Eight floats (GCC and Clang vector extension): one AVX register.
using Floats = float __attribute__((vector_size(32)));
inline constexpr int kFloatLanes = 8;
// Eight floats from and to any float's address (unaligned moves).
inline Floats LoadFloats(const float* p) {
  Floats x;
  std::memcpy(&x, p, sizeof(x));
  return x;
}
inline void StoreFloats(float* p, Floats x) { std::memcpy(p, &x, sizeof(x)); }
// Hidden units summed at a time, their sums held in registers over every
// input's row: a row is then read once and no sum goes through memory.
inline constexpr int kBlockFloats = 64;
inline constexpr int kBlockVectors = kBlockFloats / kFloatLanes;
// A hidden size is a multiple of kNetworkBlock: blocks of 64, and one of 32.
static_assert(kBlockFloats == 2 * kNetworkBlock);

// out[j] = start[j] + sum of rows[r][j] for the `Vectors` x 8 units from
// `first`, their sums in registers.
template <int Vectors>
[[gnu::always_inline]] inline void SumRowsBlock(const float* start,
                                                const float* const* rows,
                                                int count, int first,
                                                float* out) {
  Floats sums[Vectors];
  for (int v = 0; v < Vectors; ++v)
    sums[v] = LoadFloats(start + first + v * kFloatLanes);
  for (int r = 0; r < count; ++r) {
    const float* row = rows[r] + first;
    for (int v = 0; v < Vectors; ++v)
      sums[v] += LoadFloats(row + v * kFloatLanes);
  }
  for (int v = 0; v < Vectors; ++v)
    StoreFloats(out + first + v * kFloatLanes, sums[v]);
}

// out[j] = start[j] + sum of rows[r][j], for j < hidden (a multiple of
// kNetworkBlock), a block of units at a time.
[[gnu::always_inline]] inline void SumRows(const float* start,
                                           const float* const* rows, int count,
                                           int hidden, float* out) {
  int first = 0;
  for (; first + kBlockFloats <= hidden; first += kBlockFloats)
    SumRowsBlock<kBlockVectors>(start, rows, count, first, out);
  if (first < hidden)
    SumRowsBlock<kNetworkBlock / kFloatLanes>(start, rows, count, first, out);
}

// rows[r][j] += add[j] for every row and the `Vectors` x 8 units from
// `first`.
template <int Vectors>
void AddToRowsBlock(const float* add, float* const* rows, int count,
                    int first) {
  Floats block[Vectors];
  for (int v = 0; v < Vectors; ++v)
    block[v] = LoadFloats(add + first + v * kFloatLanes);
  for (int r = 0; r < count; ++r) {
    float* row = rows[r] + first;
    for (int v = 0; v < Vectors; ++v)
      StoreFloats(row + v * kFloatLanes,
                  LoadFloats(row + v * kFloatLanes) + block[v]);
  }
}

// rows[r][j] += add[j] for every row, a block of units at a time.
void AddToRows(const float* add, float* const* rows, int count, int hidden) {
  int first = 0;
  for (; first + kBlockFloats <= hidden; first += kBlockFloats)
    AddToRowsBlock<kBlockVectors>(add, rows, count, first);
  if (first < hidden)
    AddToRowsBlock<kNetworkBlock / kFloatLanes>(add, rows, count, first);
}

// sum over j of clamp(x[j], 0, 1)^2 * w[j].
float SquaredClippedDot(const float* x, const float* w, int hidden) {
  Floats total = {};
  for (int j = 0; j < hidden; j += kFloatLanes) {
    Floats a = LoadFloats(x + j);
    a = a < 0.0f ? 0.0f : a;
    a = a > 1.0f ? 1.0f : a;
    total += a * a * LoadFloats(w + j);
  }
  float sum = 0;
  for (int l = 0; l < kFloatLanes; ++l) sum += total[l];
  return sum;
}

// Through the output layer backwards, `d` the loss's gradient by the output:
// the output weights' gradients (d * activation) into `output_gradient`, and
// the gradient by each hidden sum (d * w * 2x inside (0, 1), else 0) into
// `hidden_gradient`.
void OutputBackward(const float* x, const float* w, float d, int hidden,
                    float* output_gradient, float* hidden_gradient) {
  for (int j = 0; j < hidden; j += kFloatLanes) {
    const Floats sum = LoadFloats(x + j);
    Floats a = sum < 0.0f ? 0.0f : sum;
    a = a > 1.0f ? 1.0f : a;
    StoreFloats(output_gradient + j,
                LoadFloats(output_gradient + j) + d * a * a);
    const Floats inside = (sum > 0.0f) & (sum < 1.0f) ? 2.0f * d : 0.0f;
    StoreFloats(hidden_gradient + j, inside * sum * LoadFloats(w + j));
  }
}

// The chunk's gradients by the hidden sums into the input weights'
// gradients: the entries are sorted by input (counting sort), and each
// input's row gets the sum of its entries, a block of units at a time in
// registers.
void AddChunk(int hidden, Gradients& g) {
  const int entries = 2 * g.chunk_size;
  std::fill(g.input_first.begin(), g.input_first.end(), 0);
  for (int e = 0; e < entries; ++e) {
    for (int c = 0; c < g.entry_counts[e]; ++c)
      ++g.input_first[g.entry_inputs[size_t(e) * kMaxPieces + c] + 1];
  }
  const int inputs = int(g.input_next.size());
  for (int input = 0; input < inputs; ++input)
    g.input_first[input + 1] += g.input_first[input];
  std::copy_n(g.input_first.begin(), inputs, g.input_next.begin());
  for (int e = 0; e < entries; ++e) {
    for (int c = 0; c < g.entry_counts[e]; ++c) {
      const int input = g.entry_inputs[size_t(e) * kMaxPieces + c];
      g.input_entries[g.input_next[input]++] = e;
    }
  }
  const float* rows[2 * kChunkPositions];
  for (int input = 0; input < inputs; ++input) {
    const int begin = g.input_first[input], end = g.input_first[input + 1];
    if (begin == end) continue;
    for (int n = begin; n < end; ++n)
      rows[n - begin] =
          &g.hidden_gradients[size_t(g.input_entries[n]) * hidden];
    float* row = &g.input_weights[size_t(input) * hidden];
    SumRows(row, rows, end - begin, hidden, row);
  }
  g.chunk_size = 0;
}

// Forward and backward through one training item, into `g`.
void Accumulate(const FloatNetwork& net, const NetworkSamples& samples,
                size_t item, double k, Gradients& g) {
  const int hidden = net.hidden;
  const size_t i = item / 2;
  // An input's square is its low 6 bits: XOR 7 swaps files a-h.
  const int file_flip = item % 2 ? 7 : 0;
  const int count = samples.input_count(i);
  int inputs[2][kMaxPieces];
  const float* rows[2][kMaxPieces];
  const uint16_t* sample = samples.inputs(i);
  for (int c = 0; c < count; ++c) {
    inputs[0][c] = sample[c] ^ file_flip;
    inputs[1][c] = OtherSideInput(inputs[0][c]);
  }
  if (!net.king_buckets.empty()) {
    // Each side's inputs in the view of its own king.
    InputView views[2];
    for (int side = 0; side < 2; ++side) {
      for (int c = 0; c < count; ++c) {
        const int own_king = inputs[side][c] - kOwnKingInputs;
        if (own_king >= 0 && own_king < 64)
          views[side] = KingView(net.king_buckets, own_king);
      }
      for (int c = 0; c < count; ++c)
        inputs[side][c] = ViewedInput(views[side], inputs[side][c]);
    }
  }
  for (int side = 0; side < 2; ++side) {
    for (int c = 0; c < count; ++c)
      rows[side][c] = &net.input_weights[size_t(inputs[side][c]) * hidden];
  }
  float* sums[2] = {g.us.data(), g.them.data()};
  for (int side = 0; side < 2; ++side)
    SumRows(net.hidden_biases.data(), rows[side], count, hidden, sums[side]);
  const int bucket = OutputBucket(count, net.output_buckets);
  const float* out_w[2] = {
      net.output_weights.data() + 2 * size_t(bucket) * hidden,
      net.output_weights.data() + (2 * size_t(bucket) + 1) * hidden};
  const float bias =
      net.output_buckets > 1 ? net.output_biases[bucket] : net.output_bias;
  const float out = bias + SquaredClippedDot(sums[0], out_w[0], hidden) +
                    SquaredClippedDot(sums[1], out_w[1], hidden);
  const double s =
      ExpectedScore(k, samples.linear(i) + kCentipawnsPerOutput * out);
  const double error = s - samples.target(i);
  g.loss += error * error;
  // d(error^2) / d(output in pawns)
  const float d =
      float(2 * error * s * (1 - s) * k * kLn10Over400 * kCentipawnsPerOutput);
  g.output_biases[bucket] += d;
  float* hidden_gradient[2];
  for (int side = 0; side < 2; ++side) {
    const int entry = 2 * g.chunk_size + side;
    hidden_gradient[side] = &g.hidden_gradients[size_t(entry) * hidden];
    OutputBackward(
        sums[side], out_w[side], d, hidden,
        g.output_weights.data() + (2 * size_t(bucket) + side) * hidden,
        hidden_gradient[side]);
    std::copy_n(inputs[side], count,
                &g.entry_inputs[size_t(entry) * kMaxPieces]);
    g.entry_counts[entry] = uint8_t(count);
  }
  for (int j = 0; j < hidden; ++j)
    g.hidden_biases[j] += hidden_gradient[0][j] + hidden_gradient[1][j];
  if (++g.chunk_size == kChunkPositions) AddChunk(hidden, g);
}

// AdamW over a slice of one array of weights.
struct AdamW {
  std::vector<float> m, v;
  explicit AdamW(size_t n) : m(n), v(n) {}
  // `decay`: the fraction of each weight taken away this step.
  void Step(size_t begin, size_t end, float* params, const float* gradients,
            float scale, float step_size, float decay,
            float limit = kMaxPerspectiveWeight) {
    size_t i = begin;
#ifdef __AVX__
    // Eight at a time: a scalar square root and division per weight cost as
    // much as a batch of 1,024 positions' forward and backward passes.
    for (; i + kFloatLanes <= end; i += kFloatLanes) {
      const Floats gradient = Load(gradients + i) * scale;
      const Floats mi = 0.9f * Load(&m[i]) + 0.1f * gradient;
      const Floats vi = 0.999f * Load(&v[i]) + 0.001f * gradient * gradient;
      Store(&m[i], mi);
      Store(&v[i], vi);
      const Floats root = Floats(_mm256_sqrt_ps(__m256(vi)));
      Floats p =
          Load(params + i) * (1 - decay) - step_size * mi / (root + 1e-8f);
      p = p < -limit ? -limit : p;
      p = p > limit ? limit : p;
      Store(params + i, p);
    }
#endif
    for (; i < end; ++i) {
      const float gradient = gradients[i] * scale;
      m[i] = 0.9f * m[i] + 0.1f * gradient;
      v[i] = 0.999f * v[i] + 0.001f * gradient * gradient;
      const float p = params[i] * (1 - decay) -
                      step_size * m[i] / (std::sqrt(v[i]) + 1e-8f);
      params[i] = std::clamp(p, -limit, limit);
    }
  }
  static Floats Load(const float* p) { return LoadFloats(p); }
  static void Store(float* p, Floats x) { StoreFloats(p, x); }
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
  count += samples.mirrorable_count();
  return count;
}

NetworkTraining TrainPerspectiveNetwork(
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch,
    const NetworkParams* initial) {
  // Samples in memory cannot fail to be read.
  return *TrainPerspectiveNetwork(InMemorySamples(train), settings, on_epoch,
                                  initial);
}

absl::StatusOr<NetworkTraining> TrainPerspectiveNetwork(
    const SampleSource& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch,
    const NetworkParams* initial) {
  std::mt19937_64 rng(settings.seed());
  FloatNetwork net = initial ? WithBuckets(Unrounded(*initial), settings)
                             : RandomPerspective(settings, rng);
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
  std::vector<Gradients> parts(
      threads, Gradients(hidden, InputBuckets(net) * kNetworkInputs,
                         net.output_buckets));
  AdamW input_adam(net.input_weights.size()), bias_adam(hidden),
      output_adam(net.output_weights.size()),
      output_bias_adam(size_t(net.output_buckets));
  const size_t batch = size_t(std::max(1, settings.batch_size()));
  const size_t items_per_epoch =
      train.size() + (settings.mirror_files() ? train.mirrorable() : 0);

  // One batch of `samples`' items order[first, last): gradients and a step.
  int64_t steps = 0;
  auto train_batch = [&](const NetworkSamples& samples,
                         std::vector<size_t>& order, size_t first, size_t last,
                         double progress) {
    // A batch's gradient is a sum, whatever the order of its items: in the
    // order of the samples, positions of one game follow each other and find
    // most of their rows in the cache.
    std::sort(order.begin() + first, order.begin() + last);
    ForEachSlice(last - first, threads,
                 [&](size_t part, size_t begin, size_t end) {
                   Gradients& g = parts[part];
                   g.Clear();
                   for (size_t n = first + begin; n < first + end; ++n)
                     Accumulate(net, samples, order[n], settings.k(), g);
                   if (g.chunk_size > 0) AddChunk(hidden, g);
                 });
    // The parts' gradients summed into part 0's, a slice per thread.
    Gradients& sum = parts[0];
    for (size_t p = 1; p < threads; ++p) {
      for (int b = 0; b < net.output_buckets; ++b)
        sum.output_biases[b] += parts[p].output_biases[b];
      sum.loss += parts[p].loss;
    }
    ++steps;
    const double rate = LearningRateAt(settings, progress);
    const float step_size = float(rate * std::sqrt(1 - std::pow(0.999, steps)) /
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
    std::vector<float> output_bias_gradients(sum.output_biases.begin(),
                                             sum.output_biases.end());
    output_bias_adam.Step(
        0, output_bias_gradients.size(),
        net.output_buckets > 1 ? net.output_biases.data() : &net.output_bias,
        output_bias_gradients.data(), scale, step_size, 0, output_limit);
    return sum.loss;
  };

  NetworkTraining result;
  // One block in memory keeps its order from epoch to epoch; blocks from a
  // spool are read in a shuffled order, the next one while the current one
  // trains, and each block's items shuffled.
  std::vector<size_t> block_order(train.blocks());
  std::iota(block_order.begin(), block_order.end(), size_t{0});
  NetworkSamples scratch[2];
  std::vector<size_t> order;
  if (train.blocks() == 1) {
    absl::StatusOr<const NetworkSamples*> only = train.Block(0, &scratch[0]);
    if (!only.ok()) return only.status();
    order = PerspectiveTrainingItems(**only, settings);
  }
  for (int epoch = 0; epoch < settings.epochs(); ++epoch) {
    if (train.blocks() > 1)
      std::shuffle(block_order.begin(), block_order.end(), rng);
    double epoch_loss = 0;
    size_t items_done = 0;
    std::future<absl::StatusOr<const NetworkSamples*>> next;
    auto load = [&](size_t i) {
      return std::async(std::launch::async,
                        [&train, &block_order, &scratch, i] {
                          return train.Block(block_order[i], &scratch[i % 2]);
                        });
    };
    if (!block_order.empty()) next = load(0);
    for (size_t i = 0; i < block_order.size(); ++i) {
      absl::StatusOr<const NetworkSamples*> block = next.get();
      if (!block.ok()) return block.status();
      // The other scratch is free: the block before this one is done.
      if (i + 1 < block_order.size() && train.blocks() > 1) next = load(i + 1);
      const NetworkSamples& samples = **block;
      if (train.blocks() > 1)
        order = PerspectiveTrainingItems(samples, settings);
      std::shuffle(order.begin(), order.end(), rng);
      for (size_t first = 0; first < order.size(); first += batch) {
        const size_t last = std::min(order.size(), first + batch);
        epoch_loss += train_batch(
            samples, order, first, last,
            epoch + double(items_done + first) /
                        double(std::max<size_t>(1, items_per_epoch)));
      }
      items_done += order.size();
    }
    result.epoch_loss.push_back(items_done ? epoch_loss / items_done : 0);
    if (on_epoch) on_epoch(epoch, Rounded(net, NetworkParams::PERSPECTIVE, q));
  }
  result.params = Rounded(net, NetworkParams::PERSPECTIVE, q);
  return result;
}

}  // namespace chess
