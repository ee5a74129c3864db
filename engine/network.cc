#include "engine/network.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

#include "absl/strings/str_cat.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

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
  const int rows = params.input_weights_size() / std::max(1, hidden);
  std::vector<int> magnitudes(rows);
  for (int j = 0; j < hidden; ++j) {
    for (int input = 0; input < rows; ++input)
      magnitudes[input] =
          std::abs(params.input_weights(size_t(input) * hidden + j));
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

// QA, QB and the scale: only a PERSPECTIVE network may have its own.
absl::Status CheckQuantisation(const NetworkParams& params, bool perspective) {
  const struct {
    const char* field;
    int value, default_value, max;
  } constants[] = {
      {"activation_one", params.activation_one(), kNetworkActivationOne,
       kMaxActivationOne},
      {"output_one", params.output_one(), kNetworkOutputOne, kMaxOutputOne},
      {"output_scale", params.output_scale(), 100, kMaxOutputScale}};
  for (const auto& c : constants) {
    if (!perspective && c.value != c.default_value) {
      return absl::InvalidArgumentError(
          absl::StrCat("eval.network.", c.field, " = ", c.value,
                       ": only a PERSPECTIVE network has its own (the "
                       "SIDE_TO_MOVE layout's is ",
                       c.default_value, ")"));
    }
    if (c.value < 1 || c.value > c.max) {
      return absl::InvalidArgumentError(
          absl::StrCat("eval.network.", c.field, " = ", c.value,
                       " is not in [1, ", c.max, "]"));
    }
  }
  return absl::OkStatus();
}

// king_buckets and output_buckets: PERSPECTIVE only, a layout of 64 values
// the same on files a-d and h-e, buckets within the limits.
absl::Status CheckBuckets(const NetworkParams& params, bool perspective) {
  const bool buckets =
      params.king_buckets_size() > 0 || params.output_buckets() != 1;
  if (buckets && !perspective) {
    return absl::InvalidArgumentError(
        "eval.network: king_buckets and output_buckets need layout "
        "PERSPECTIVE");
  }
  if (params.output_buckets() < 1 ||
      params.output_buckets() > kMaxOutputBuckets) {
    return absl::InvalidArgumentError(
        absl::StrCat("eval.network.output_buckets = ", params.output_buckets(),
                     " is not in [1, ", kMaxOutputBuckets, "]"));
  }
  if (params.king_buckets_size() == 0) return absl::OkStatus();
  if (params.king_buckets_size() != 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("eval.network.king_buckets has ",
                     params.king_buckets_size(), " values, not 64"));
  }
  for (int s = 0; s < 64; ++s) {
    const int b = params.king_buckets(s);
    if (b < 0 || b >= kMaxKingBuckets) {
      return absl::InvalidArgumentError(
          absl::StrCat("eval.network.king_buckets[", s, "] = ", b,
                       " is not in [0, ", kMaxKingBuckets - 1, "]"));
    }
    if (b != params.king_buckets(s ^ 7)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "eval.network.king_buckets[", s, "] = ", b, " but [", s ^ 7,
          "] = ", params.king_buckets(s ^ 7),
          ": files e-h are mirrored onto a-d, so they must match"));
    }
  }
  return absl::OkStatus();
}

int InputBuckets(const NetworkParams& params) {
  return KingBucketCount(absl::MakeConstSpan(params.king_buckets().data(),
                                             params.king_buckets_size()));
}

