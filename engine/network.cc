#include "engine/network.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

#include "absl/strings/str_cat.h"

namespace chess {
namespace {

// Each weight must fit int16_t, as the engine stores them.
absl::Status CheckRange(const google::protobuf::RepeatedField<int32_t>& values,
                        const char* field) {
  for (int i = 0; i < values.size(); ++i) {
    if (values[i] < std::numeric_limits<int16_t>::min() ||
        values[i] > std::numeric_limits<int16_t>::max()) {
      return absl::InvalidArgumentError(absl::StrCat("eval.network.", field,
                                                     "[", i, "] = ", values[i],
                                                     " does not fit 16 bits"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSize(int size, int expected, const char* field) {
  if (size == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("eval.network.", field, " has ", size,
                   " values; hidden_size asks for ", expected));
}

// A hidden unit's sum is its bias plus the weights of at most 32 pieces: it
// must fit 16 bits however the pieces stand, so that the adds can be 16-bit.
absl::Status CheckSumsFit16Bits(const NetworkParams& params) {
  const int hidden = params.hidden_size();
  std::vector<int> magnitudes(kNetworkInputs);
  for (int j = 0; j < hidden; ++j) {
    for (int input = 0; input < kNetworkInputs; ++input)
      magnitudes[input] = std::abs(params.input_weights(input * hidden + j));
    std::partial_sort(magnitudes.begin(), magnitudes.begin() + kMaxPieces,
                      magnitudes.end(), std::greater<int>());
    int64_t bound = std::abs(int64_t(params.hidden_biases(j)));
    for (int p = 0; p < kMaxPieces; ++p) bound += magnitudes[p];
    if (bound > std::numeric_limits<int16_t>::max()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "eval.network: hidden unit ", j, " can sum to ", bound,
          " with 32 pieces, beyond 16 bits; its weights are too large"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Network> Network::FromProto(const NetworkParams& params) {
  const int hidden = params.hidden_size();
  if (hidden < kNetworkBlock || hidden > kMaxNetworkHidden ||
      hidden % kNetworkBlock != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "eval.network.hidden_size = ", hidden, " is not a multiple of ",
        kNetworkBlock, " in [", kNetworkBlock, ", ", kMaxNetworkHidden, "]"));
  }
  for (const absl::Status& status :
       {CheckSize(params.input_weights_size(), kNetworkInputs * hidden,
                  "input_weights"),
        CheckSize(params.hidden_biases_size(), hidden, "hidden_biases"),
        CheckSize(params.output_weights_size(), hidden, "output_weights"),
        CheckRange(params.input_weights(), "input_weights"),
        CheckRange(params.hidden_biases(), "hidden_biases"),
        CheckRange(params.output_weights(), "output_weights")}) {
    if (!status.ok()) return status;
  }
  if (absl::Status s = CheckSumsFit16Bits(params); !s.ok()) return s;
  Network net;
  net.hidden_ = hidden;
  net.input_weights_.assign(params.input_weights().begin(),
                            params.input_weights().end());
  net.hidden_biases_.assign(params.hidden_biases().begin(),
                            params.hidden_biases().end());
  net.output_weights_.assign(params.output_weights().begin(),
                             params.output_weights().end());
  net.output_bias_ = params.output_bias();
  return net;
}

absl::StatusOr<Network> Network::FromEval(const EvalParams& eval) {
  if (!eval.has_network()) return Network();
  return FromProto(eval.network());
}

int NetworkInputs(const Position& pos, uint16_t* inputs) {
  int count = 0;
  const Color us = pos.side_to_move();
  for (Bitboard b = pos.occupied(); b;) {
    const Square s = PopLowest(b);
    inputs[count++] = uint16_t(NetworkInput(us, pos.piece_on(s), s));
  }
  return count;
}

int Network::Evaluate(const Position& pos) const {
  if (empty()) return 0;
  uint16_t inputs[kMaxPieces];
  return EvaluateInputs(inputs, NetworkInputs(pos, inputs));
}

// Sixteen 16-bit lanes (GCC and Clang vector extension): the compilers did
// not vectorise the plain loop, and this adds a row in two or four
// instructions.
using Lanes = int16_t __attribute__((vector_size(32)));
inline constexpr int kLanes = 16;
static_assert(kNetworkBlock % kLanes == 0);

int Network::EvaluateInputs(const uint16_t* inputs, int count) const {
  if (empty()) return 0;
  int64_t out = output_bias_;
  // A block of hidden units at a time, few enough to stay in registers.
  for (int first = 0; first < hidden_; first += kNetworkBlock) {
    Lanes sums[kNetworkBlock / kLanes];
    std::memcpy(sums, &hidden_biases_[first], sizeof(sums));
    for (int i = 0; i < count; ++i) {
      const int16_t* row = &input_weights_[size_t(inputs[i]) * hidden_ + first];
      for (int v = 0; v < kNetworkBlock / kLanes; ++v) {
        Lanes w;
        std::memcpy(&w, row + v * kLanes, sizeof(w));
        sums[v] += w;
      }
    }
    int16_t units[kNetworkBlock];
    std::memcpy(units, sums, sizeof(units));
    int32_t block = 0;
    for (int j = 0; j < kNetworkBlock; ++j) {
      const int32_t a = std::clamp<int32_t>(units[j], 0, kNetworkActivationOne);
      block += a * a / kNetworkActivationOne * output_weights_[first + j];
    }
    out += block;
  }
  const int64_t cp =
      out * 100 / (int64_t(kNetworkActivationOne) * kNetworkOutputOne);
  return int(std::clamp<int64_t>(cp, -kMaxNetworkCp, kMaxNetworkCp));
}

}  // namespace chess
