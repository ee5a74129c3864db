#include "tuner/network_training.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/network_file.h"

namespace chess {
namespace {

int16_t Round16(double x) {
  return int16_t(std::clamp<double>(std::lround(x),
                                    std::numeric_limits<int16_t>::min(),
                                    std::numeric_limits<int16_t>::max()));
}

// The output in centipawns; `sums` receives the hidden pre-activations.
double Forward(const FloatNetwork& net, const uint16_t* inputs, int count,
               float* sums) {
  std::copy(net.hidden_biases.begin(), net.hidden_biases.end(), sums);
  for (int i = 0; i < count; ++i) {
    const float* w = &net.input_weights[size_t(inputs[i]) * net.hidden];
    for (int j = 0; j < net.hidden; ++j) sums[j] += w[j];
  }
  double out = net.output_bias;
  for (int j = 0; j < net.hidden; ++j) {
    const float a = std::clamp(sums[j], 0.0f, 1.0f);
    out += a * a * net.output_weights[j];
  }
  return kCentipawnsPerOutput * out;
}

// A seeded random network whose output weights are zero: it adds nothing to
// the linear evaluation until it learns.
FloatNetwork RandomNetwork(int hidden, std::mt19937_64& rng) {
  FloatNetwork net;
  net.hidden = hidden;
  std::normal_distribution<float> initial(0.0f, 0.1f);
  net.input_weights.resize(size_t(kNetworkInputs) * hidden);
  for (float& w : net.input_weights) w = initial(rng);
  net.hidden_biases.assign(hidden, 0.5f);  // mid-range: every unit learns
  net.output_weights.assign(hidden, 0.0f);
  return net;
}

// `net` with `hidden` units, its own first and new ones as RandomNetwork's
// (output weights zero): the same evaluation, with room to learn more.
FloatNetwork Widened(FloatNetwork net, int hidden, std::mt19937_64& rng) {
  if (hidden <= net.hidden) return net;
  FloatNetwork wide = RandomNetwork(hidden, rng);
  for (int input = 0; input < kNetworkInputs; ++input) {
    std::copy_n(&net.input_weights[size_t(input) * net.hidden], net.hidden,
                &wide.input_weights[size_t(input) * hidden]);
  }
  std::copy_n(net.hidden_biases.begin(), net.hidden,
              wide.hidden_biases.begin());
  std::copy_n(net.output_weights.begin(), net.hidden,
              wide.output_weights.begin());
  wide.output_bias = net.output_bias;
  return wide;
}

// Adam over one parameter; `step_size` already holds the bias corrections.
struct AdamState {
  std::vector<float> m, v;
  explicit AdamState(size_t n) : m(n), v(n) {}
  void Step(size_t i, float& param, float gradient, double step_size) {
    m[i] = 0.9f * m[i] + 0.1f * gradient;
    v[i] = 0.999f * v[i] + 0.001f * gradient * gradient;
    param -= float(step_size * m[i] / (std::sqrt(v[i]) + 1e-8));
  }
};

}  // namespace

// Centipawns per float output unit (pawns) over centipawns per quantised
// output unit: a float output weight times this times QB is the integer.
double PawnsToOutputs(const Quantisation& q) {
  return kCentipawnsPerOutput / q.output_scale;
}

NetworkParams Rounded(const FloatNetwork& net, NetworkParams::Layout layout,
                      const Quantisation& q) {
  const bool perspective = layout == NetworkParams::PERSPECTIVE;
  const Quantisation& units = perspective ? q : kPawnQuantisation;
  const double output_limit = perspective ? kMaxPerspectiveOutputWeight
                                          : std::numeric_limits<int16_t>::max();
  const double output_one = units.output_one * PawnsToOutputs(units);
  NetworkParams params;
  if (perspective) {
    params.set_layout(layout);
    if (units.activation_one != kPawnQuantisation.activation_one ||
        units.output_one != kPawnQuantisation.output_one ||
        units.output_scale != kPawnQuantisation.output_scale) {
      params.set_activation_one(units.activation_one);
      params.set_output_one(units.output_one);
      params.set_output_scale(units.output_scale);
    }
  }
  params.set_hidden_size(net.hidden);
  for (float w : net.input_weights)
    params.add_input_weights(Round16(w * units.activation_one));
  for (float b : net.hidden_biases)
    params.add_hidden_biases(Round16(b * units.activation_one));
  for (float w : net.output_weights) {
    params.add_output_weights(int(std::clamp<double>(
        Round16(w * output_one), -output_limit, output_limit)));
  }
  auto bias = [&](float b) {
    return int32_t(std::lround(double(b) * units.activation_one * output_one));
  };
  if (net.output_buckets > 1) {
    params.set_output_buckets(net.output_buckets);
    for (float b : net.output_biases) params.add_output_biases(bias(b));
  } else {
    params.set_output_bias(bias(net.output_bias));
  }
  for (int b : net.king_buckets) params.add_king_buckets(b);
  return params;
}

FloatNetwork Unrounded(const NetworkParams& params) {
  const Quantisation q = QuantisationOf(params);
  const double output_one = q.output_one * PawnsToOutputs(q);
  FloatNetwork net;
  net.hidden = params.hidden_size();
  for (int w : params.input_weights())
    net.input_weights.push_back(float(double(w) / q.activation_one));
  for (int b : params.hidden_biases())
    net.hidden_biases.push_back(float(double(b) / q.activation_one));
  for (int w : params.output_weights())
    net.output_weights.push_back(float(w / output_one));
  net.output_bias =
      float(double(params.output_bias()) / (q.activation_one * output_one));
  net.output_buckets = params.output_buckets();
  for (int b : params.output_biases())
    net.output_biases.push_back(float(b / (q.activation_one * output_one)));
  net.king_buckets.assign(params.king_buckets().begin(),
                          params.king_buckets().end());
  return net;
}

int InputBuckets(const FloatNetwork& net) {
  return KingBucketCount(net.king_buckets);
}

float MaxPerspectiveOutputWeight(const Quantisation& q) {
  // Half a unit below the limit's rounding edge.
  return float((kMaxPerspectiveOutputWeight + 0.49) /
               (q.output_one * PawnsToOutputs(q)));
}

void NetworkSamples::Add(const Position& pos, int linear_cp, float target) {
  uint16_t inputs[kMaxPieces];
  inputs_.insert(inputs_.end(), inputs, inputs + NetworkInputs(pos, inputs));
  offsets_.push_back(uint32_t(inputs_.size()));
  linear_.push_back(linear_cp);
  target_.push_back(target);
  mirrorable_.push_back(pos.castling_rights() == 0);
}

void NetworkSamples::Add(const Position& pos, const Evaluator* linear,
                         const TrainingPosition& position, double result_weight,
                         double k) {
  const double white =
      position.has_score_cp()
          ? BlendedTarget(position.result(), position.score_cp(), result_weight,
                          k)
          : position.result();
  const bool white_to_move = pos.side_to_move() == kWhite;
  Add(pos, linear ? linear->Evaluate(pos) : 0,
      float(white_to_move ? white : 1 - white));
}

std::vector<std::string> NetworkProvenance(
    const std::vector<DatasetProvenance>& datasets,
    const NetworkSettings& settings, const std::string& start_path,
    const NetworkParams* start) {
  // Data sets by what made them (a command and its seed), not by the paths
  // of the machine that held them; a file that names no source by its name.
  auto file_name = [](const std::string& path) {
    return std::filesystem::path(path).filename().string();
  };
  std::vector<std::string> lines;
  for (const DatasetProvenance& d : datasets) {
    if (d.sources.empty()) {
      lines.push_back(
          absl::StrCat("data: ", file_name(d.path), " (it names no source)"));
    }
    for (const std::string& source : d.sources)
      lines.push_back(absl::StrCat("data: ", source));
  }
  lines.push_back(absl::StrFormat(
      "settings: %s, hidden %d, %d epochs, learning rate %g, batch %d, seed "
      "%d, k %g, result weight %g",
      settings.layout() == NetworkParams::PERSPECTIVE ? "perspective"
                                                      : "side to move",
      settings.hidden_size(), settings.epochs(), settings.learning_rate(),
      settings.batch_size(), settings.seed(), settings.k(),
      settings.result_weight()));
  if (settings.schedule() == NetworkSettings::COSINE) {
    lines.back() +=
        absl::StrFormat(" (cosine down to %g)", settings.final_learning_rate());
  }
  if (settings.weight_decay() > 0) {
    lines.back() +=
        absl::StrFormat(", weight decay %g", settings.weight_decay());
  }
  if (settings.mirror_files()) lines.back() += ", files mirrored too";
  if (settings.king_buckets_size() > 0 || settings.output_buckets() > 1) {
    lines.back() +=
        absl::StrCat(", ", DescribeShape({{settings.king_buckets().begin(),
                                           settings.king_buckets().end()},
                                          settings.output_buckets()}));
  }
  if (settings.whole_evaluation()) lines.back() += ", the whole evaluation";
  if (start == nullptr) {
    lines.push_back(absl::StrCat(
        "start: random weights (seed ", settings.seed(), ")",
        settings.whole_evaluation()
            ? ""
            : absl::StrCat(" on top of ", start_path, "'s linear evaluation")));
    return lines;
  }
  lines.push_back(
      absl::StrCat("start: the network of ", file_name(start_path)));
  if (start->provenance().empty())
    lines.push_back("  (it records no provenance)");
  for (const std::string& line : start->provenance())
    lines.push_back(absl::StrCat("  ", line));
  return lines;
}

absl::Status ValidateNetworkSettings(const NetworkSettings& s) {
  auto invalid = [](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat("settings: ", parts...));
  };
  if (s.hidden_size() < kNetworkBlock || s.hidden_size() > kMaxNetworkHidden ||
      s.hidden_size() % kNetworkBlock != 0) {
    return invalid("hidden_size = ", s.hidden_size(), " is not a multiple of ",
                   kNetworkBlock, " in [", kNetworkBlock, ", ",
                   kMaxNetworkHidden, "]");
  }
  if (s.epochs() < 0) return invalid("epochs = ", s.epochs(), " is negative");
  if (s.batch_size() < 1)
    return invalid("batch_size = ", s.batch_size(), " is below 1");
  if (!(s.learning_rate() > 0) || !std::isfinite(s.learning_rate()))
    return invalid("learning_rate = ", s.learning_rate(), " is not positive");
  if (!(s.k() > 0) || !std::isfinite(s.k()))
    return invalid("k = ", s.k(), " is not positive");
  if (!(s.result_weight() >= 0 && s.result_weight() <= 1))
    return invalid("result_weight = ", s.result_weight(), " is not in [0, 1]");
  if (!(s.weight_decay() >= 0 && s.weight_decay() < 1))
    return invalid("weight_decay = ", s.weight_decay(), " is not in [0, 1)");
  if (!(s.final_learning_rate() >= 0 &&
        s.final_learning_rate() <= s.learning_rate())) {
    return invalid("final_learning_rate = ", s.final_learning_rate(),
                   " is not in [0, learning_rate]");
  }
  if (s.weight_decay() > 0 && s.layout() != NetworkParams::PERSPECTIVE)
    return invalid("weight_decay needs layout PERSPECTIVE (AdamW)");
  if (s.mirror_files() &&
      (s.layout() != NetworkParams::PERSPECTIVE || !s.whole_evaluation())) {
    return invalid(
        "mirror_files needs layout PERSPECTIVE and whole_evaluation");
  }
  if (s.threads() < 0 || s.threads() > 256)
    return invalid("threads = ", s.threads(), " is not in [0, 256]");
  if (s.stream_block_positions() < 0)
    return invalid("stream_block_positions = ", s.stream_block_positions(),
                   " is negative");
  if (s.stream_block_positions() > 0 &&
      s.layout() != NetworkParams::PERSPECTIVE)
    return invalid("stream_block_positions needs layout PERSPECTIVE");
  if (s.king_buckets_size() > 0 || s.output_buckets() != 1) {
    if (s.layout() != NetworkParams::PERSPECTIVE)
      return invalid("king_buckets and output_buckets need layout PERSPECTIVE");
    // The engine's own checks of the layout and the count, on a network of
    // zeros of this shape.
    NetworkParams shape;
    shape.set_layout(NetworkParams::PERSPECTIVE);
    shape.set_hidden_size(kNetworkBlock);
    *shape.mutable_king_buckets() = s.king_buckets();
    shape.set_output_buckets(s.output_buckets());
    int rows = 1;
    for (int b : s.king_buckets())
      rows = std::clamp(b + 1, rows, kMaxKingBuckets);
    shape.mutable_input_weights()->Resize(rows * kNetworkInputs * kNetworkBlock,
                                          0);
    shape.mutable_hidden_biases()->Resize(kNetworkBlock, 0);
    const int outputs = std::clamp(s.output_buckets(), 1, kMaxOutputBuckets);
    shape.mutable_output_weights()->Resize(2 * outputs * kNetworkBlock, 0);
    if (outputs > 1) shape.mutable_output_biases()->Resize(outputs, 0);
    if (absl::Status st = Network::FromProto(shape).status(); !st.ok()) {
      std::string message(st.message());
      absl::StrReplaceAll({{"eval.network.", ""}}, &message);
      return invalid(message);
    }
  }
  const struct {
    const char* field;
    int value, default_value, max;
  } constants[] = {{"activation_one", s.activation_one(),
                    kPawnQuantisation.activation_one, kNetworkActivationOne},
                   {"output_one", s.output_one(), kPawnQuantisation.output_one,
                    kMaxOutputOne},
                   {"output_scale", s.output_scale(),
                    kPawnQuantisation.output_scale, kMaxOutputScale}};
  for (const auto& c : constants) {
    if (c.value < 1 || c.value > c.max)
      return invalid(c.field, " = ", c.value, " is not in [1, ", c.max, "]");
    if (c.value != c.default_value && s.layout() != NetworkParams::PERSPECTIVE)
      return invalid(c.field, " needs layout PERSPECTIVE");
  }
  return absl::OkStatus();
}

