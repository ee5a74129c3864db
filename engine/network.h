// A small neural network added to the linear evaluation: it learns, from
// positions scored by a stronger engine, what a sum of weighted counts cannot
// say (a piece's worth by where the kings and the other pieces stand). One
// hidden layer, computed afresh for each position: with ~30 pieces and a few
// dozen hidden units that costs less than counting the positional terms, and
// keeps make/unmake free of network state. Integer arithmetic only, so the
// evaluation stays exactly reproducible.
#ifndef ENGINE_NETWORK_H_
#define ENGINE_NETWORK_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
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

class Network {
 public:
  Network() = default;  // no network: evaluates to 0
  // Checks the sizes, that every weight fits 16 bits and that no hidden sum
  // can overflow them, naming the field.
  static absl::StatusOr<Network> FromProto(const NetworkParams& params);
  // The network of `eval`, or none (an empty network) when it has none.
  static absl::StatusOr<Network> FromEval(const EvalParams& eval);

  bool empty() const { return hidden_ == 0; }
  int hidden_size() const { return hidden_; }
  // Centipawns from the side to move's point of view.
  int Evaluate(const Position& pos) const;
  // The same from the position's inputs (NetworkInput from the side to move,
  // at most 32 of them): the form the trainer checks its rounding with.
  int EvaluateInputs(const uint16_t* inputs, int count) const;

 private:
  int hidden_ = 0;
  std::vector<int16_t> input_weights_;  // [input][hidden]
  std::vector<int16_t> hidden_biases_;
  std::vector<int32_t> output_weights_;
  int64_t output_bias_ = 0;
};

}  // namespace chess

#endif  // ENGINE_NETWORK_H_
