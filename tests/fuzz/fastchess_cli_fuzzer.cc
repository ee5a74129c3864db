// fastchess command lines (words split at spaces and newlines): a MatchConfig
// or an error naming the option, never a crash. Each line is also read as a
// UCI engine's "option ..." line (the other command-line-like parser of
// another program's words) and as `arena summary --anchors`.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "absl/strings/str_split.h"
#include "arena/fastchess_cli.h"
#include "arena/player.h"
#include "arena/standings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> args =
      absl::StrSplit(text, absl::ByAnyChar(" \n"), absl::SkipEmpty());
  absl::StatusOr<chess::FastchessMatch> match =
      chess::TranslateFastchessArgs(args, "/fuzz");
  if (match.ok() && match->config.players_size() < 2) __builtin_trap();
  if (!match.ok() && match.status().message().empty()) __builtin_trap();
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    absl::StatusOr<chess::UciOption> option = chess::ParseUciOptionLine(line);
    if (option.ok() && (option->name.empty() ||
                        (option->has_range && option->min > option->max)))
      __builtin_trap();
    absl::StatusOr<std::map<std::string, double>> anchors =
        chess::ParseAnchors(line);
    if (anchors.ok()) {
      for (const auto& [name, elo] : *anchors)
        if (name.empty() || !chess::IsAnchorElo(elo)) __builtin_trap();
    }
  }
  return 0;
}