double LearningRateAt(const NetworkSettings& settings, double progress) {
  const double epochs = std::max(1, settings.epochs());
  if (settings.schedule() == NetworkSettings::COSINE) {
    const double done = std::clamp(progress / epochs, 0.0, 1.0);
    return settings.final_learning_rate() +
           (settings.learning_rate() - settings.final_learning_rate()) *
               (1 + std::cos(M_PI * done)) / 2;
  }
  return settings.learning_rate() *
         (int(progress) >= settings.epochs() * 3 / 4 ? 0.1 : 1.0);
}

void NetworkSamples::AppendBytes(std::string* out) const {
  // Per sample: the input count, the inputs, the linear score, the target,
  // mirrorable; native byte order (a spool is read by the process that wrote
  // it).
  for (size_t i = 0; i < size(); ++i) {
    const uint8_t count = uint8_t(input_count(i));
    out->push_back(char(count));
    out->append(reinterpret_cast<const char*>(inputs(i)),
                sizeof(uint16_t) * count);
    const int32_t linear = linear_[i];
    const float target = target_[i];
    out->append(reinterpret_cast<const char*>(&linear), sizeof(linear));
    out->append(reinterpret_cast<const char*>(&target), sizeof(target));
    out->push_back(char(mirrorable_[i]));
  }
}

