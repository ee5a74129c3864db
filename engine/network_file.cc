#include "engine/network_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/network.h"

namespace chess {
namespace {

constexpr size_t kAlignment = 64;

int InputBuckets(const NetworkShape& shape) {
  return KingBucketCount(shape.king_buckets);
}

// The bytes of an N-unit network before its padding.
size_t UnpaddedBytes(size_t hidden, const NetworkShape& shape) {
  const size_t outputs = size_t(shape.output_buckets);
  return 2 * (size_t(InputBuckets(shape)) * kNetworkInputs * hidden + hidden +
              outputs * 2 * hidden + outputs);
}
size_t PaddedBytes(size_t hidden, const NetworkShape& shape) {
  return (UnpaddedBytes(hidden, shape) + kAlignment - 1) / kAlignment *
         kAlignment;
}

int16_t ReadI16(const unsigned char* p) {
  return int16_t(uint16_t(p[0]) | uint16_t(p[1]) << 8);
}

void AppendI16(int value, std::string* out) {
  const auto bits = uint16_t(int16_t(value));
  out->push_back(char(bits & 0xff));
  out->push_back(char(bits >> 8));
}

absl::Status CheckQuantisation(const Quantisation& q) {
  if (q.activation_one < 1 || q.activation_one > kMaxActivationOne ||
      q.output_one < 1 || q.output_one > kMaxOutputOne || q.output_scale < 1 ||
      q.output_scale > kMaxOutputScale) {
    return absl::InvalidArgumentError(absl::StrCat(
        "quantisation QA ", q.activation_one, ", QB ", q.output_one, ", scale ",
        q.output_scale, ": each must be 1 to ", kMaxActivationOne,
        " (the scale to ", kMaxOutputScale, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

NetworkShape ShapeOf(const NetworkParams& params) {
  return {{params.king_buckets().begin(), params.king_buckets().end()},
          params.output_buckets()};
}

std::string DescribeShape(const NetworkShape& shape) {
  if (shape.king_buckets.empty() && shape.output_buckets == 1)
    return "no buckets";
  // Without a king bucket layout the engine mirrors nothing.
  return absl::StrCat(
      shape.king_buckets.empty()
          ? "no king buckets"
          : absl::StrCat(InputBuckets(shape), " king buckets (mirrored)"),
      ", ", shape.output_buckets, " output buckets");
}

absl::StatusOr<std::vector<int>> ParseKingBuckets(absl::string_view text) {
  std::vector<int> layout;
  for (absl::string_view word :
       absl::StrSplit(text, absl::ByAnyChar(", \t\n"), absl::SkipEmpty())) {
    int b;
    if (!absl::SimpleAtoi(word, &b)) {
      return absl::InvalidArgumentError(
          absl::StrCat("king buckets: \"", word, "\" is not a number"));
    }
    layout.push_back(b);
  }
  if (!layout.empty() && layout.size() != 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        "king buckets: ", layout.size(), " numbers, not 64 (a1 first)"));
  }
  return layout;
}

absl::StatusOr<NetworkParams> ParseBulletNetwork(absl::string_view bytes,
                                                 const Quantisation& q,
                                                 absl::string_view name,
                                                 const NetworkShape& shape) {
  if (absl::Status s = CheckQuantisation(q); !s.ok()) return s;
  if (shape.output_buckets < 1 || shape.output_buckets > kMaxOutputBuckets) {
    return absl::InvalidArgumentError(
        absl::StrCat("output buckets: ", shape.output_buckets,
                     " is not in [1, ", kMaxOutputBuckets, "]"));
  }
  int hidden = 0;
  for (int n = kNetworkBlock; n <= kMaxNetworkHidden; n += kNetworkBlock) {
    if (PaddedBytes(n, shape) == bytes.size()) hidden = n;
  }
  if (hidden == 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %d bytes is no (768 -> N) x 2 -> 1 network of bullet's "
        "quantised format with %s and N a multiple of %d up to %d (N = 256 "
        "is %d bytes); a truncated file, or another architecture?",
        name, bytes.size(), DescribeShape(shape), kNetworkBlock,
        kMaxNetworkHidden, PaddedBytes(256, shape)));
  }
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  for (size_t at = UnpaddedBytes(hidden, shape); at < bytes.size(); ++at) {
    if (p[at] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": byte ", at,
                       " of the padding after the output bias is not 0; "
                       "not a network of this architecture"));
    }
  }
  NetworkParams params;
  params.set_layout(NetworkParams::PERSPECTIVE);
  params.set_whole_evaluation(true);
  params.set_hidden_size(hidden);
  params.set_activation_one(q.activation_one);
  params.set_output_one(q.output_one);
  params.set_output_scale(q.output_scale);
  for (int b : shape.king_buckets) params.add_king_buckets(b);
  if (shape.output_buckets > 1) params.set_output_buckets(shape.output_buckets);
  auto next = [&p]() {
    const int16_t v = ReadI16(p);
    p += 2;
    return v;
  };
  for (int i = 0; i < InputBuckets(shape) * kNetworkInputs * hidden; ++i)
    params.add_input_weights(next());
  for (int j = 0; j < hidden; ++j) params.add_hidden_biases(next());
  for (int j = 0; j < shape.output_buckets * 2 * hidden; ++j)
    params.add_output_weights(next());
  if (shape.output_buckets > 1) {
    for (int b = 0; b < shape.output_buckets; ++b)
      params.add_output_biases(next());
  } else {
    params.set_output_bias(next());
  }
  // What the engine checks: sums that could overflow 16 bits.
  if (absl::StatusOr<Network> net = Network::FromProto(params); !net.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", net.status().message()));
  return params;
}

absl::StatusOr<NetworkParams> ReadBulletNetwork(const std::string& path,
                                                const Quantisation& q,
                                                const NetworkShape& shape) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open the network file"));
  }
  std::string bytes;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    bytes.append(buffer, size_t(in.gcount()));
    if (bytes.size() > kMaxNetworkFileBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": larger than ", kMaxNetworkFileBytes,
                       " bytes; not a network file"));
    }
  }
  if (in.bad()) {
    return absl::DataLossError(
        absl::StrCat(path, ": cannot read the network file"));
  }
  return ParseBulletNetwork(bytes, q, path, shape);
}

