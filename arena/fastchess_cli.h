// fastchess's command line, translated into a MatchConfig: users keep their
// scripts (`-engine cmd=... name=... -each tc=10+0.1 -rounds 500 -repeat
// -concurrency 8 -openings file=book.epd format=epd order=random -sprt
// elo0=0 elo1=5`) and get our match, written out as a textproto so that it
// can be repeated and resumed. Options we do not support are refused by name,
// never ignored.
#ifndef ARENA_FASTCHESS_CLI_H_
#define ARENA_FASTCHESS_CLI_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/match_config.pb.h"

namespace chess {

struct FastchessMatch {
  MatchConfig config;
  std::string pgn_out;  // -pgnout file=: where games.pgn is copied at the end
};

// `args` are the fastchess options (without the program name). Relative paths
// (cmd= with a slash, dir=, the opening book, pgnout) are made absolute from
// `working_dir`, so that the written config works from anywhere.
absl::StatusOr<FastchessMatch> TranslateFastchessArgs(
    const std::vector<std::string>& args, const std::string& working_dir);

// Whether a command line is in fastchess's style (it names an -engine).
bool LooksLikeFastchess(const std::vector<std::string>& args);

}  // namespace chess

#endif  // ARENA_FASTCHESS_CLI_H_