absl::Status NetworkSamples::AddBytes(absl::string_view bytes) {
  while (!bytes.empty()) {
    const size_t count = uint8_t(bytes[0]);
    const size_t record = 1 + 2 * count + 4 + 4 + 1;
    // Both kings at least, 32 pieces at most.
    if (count < 2 || count > size_t(kMaxPieces) || bytes.size() < record)
      return absl::DataLossError("a spooled sample is cut short or damaged");
    const char* p = bytes.data() + 1;
    const size_t first = inputs_.size();
    inputs_.resize(first + count);
    std::memcpy(inputs_.data() + first, p, 2 * count);
    p += 2 * count;
    for (size_t c = first; c < inputs_.size(); ++c) {
      if (inputs_[c] >= kNetworkInputs) {
        inputs_.resize(first);
        return absl::DataLossError("a spooled sample has an input beyond 767");
      }
    }
    offsets_.push_back(uint32_t(inputs_.size()));
    int32_t linear;
    float target;
    std::memcpy(&linear, p, 4);
    std::memcpy(&target, p + 4, 4);
    linear_.push_back(linear);
    target_.push_back(target);
    mirrorable_.push_back(p[8] != 0);
    bytes.remove_prefix(record);
  }
  return absl::OkStatus();
}

InMemorySamples::InMemorySamples(const NetworkSamples& samples)
    : samples_(samples), mirrorable_(samples.mirrorable_count()) {}