absl::StatusOr<BulletExport> SerializeBulletNetwork(const NetworkParams& params,
                                                    const Quantisation& q) {
  if (absl::Status s = CheckQuantisation(q); !s.ok()) return s;
  if (params.layout() != NetworkParams::PERSPECTIVE) {
    return absl::InvalidArgumentError(
        "only a PERSPECTIVE network ((768 -> N) x 2 -> 1) has bullet's "
        "format; this one is SIDE_TO_MOVE");
  }
  if (absl::StatusOr<Network> net = Network::FromProto(params); !net.ok())
    return net.status();
  if (q.activation_one != params.activation_one()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--qa=", q.activation_one,
        ": the network's activations are in units "
        "of ",
        params.activation_one(), "; its input layer is written as it is"));
  }
  BulletExport out;
  // cp = out * scale / (QA * QB): the same centipawns from another QB and
  // scale need the output layer multiplied by this.
  out.output_factor = (double(params.output_scale()) / params.output_one()) /
                      (double(q.output_scale) / q.output_one);
  auto rescaled = [&](int64_t value, const char* field) -> absl::StatusOr<int> {
    const double exact = double(value) * out.output_factor;
    const double rounded = std::round(exact);
    if (rounded != exact) out.exact = false;
    if (rounded < std::numeric_limits<int16_t>::min() ||
        rounded > std::numeric_limits<int16_t>::max()) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " ", value, " becomes ", rounded,
          " in this quantisation, beyond 16 bits; choose a smaller --qb or a "
          "larger --scale"));
    }
    return int(rounded);
  };
  const NetworkShape shape = ShapeOf(params);
  out.bytes.reserve(PaddedBytes(params.hidden_size(), shape));
  for (int w : params.input_weights()) AppendI16(w, &out.bytes);
  for (int b : params.hidden_biases()) AppendI16(b, &out.bytes);
  for (int w : params.output_weights()) {
    absl::StatusOr<int> v = rescaled(w, "an output weight");
    if (!v.ok()) return v.status();
    AppendI16(*v, &out.bytes);
  }
  std::vector<int64_t> biases(params.output_biases().begin(),
                              params.output_biases().end());
  if (params.output_buckets() == 1) biases = {params.output_bias()};
  for (int64_t b : biases) {
    absl::StatusOr<int> bias = rescaled(b, "an output bias");
    if (!bias.ok()) return bias.status();
    AppendI16(*bias, &out.bytes);
  }
  out.bytes.resize(PaddedBytes(params.hidden_size(), shape), '\0');
  return out;
}

}  // namespace chess
