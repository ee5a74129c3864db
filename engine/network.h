// The evaluation's neural network: one hidden layer of squared clipped ReLU
// units over the 768 (piece, square) inputs, in one of two layouts.
// SIDE_TO_MOVE sees the board from the side to move and is computed afresh
// for each position: with ~30 pieces and a few dozen units that costs less
// than keeping sums across make/unmake. PERSPECTIVE (bullet's reference
// architecture) sees it from both sides with the same weights; its sums are
// kept per ply by AccumulatorStack (engine/accumulator.h), so that hundreds of
// units cost a few row updates per move. Integer arithmetic only: the
// evaluation is the same however the sums were reached, so searches repeat
// exactly.
#ifndef ENGINE_NETWORK_H_
#define ENGINE_NETWORK_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/engine_config.pb.h"
#include "engine/position.h"

namespace chess {

inline constexpr int kNetworkInputs = 768;
inline constexpr int kMaxNetworkHidden = 1024;
// Hidden units come in blocks of this many (hidden_size is a multiple).
inline constexpr int kNetworkBlock = 32;
inline constexpr int kMaxPieces = 32;
// The output is clipped to this, far beyond what a trained network says and
// far below mate scores, whatever a config's output bias.
inline constexpr int kMaxNetworkCp = 3000;
// Fixed-point scales of NetworkParams: an activation of 1.0 is
// kNetworkActivationOne units, an output weight of 1.0 kNetworkOutputOne.
inline constexpr int kNetworkActivationOne = 255;
inline constexpr int kNetworkOutputOne = 64;

// The input of piece `p` on `s` seen from `perspective`: its own pieces are
// inputs 0-383, the enemy's 384-767, and Black sees the board mirrored.
inline int NetworkInput(Color perspective, Piece p, Square s) {
  const int enemy = ColorOf(p) == perspective ? 0 : 1;
  const int square = perspective == kWhite ? s : (s ^ 56);
  return (enemy * 6 + TypeOf(p)) * 64 + square;
}

// The inputs of every piece, seen from the side to move, into `inputs` (room
// for kMaxPieces); returns how many.
int NetworkInputs(const Position& pos, uint16_t* inputs);

// The same input seen from the other side: own and enemy swapped, the board
// mirrored.
inline int OtherSideInput(int input) {
  return (input >= kNetworkInputs / 2 ? input - kNetworkInputs / 2
                                      : input + kNetworkInputs / 2) ^
         56;
}

// King buckets (NetworkParams.king_buckets): at most this many.
inline constexpr int kMaxKingBuckets = 32;
inline constexpr int kMaxOutputBuckets = 16;
// The own king's input of a side's inputs (king = type 5, own = 0).
inline constexpr int kOwnKingInputs = 5 * 64;

// How one side sees the inputs with king buckets: each input moved to its
// bucket's rows and its square mirrored horizontally (XOR 7) when the side's
// king stands on files e-h; `key` tells the views apart (bucket * 2 +
// mirrored).
struct InputView {
  int offset = 0;
  int flip = 0;
  int key = 0;
};
inline int ViewedInput(const InputView& view, int input) {
  return view.offset + (input ^ view.flip);
}
// The view of a side whose own king stands on `king` (from its side) under
// the king bucket layout `layout` (NetworkParams.king_buckets; empty: none).
inline InputView KingView(absl::Span<const int> layout, int king) {
  if (layout.empty()) return {};
  const int bucket = layout[king];
  const bool mirror = (king & 7) > 3;
  return {bucket * kNetworkInputs, mirror ? 7 : 0, 2 * bucket + mirror};
}
// How many king buckets `layout` has (1 without one).
inline int KingBucketCount(absl::Span<const int> layout) {
  int buckets = 1;
  for (int b : layout) buckets = std::max(buckets, b + 1);
  return buckets;
}
// bullet's MaterialCount<buckets>: the output bucket of `pieces` on the board.
inline int OutputBucket(int pieces, int buckets) {
  if (buckets == 1) return 0;
  return std::clamp((pieces - 2) / ((32 + buckets - 1) / buckets), 0,
                    buckets - 1);
}

// Output weights of a network `tuner net` trains are within this, so that an
// activation (at most 255) times a weight fits 16 bits: the fast product.
// Other networks (bullet's, of other quantisations) take a slower one.
inline constexpr int kMaxPerspectiveOutputWeight = 127;
// How a PERSPECTIVE network's floats are integers (NetworkParams): an
// activation of 1.0 is activation_one units (bullet's QA), an output weight
// of 1.0 output_one (QB), and an output of 1 is output_scale centipawns
// (bullet's SCALE). The defaults are bullet's usual ones.
struct Quantisation {
  int activation_one = 255;
  int output_one = 64;
  int output_scale = 400;
};
// What `tuner net` gives a new network: an output of 1 is a pawn.
inline constexpr Quantisation kPawnQuantisation{255, 64, 100};
Quantisation QuantisationOf(const NetworkParams& params);

// The largest quantisation constants a PERSPECTIVE network may have.
inline constexpr int kMaxActivationOne = 32767;
inline constexpr int kMaxOutputOne = 32767;
inline constexpr int kMaxOutputScale = 100000;

class Network {
 public:
  Network() = default;  // no network: evaluates to 0
  // Checks the sizes and the quantisation, that every weight fits 16 bits
  // and that no hidden sum can overflow them, naming the field.
  static absl::StatusOr<Network> FromProto(const NetworkParams& params);
  // The network of `eval`, or none (an empty network) when it has none.
  static absl::StatusOr<Network> FromEval(const EvalParams& eval);