absl::StatusOr<std::unique_ptr<SampleSpool>> SampleSpool::Create(
    const std::string& dir) {
  std::string where = dir;
  if (where.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    where = tmp && *tmp ? tmp : "/tmp";
  }
  // O_TMPFILE: no name, so nothing is left behind however the run ends.
  const int fd = ::open(where.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::Status(
        absl::StatusCode::kInternal,
        absl::StrCat(where, ": cannot make a spool for the training samples: ",
                     std::strerror(errno)));
  }
  return std::unique_ptr<SampleSpool>(new SampleSpool(fd, where));
}

SampleSpool::~SampleSpool() { ::close(fd_); }

absl::Status SampleSpool::Add(const NetworkSamples& block) {
  if (block.size() == 0) return absl::OkStatus();
  std::string bytes;
  block.AppendBytes(&bytes);
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                               off_t(end_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::Status(
          absl::StatusCode::kInternal,
          absl::StrCat(dir_, ": cannot spool samples: ", std::strerror(errno)));
    }
    done += size_t(n);
  }
  blocks_.push_back({end_, bytes.size()});
  end_ += bytes.size();
  size_ += block.size();
  mirrorable_ += block.mirrorable_count();
  return absl::OkStatus();
}

absl::StatusOr<const NetworkSamples*> SampleSpool::Block(
    size_t b, NetworkSamples* scratch) const {
  const Extent& extent = blocks_[b];
  std::string bytes(extent.bytes, '\0');
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, bytes.size() - done,
                              off_t(extent.offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::DataLossError(absl::StrCat(
          dir_, ": cannot read spooled samples back: ", std::strerror(errno)));
    }
    done += size_t(n);
  }
  scratch->Clear();
  if (absl::Status s = scratch->AddBytes(bytes); !s.ok()) return s;
  return scratch;
}

