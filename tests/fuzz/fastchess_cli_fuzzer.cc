// fastchess command lines (words split at spaces and newlines): a MatchConfig
// or an error naming the option, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_split.h"
#include "arena/fastchess_cli.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> args =
      absl::StrSplit(text, absl::ByAnyChar(" \n"), absl::SkipEmpty());
  absl::StatusOr<chess::FastchessMatch> match =
      chess::TranslateFastchessArgs(args, "/fuzz");
  if (match.ok() && match->config.players_size() < 2) __builtin_trap();
  if (!match.ok() && match.status().message().empty()) __builtin_trap();
  return 0;
}