  bool empty() const { return hidden_ == 0; }
  int hidden_size() const { return hidden_; }
  bool perspective() const { return perspective_; }
  bool whole_evaluation() const { return whole_evaluation_; }
  // Centipawns from the side to move's point of view, computed afresh.
  int Evaluate(const Position& pos) const;
  // The same from the position's inputs (NetworkInput from the side to move,
  // at most 32 of them): the form the trainer checks its rounding with.
  int EvaluateInputs(const uint16_t* inputs, int count) const;

  // PERSPECTIVE layout: the hidden biases, the row of an input's weights,
  // and the output from the side to move's sums `us` and the other side's
  // `them` (hidden_size() values each).
  const int16_t* hidden_biases() const { return hidden_biases_.data(); }
  const int16_t* row(int input) const {
    return &input_weights_[size_t(input) * hidden_];
  }
  // `pieces`: how many stand on the board (the output bucket).
  int PerspectiveOutput(const int16_t* us, const int16_t* them,
                        int pieces) const;
  // The view of the side whose own king stands on `king`, seen from
  // `perspective` (a1 = 0 from that side), and how many views there are.
  InputView ViewOf(int king) const;
  InputView ViewOf(Color perspective, Square king) const {
    return ViewOf(perspective == kWhite ? int(king) : king ^ 56);
  }
  int views() const { return 2 * input_buckets_; }
  bool king_buckets() const { return input_buckets_ > 1 || mirrored_; }

  // Bullet's quantisation (NetworkParams): QA, QB, and centipawns per unit
  // of output.
  int activation_one() const { return activation_one_; }
  int output_one() const { return output_one_; }
  int output_scale() const { return output_scale_; }

 private:
  int SideToMoveOutput(const uint16_t* inputs, int count) const;

  int hidden_ = 0;
  bool perspective_ = false;
  bool whole_evaluation_ = false;
  std::vector<int16_t> input_weights_;  // [bucket][input][hidden]
  std::vector<int16_t> hidden_biases_;
  std::vector<int32_t> output_weights_;  // SIDE_TO_MOVE
  std::vector<int16_t>
      perspective_weights_;  // PERSPECTIVE, [bucket][2 x hidden]
  int64_t output_bias_ = 0;
  std::vector<int64_t> output_biases_;  // by output bucket
  int output_buckets_ = 1;
  int input_buckets_ = 1;
  bool mirrored_ = false;  // king buckets: files e-h mirrored
  int king_bucket_[64] = {};
  int activation_one_ = kNetworkActivationOne;
  int output_one_ = kNetworkOutputOne;
  int output_scale_ = 100;
  // Activations within 255 and output weights within
  // kMaxPerspectiveOutputWeight: SquaredActivationDot's 16-bit products.
  bool narrow_products_ = true;
};

// The sums of `inputs` (rows added to `base`, `removed` rows subtracted) into
// `out`, hidden values; `out` may be `base`. 16-bit adds wrap, so the result
// is exact whenever the final sums fit, whatever the order.
void AddRows(const int16_t* base, const int16_t* const* added, int added_count,
             const int16_t* const* removed, int removed_count, int hidden,
             int16_t* out);

// Sum over j < count (a multiple of 16) of clamp(sums[j], 0, one)^2 *
// weights[j], each weight within kMaxPerspectiveOutputWeight, `one` (QA)
// within 255.
int64_t SquaredActivationDot(const int16_t* sums, const int16_t* weights,
                             int count, int one = kNetworkActivationOne);
// The same for any activation_one and weights, in 64 bits.
int64_t WideSquaredActivationDot(const int16_t* sums, const int16_t* weights,
                                 int count, int activation_one);

// The same two in plain C++, what a processor without AVX2 runs: tests check
// that the vector forms agree with them.
void AddRowsPortable(const int16_t* base, const int16_t* const* added,
                     int added_count, const int16_t* const* removed,
                     int removed_count, int hidden, int16_t* out);
int64_t SquaredActivationDotPortable(const int16_t* sums,
                                     const int16_t* weights, int count,
                                     int one = kNetworkActivationOne);

}  // namespace chess

#endif  // ENGINE_NETWORK_H_
