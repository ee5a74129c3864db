// fastchess's -pgnout file=: the match's games added to a file of the user's.
// As fastchess does, the file is appended to, never replaced; each game is
// added once however often the match is resumed.
#ifndef ARENA_PGN_OUT_H_
#define ARENA_PGN_OUT_H_

#include <string>

#include "absl/status/status.h"

namespace chess {

// InvalidArgument when `pgn_out` would overwrite an input or the match's own
// files: a directory, one of the files the match keeps in `output_dir`
// (games.log, match.textproto, ...), or the opening book `book` (may be
// empty).
absl::Status CheckPgnOut(const std::string& pgn_out,
                         const std::string& output_dir,
                         const std::string& book);

// Appends to `pgn_out` (created when missing) the games of
// OUTPUT_DIR/games.pgn it was not given before, known by their Round tags,
// which OUTPUT_DIR/pgnout.appended lists for each target path.
absl::Status AppendNewGames(const std::string& output_dir,
                            const std::string& pgn_out);

}  // namespace chess

#endif  // ARENA_PGN_OUT_H_
