// The training samples a spool holds (NetworkSamples::AddBytes): any bytes
// are refused with an error or are samples whose bytes read back the same.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tuner/network_training.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  chess::NetworkSamples samples;
  if (!samples.AddBytes(bytes).ok()) return 0;
  std::string again;
  samples.AppendBytes(&again);
  // The mirrorable byte reads as a bool: compare through a second round.
  chess::NetworkSamples twice;
  if (!twice.AddBytes(again).ok()) __builtin_trap();
  std::string third;
  twice.AppendBytes(&third);
  if (third != again || again.size() != bytes.size()) __builtin_trap();
  return 0;
}
