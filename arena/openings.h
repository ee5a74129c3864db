// Opening books: EPD (one position per line; opcodes after the four FEN fields
// ignored) and PGN (each game's moves from its FEN tag or the initial
// position).
#ifndef ARENA_OPENINGS_H_
#define ARENA_OPENINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/game.h"

namespace chess {

struct Opening {
  Position start;           // the line's first position
  std::vector<Move> moves;  // book moves from `start` (empty for EPD)
  Game ToGame() const;
};

// `opening` followed by `plies` uniformly random legal moves drawn from
// `seed`: the same for the same seed on every machine. A line that ends the
// game (mate, stalemate, a draw by rule) is drawn again; after 1,000 such
// draws the last one stops before the move that ended it.
Opening WithRandomPlies(const Opening& opening, int plies, uint64_t seed);

// A fingerprint of the openings' positions and moves, in order: equal for the
// same book wherever it lies, and whichever format it came in.
uint64_t BookFingerprint(const std::vector<Opening>& openings);

enum class BookFormat { kEpd, kPgn };

// Every opening of a book. A malformed entry fails the whole book, with
// "<path>:<line>: <what>", so a match never starts from a half-read book.
// `chess960`: positions under Chess960 rules (Shredder-FEN or X-FEN castling
// rights, castling as king takes own rook).
absl::StatusOr<std::vector<Opening>> ParseEpdBook(absl::string_view text,
                                                  absl::string_view name,
                                                  bool chess960 = false);
// `max_plies` > 0 keeps only the first plies of each line.
absl::StatusOr<std::vector<Opening>> ParsePgnBook(absl::string_view text,
                                                  absl::string_view name,
                                                  int max_plies,
                                                  bool chess960 = false);
absl::StatusOr<std::vector<Opening>> LoadBook(const std::string& path,
                                              BookFormat format, int max_plies,
                                              bool chess960 = false);
// The format from the extension (".epd" or ".pgn"), then as above.
absl::StatusOr<std::vector<Opening>> LoadBook(const std::string& path,
                                              int max_plies,
                                              bool chess960 = false);
// By extension: ".epd" or ".pgn".
absl::StatusOr<BookFormat> BookFormatFromPath(absl::string_view path);

}  // namespace chess

#endif  // ARENA_OPENINGS_H_