bool FitsNarrowProducts(const NetworkParams& params) {
  if (params.activation_one() > kNetworkActivationOne) return false;
  for (int w : params.output_weights()) {
    if (std::abs(w) > kMaxPerspectiveOutputWeight) return false;
  }
  return true;
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
  const bool perspective = params.layout() == NetworkParams::PERSPECTIVE;
  if (absl::Status s = CheckBuckets(params, perspective); !s.ok()) return s;
  const int output_buckets = params.output_buckets();
  for (const absl::Status& status :
       {CheckSize(params.input_weights_size(),
                  InputBuckets(params) * kNetworkInputs * hidden,
                  "input_weights"),
        CheckSize(params.hidden_biases_size(), hidden, "hidden_biases"),
        CheckSize(params.output_weights_size(),
                  (perspective ? 2 * output_buckets : 1) * hidden,
                  "output_weights"),
        CheckSize(params.output_biases_size(),
                  output_buckets > 1 ? output_buckets : 0, "output_biases"),
        CheckRange(params.input_weights(), "input_weights"),
        CheckRange(params.hidden_biases(), "hidden_biases"),
        CheckRange(params.output_weights(), "output_weights"),
        CheckQuantisation(params, perspective)}) {
    if (!status.ok()) return status;
  }
  if (absl::Status s = CheckSumsFit16Bits(params); !s.ok()) return s;
  Network net;
  net.hidden_ = hidden;
  net.perspective_ = perspective;
  net.whole_evaluation_ = params.whole_evaluation();
  net.input_weights_.assign(params.input_weights().begin(),
                            params.input_weights().end());
  net.hidden_biases_.assign(params.hidden_biases().begin(),
                            params.hidden_biases().end());
  if (perspective) {
    net.perspective_weights_.assign(params.output_weights().begin(),
                                    params.output_weights().end());
  } else {
    net.output_weights_.assign(params.output_weights().begin(),
                               params.output_weights().end());
  }
  net.output_bias_ = params.output_bias();
  net.output_buckets_ = params.output_buckets();
  if (net.output_buckets_ > 1) {
    net.output_biases_.assign(params.output_biases().begin(),
                              params.output_biases().end());
  } else {
    net.output_biases_ = {net.output_bias_};
  }
  net.input_buckets_ = InputBuckets(params);
  net.mirrored_ = params.king_buckets_size() > 0;
  for (int s = 0; s < params.king_buckets_size(); ++s)
    net.king_bucket_[s] = params.king_buckets(s);
  net.activation_one_ = params.activation_one();
  net.output_one_ = params.output_one();
  net.output_scale_ = params.output_scale();
  net.narrow_products_ = FitsNarrowProducts(params);
  return net;
}

Quantisation QuantisationOf(const NetworkParams& params) {
  return {params.activation_one(), params.output_one(), params.output_scale()};
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
// instructions (one with AVX2).
using Lanes = int16_t __attribute__((vector_size(32)));
inline constexpr int kLanes = 16;
static_assert(kNetworkBlock % kLanes == 0);

namespace {

int64_t Clipped(int64_t out) {
  const int64_t cp =
      out * 100 / (int64_t(kNetworkActivationOne) * kNetworkOutputOne);
  return std::clamp<int64_t>(cp, -kMaxNetworkCp, kMaxNetworkCp);
}

}  // namespace

int64_t WideSquaredActivationDot(const int16_t* sums, const int16_t* weights,
                                 int count, int activation_one) {
  int64_t sum = 0;
  for (int j = 0; j < count; ++j) {
    const int64_t v = std::clamp<int64_t>(sums[j], 0, activation_one);
    sum += v * v * weights[j];
  }
  return sum;
}

int64_t SquaredActivationDotPortable(const int16_t* sums,
                                     const int16_t* weights, int count,
                                     int one) {
  int64_t sum = 0;
  for (int j = 0; j < count; ++j) {
    const int32_t v = std::clamp<int32_t>(sums[j], 0, one);
    sum += v * weights[j] * v;
  }
  return sum;
}

// Each product fits 32 bits and, with weights within +-127, a lane's total
// over 1024 units too, so the AVX2 path (16-bit products, pairs summed into
// 32-bit lanes) and the portable one agree exactly.
int64_t SquaredActivationDot(const int16_t* sums, const int16_t* weights,
                             int count, int one_value) {
#ifdef __AVX2__
  const __m256i zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi16(int16_t(one_value));
  __m256i total = zero;
  for (int j = 0; j < count; j += kLanes) {
    const __m256i v = _mm256_min_epi16(
        _mm256_max_epi16(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums + j)),
            zero),
        one);
    const __m256i w =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weights + j));
    total =
        _mm256_add_epi32(total, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
  }
  alignas(32) int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), total);
  int64_t sum = 0;
  for (int32_t lane : lanes) sum += lane;
  return sum;
#else
  return SquaredActivationDotPortable(sums, weights, count, one_value);
#endif
}