absl::StatusOr<double> SourceLoss(const SampleSource& source,
                                  const Network& network, double k) {
  double sum = 0;
  NetworkSamples scratch;
  for (size_t b = 0; b < source.blocks(); ++b) {
    absl::StatusOr<const NetworkSamples*> block = source.Block(b, &scratch);
    if (!block.ok()) return block.status();
    sum += NetworkLoss(**block, network, k) * double((*block)->size());
  }
  return source.size() ? sum / double(source.size()) : 0;
}

double NetworkLoss(const NetworkSamples& samples, const Network& network,
                   double k) {
  double sum = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const int cp =
        samples.linear(i) +
        network.EvaluateInputs(samples.inputs(i), samples.input_count(i));
    const double error = ExpectedScore(k, cp) - samples.target(i);
    sum += error * error;
  }
  return samples.size() ? sum / samples.size() : 0;
}

NetworkTraining TrainNetwork(
    const NetworkSamples& train, const NetworkSettings& settings,
    const std::function<void(int, const NetworkParams&)>& on_epoch,
    const NetworkParams* initial) {
  std::mt19937_64 rng(settings.seed());
  const int wanted = std::clamp(settings.hidden_size(), 1, kMaxNetworkHidden);
  FloatNetwork net = initial ? Widened(Unrounded(*initial), wanted, rng)
                             : RandomNetwork(wanted, rng);
  const int hidden = net.hidden;

  AdamState input_adam(net.input_weights.size()), bias_adam(hidden),
      output_adam(hidden), output_bias_adam(1);
  std::vector<float> input_gradient(net.input_weights.size());
  std::vector<char> touched(kNetworkInputs);
  std::vector<uint16_t> touched_inputs;
  std::vector<float> bias_gradient(hidden), output_gradient(hidden),
      sums(hidden), unit_gradient(hidden);
  std::vector<size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);

  const size_t batch = size_t(std::max(1, settings.batch_size()));
  // d sigma(k q) / dq = sigma (1 - sigma) * slope
  const double slope = settings.k() * kLn10Over400;
  NetworkTraining result;
  int64_t steps = 0;
  for (int epoch = 0; epoch < settings.epochs(); ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    double epoch_loss = 0;
    for (size_t first = 0; first < order.size(); first += batch) {
      const double rate =
          LearningRateAt(settings, epoch + double(first) / order.size());
      const size_t last = std::min(order.size(), first + batch);
      std::fill(bias_gradient.begin(), bias_gradient.end(), 0.0f);
      std::fill(output_gradient.begin(), output_gradient.end(), 0.0f);
      double output_bias_gradient = 0;
      for (size_t n = first; n < last; ++n) {
        const size_t i = order[n];
        const uint16_t* inputs = train.inputs(i);
        const int count = train.input_count(i);
        const double out = Forward(net, inputs, count, sums.data());
        const double s = ExpectedScore(settings.k(), train.linear(i) + out);
        const double error = s - train.target(i);
        epoch_loss += error * error;
        // d(error^2)/d(output in pawns)
        const float g =
            float(2 * error * s * (1 - s) * slope * kCentipawnsPerOutput);
        output_bias_gradient += g;
        for (int j = 0; j < hidden; ++j) {
          const float a = std::clamp(sums[j], 0.0f, 1.0f);
          output_gradient[j] += g * a * a;
          unit_gradient[j] = sums[j] > 0 && sums[j] < 1
                                 ? g * net.output_weights[j] * 2 * a
                                 : 0.0f;
          bias_gradient[j] += unit_gradient[j];
        }
        for (int c = 0; c < count; ++c) {
          const uint16_t input = inputs[c];
          float* row = &input_gradient[size_t(input) * hidden];
          if (!touched[input]) {
            touched[input] = 1;
            touched_inputs.push_back(input);
            std::fill(row, row + hidden, 0.0f);
          }
          for (int j = 0; j < hidden; ++j) row[j] += unit_gradient[j];
        }
      }
      ++steps;
      const double step_size = rate * std::sqrt(1 - std::pow(0.999, steps)) /
                               (1 - std::pow(0.9, steps));
      const float scale = 1.0f / float(last - first);
      // Rows of inputs absent from the batch keep their moments (lazy Adam):
      // a rare piece-square is not pushed by gradients it never had.
      for (uint16_t input : touched_inputs) {
        touched[input] = 0;
        const size_t row = size_t(input) * hidden;
        for (int j = 0; j < hidden; ++j) {
          input_adam.Step(row + j, net.input_weights[row + j],
                          input_gradient[row + j] * scale, step_size);
        }
      }
      touched_inputs.clear();
      for (int j = 0; j < hidden; ++j) {
        bias_adam.Step(j, net.hidden_biases[j], bias_gradient[j] * scale,
                       step_size);
        output_adam.Step(j, net.output_weights[j], output_gradient[j] * scale,
                         step_size);
      }
      output_bias_adam.Step(0, net.output_bias,
                            float(output_bias_gradient) * scale, step_size);
    }
    result.epoch_loss.push_back(train.size() ? epoch_loss / train.size() : 0);
    if (on_epoch) on_epoch(epoch, Rounded(net, NetworkParams::SIDE_TO_MOVE));
  }
  result.params = Rounded(net, NetworkParams::SIDE_TO_MOVE);
  return result;
}

}  // namespace chess
