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

// Where a match without --output_dir goes: WORKING_DIR/fastchess-out/NAME,
// with every character of NAME but letters, digits, '-', '_' and '.' made
// '_', and a leading '.' too, so that "-event .." stays inside fastchess-out.
std::string FastchessOutputDir(const std::string& match_name,
                               const std::string& working_dir);

// The first line of the match.textproto that `arena run` writes for a
// fastchess command line: `args` quoted, so that none can end the line.
std::string FastchessConfigHeader(const std::vector<std::string>& args);
// Whether `text` (a file's contents) begins with such a header: a config the
// arena wrote and may write again, not one of the user's.
bool IsFastchessTranslation(const std::string& text);

// Whether a command line is in fastchess's style (it names an -engine).
bool LooksLikeFastchess(const std::vector<std::string>& args);

}  // namespace chess

#endif  // ARENA_FASTCHESS_CLI_H_
