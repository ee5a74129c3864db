// A UCI command stream, line by line, then the end of input: the engine
// answers or complains, never crashes. Searches are bounded by the next
// command and the end of input. Skipped: "bench" (a minute of searching),
// "go perft" (as deep as asked, an hour at depth 8), and lines naming the
// hash size or the threads, which may allocate gigabytes on purpose (the
// fallback when memory is short and the helper threads have their own tests:
// search_test, uci_session_test). The engine plays without its network, which
// no command parses (network_test and the match config fuzzer check networks).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/config.h"
#include "engine/uci.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  // Each session checks and builds the config's network: with it, the fuzzer
  // ran 10 inputs a second.
  static const chess::EngineConfig* const base = [] {
    auto* config = new chess::EngineConfig(chess::DefaultEngineConfig());
    config->mutable_eval()->clear_network();
    config->mutable_search()->set_hash_mb(1);
    return config;
  }();
  const chess::EngineConfig& config = *base;
  chess::UciSession session(config, out);
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::string lower = absl::AsciiStrToLower(line);
    if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(lower), "bench") ||
        absl::StrContains(lower, "hash") ||
        absl::StrContains(lower, "config") ||
        absl::StrContains(lower, "perft") ||
        absl::StrContains(lower, "threads"))
      continue;
    if (!session.HandleLine(line)) return 0;
  }
  session.EndOfInput();
  return 0;
}
