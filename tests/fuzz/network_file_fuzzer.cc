// bullet's quantised network files: the bytes as a file, and the bytes
// repeated to fill a 32-unit network's weights (padding zero) under a
// quantisation the first bytes choose. Each is refused with an error or is a
// network the engine evaluates within its clip, which writes back to the
// same bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/network.h"
#include "engine/network_file.h"
#include "engine/position.h"

namespace {

constexpr int kHidden = 32;
// 2 bytes per value: 768 x 32 input weights, 32 biases, 64 output weights,
// the output bias.
constexpr size_t kValueBytes = 2 * (768 * kHidden + kHidden + 2 * kHidden + 1);
constexpr size_t kFileBytes = (kValueBytes + 63) / 64 * 64;

void Check(const std::string& bytes, const chess::Quantisation& q) {
  absl::StatusOr<chess::NetworkParams> params =
      chess::ParseBulletNetwork(bytes, q, "fuzz.bin");
  if (!params.ok()) return;
  absl::StatusOr<chess::Network> net = chess::Network::FromProto(*params);
  if (!net.ok()) __builtin_trap();
  const int cp = net->Evaluate(chess::Position::Start());
  if (cp < -chess::kMaxNetworkCp || cp > chess::kMaxNetworkCp) __builtin_trap();
  absl::StatusOr<chess::BulletExport> back =
      chess::SerializeBulletNetwork(*params, q);
  if (!back.ok() || !back->exact || back->bytes != bytes) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  Check(input, {});
  if (size < 6) return 0;
  chess::Quantisation q;
  q.activation_one = 1 + (data[0] | data[1] << 8) % 400;
  q.output_one = 1 + data[2] % 128;
  q.output_scale = 1 + (data[3] | data[4] << 8) % 1000;
  std::string tiled;
  tiled.reserve(kFileBytes);
  while (tiled.size() < kValueBytes)
    tiled.append(input, 5, std::min(size - 5, kValueBytes - tiled.size()));
  tiled.resize(kFileBytes, '\0');
  Check(tiled, q);
  return 0;
}