void AddRowsPortable(const int16_t* base, const int16_t* const* added,
                     int added_count, const int16_t* const* removed,
                     int removed_count, int hidden, int16_t* out) {
  // Unsigned adds wrap as the 16-bit vector adds do.
  for (int j = 0; j < hidden; ++j) {
    uint16_t sum = uint16_t(base[j]);
    for (int r = 0; r < added_count; ++r) sum += uint16_t(added[r][j]);
    for (int r = 0; r < removed_count; ++r) sum -= uint16_t(removed[r][j]);
    out[j] = int16_t(sum);
  }
}

void AddRows(const int16_t* base, const int16_t* const* added, int added_count,
             const int16_t* const* removed, int removed_count, int hidden,
             int16_t* out) {
#ifdef __AVX2__
  // Two registers of sums at a time, kept in registers over all the rows.
  for (int j = 0; j < hidden; j += 2 * kLanes) {
    auto load = [j](const int16_t* p, int half) {
      return _mm256_loadu_si256(
          reinterpret_cast<const __m256i*>(p + j + half * kLanes));
    };
    __m256i low = load(base, 0), high = load(base, 1);
    for (int r = 0; r < added_count; ++r) {
      low = _mm256_add_epi16(low, load(added[r], 0));
      high = _mm256_add_epi16(high, load(added[r], 1));
    }
    for (int r = 0; r < removed_count; ++r) {
      low = _mm256_sub_epi16(low, load(removed[r], 0));
      high = _mm256_sub_epi16(high, load(removed[r], 1));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), low);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j + kLanes), high);
  }
#else
  AddRowsPortable(base, added, added_count, removed, removed_count, hidden,
                  out);
#endif
}

InputView Network::ViewOf(int king) const {
  return KingView(
      mirrored_ ? absl::MakeConstSpan(king_bucket_) : absl::Span<const int>(),
      king);
}

// bullet's formula: (products / QA + bias) * scale / (QA * QB), each division
// truncating, as bullet's reference inference in 32 bits (which these 64 bits
// agree with wherever that does not overflow).

int Network::PerspectiveOutput(const int16_t* us, const int16_t* them,
                               int pieces) const {
  const int bucket = OutputBucket(pieces, output_buckets_);
  const int16_t* weights =
      perspective_weights_.data() + 2 * size_t(bucket) * hidden_;
  const int64_t products =
      narrow_products_
          ? SquaredActivationDot(us, weights, hidden_, activation_one_) +
                SquaredActivationDot(them, weights + hidden_, hidden_,
                                     activation_one_)
          : WideSquaredActivationDot(us, weights, hidden_, activation_one_) +
                WideSquaredActivationDot(them, weights + hidden_, hidden_,
                                         activation_one_);
  const int64_t out = products / activation_one_ + output_biases_[bucket];
  const int64_t cp =
      out * output_scale_ / (int64_t(activation_one_) * output_one_);
  return int(std::clamp<int64_t>(cp, -kMaxNetworkCp, kMaxNetworkCp));
}

int Network::EvaluateInputs(const uint16_t* inputs, int count) const {
  if (empty()) return 0;
  if (!perspective_) return SideToMoveOutput(inputs, count);
  // Each side's view from its own king, found among the inputs.
  InputView views[2];
  for (int i = 0; i < count; ++i) {
    if (inputs[i] >= kOwnKingInputs && inputs[i] < kOwnKingInputs + 64)
      views[0] = ViewOf(inputs[i] - kOwnKingInputs);
    const int theirs = OtherSideInput(inputs[i]);
    if (theirs >= kOwnKingInputs && theirs < kOwnKingInputs + 64)
      views[1] = ViewOf(theirs - kOwnKingInputs);
  }
  const int16_t* rows[2][kMaxPieces];
  for (int i = 0; i < count; ++i) {
    rows[0][i] = row(ViewedInput(views[0], inputs[i]));
    rows[1][i] = row(ViewedInput(views[1], OtherSideInput(inputs[i])));
  }
  alignas(32) int16_t sums[2][kMaxNetworkHidden];
  for (int side = 0; side < 2; ++side) {
    AddRows(hidden_biases_.data(), rows[side], count, nullptr, 0, hidden_,
            sums[side]);
  }
  return PerspectiveOutput(sums[0], sums[1], count);
}

int Network::SideToMoveOutput(const uint16_t* inputs, int count) const {
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
  return int(Clipped(out));
}

}  // namespace chess
