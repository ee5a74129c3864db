// bullet's quantised network file (`quantised.bin`) for the PERSPECTIVE
// layout, (768 -> N) x 2 -> 1 with squared clipped ReLU: little-endian i16,
// the input weights [768][N] (inputs in bullet's Chess768 order, which is
// ours: engine/network.h), the hidden biases [N], the output weights [2N]
// (the side to move's N first), the output bias, then zeros up to a multiple
// of 64 bytes. With king buckets the input weights are [bucket][768][N];
// with output buckets the output weights are [bucket][2N] (bullet's
// `.transpose()` save format) and the biases [bucket]. The file does not say
// its quantisation or its buckets: QA, QB and the scale are given (bullet's
// 255, 64 and 400 by default), so is the shape, and N follows from the size.
#ifndef ENGINE_NETWORK_FILE_H_
#define ENGINE_NETWORK_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine_config.pb.h"
#include "engine/network.h"

namespace chess {

// Files larger than this are refused (N = 1024 is 1.6 MB).
inline constexpr size_t kMaxNetworkFileBytes = 64 << 20;

// The buckets of a network file: the king bucket layout (64 values, empty
// for none) and the output buckets (NetworkParams' fields).
struct NetworkShape {
  std::vector<int> king_buckets;
  int output_buckets = 1;
};
NetworkShape ShapeOf(const NetworkParams& params);
// "4 king buckets (mirrored), 8 output buckets", "no king buckets, 8 output
// buckets", or "no buckets".
std::string DescribeShape(const NetworkShape& shape);
// 64 numbers separated by commas or spaces (bullet's layout, a1 first), or
// empty for none.
absl::StatusOr<std::vector<int>> ParseKingBuckets(absl::string_view text);

// The network of a file's bytes, as Network::FromProto accepts it; `name`
// names the file in errors (a size that is no network, padding that is not
// zero, weights whose sums overflow 16 bits).
absl::StatusOr<NetworkParams> ParseBulletNetwork(
    absl::string_view bytes, const Quantisation& q, absl::string_view name,
    const NetworkShape& shape = {});
absl::StatusOr<NetworkParams> ReadBulletNetwork(const std::string& path,
                                                const Quantisation& q,
                                                const NetworkShape& shape = {});

// How a network's output layer was carried into another quantisation.
struct BulletExport {
  std::string bytes;
  // The factor the output weights and bias were multiplied by, and whether
  // rounding changed any of them (else the file evaluates exactly as the
  // network does).
  double output_factor = 1;
  bool exact = true;
};

// The file of a PERSPECTIVE network in quantisation `q`: the input layer as
// it is (q.activation_one must be the network's), the output layer rescaled
// by (scale / QB of the network) / (q.output_scale / q.output_one) and
// rounded. InvalidArgument for another layout, or when a weight would not
// fit 16 bits.
absl::StatusOr<BulletExport> SerializeBulletNetwork(const NetworkParams& params,
                                                    const Quantisation& q);

}  // namespace chess

#endif  // ENGINE_NETWORK_FILE_H_
