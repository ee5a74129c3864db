// Syzygy endgame tablebases through Debian's Fathom (libfathom-dev): win/draw/
// loss inside the search, and root moves ranked by distance to zeroing (by
// win/draw/loss where the DTZ files are missing).
//
// Fathom keeps one set of tables per process, so these functions are the one
// place that touches it: loading takes an exclusive lock, probes a shared one.
// Every engine and the arena's adjudication in one process share the tables.
#ifndef ENGINE_SYZYGY_H_
#define ENGINE_SYZYGY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/position.h"
#include "engine/syzygy_files.h"
#include "engine/types.h"

namespace chess::syzygy {

// The value of a position for the side to move. Blessed loss and cursed win
// are a loss and a win the 50-move rule turns into a draw.
enum class Wdl : int {
  kLoss = -2,
  kBlessedLoss = -1,
  kDraw = 0,
  kCursedWin = 1,
  kWin = 2
};

// The tables found: how many (WDL files) and the most pieces any has; the
// files left out, each "\"PATH\" skipped: REASON".
struct TableSet {
  std::string paths;
  int tables = 0;
  int largest = 0;
  std::vector<std::string> skipped;
};

// Loads the tables in `paths`, directories separated by ':' (as Stockfish's
// SyzygyPath). An error names a directory that does not exist; a directory
// without tables is no error (`tables` is 0). Loading the paths already
// loaded does nothing; other paths replace them for the whole process.
// Only tables that pass the checks of syzygy_files.h and then survive probes
// of a sample of their positions in a child process are loaded (from a
// private directory of links); the others are named in `skipped`. A damaged
// table that passes both can still give wrong values.
absl::StatusOr<TableSet> Load(absl::string_view paths);

// What is loaded now (paths empty: nothing).
TableSet Loaded();

// Whether `pos` can be probed: no castling rights, at most `max_pieces`
// pieces (kings included) and a table that large loaded.
bool Probeable(const Position& pos, int max_pieces);

// The position's value from the WDL tables; nullopt when it cannot be probed
// or its table is missing. Fathom answers only right after a capture or a
// pawn move (halfmove clock 0), where the tables' values hold exactly.
std::optional<Wdl> ProbeWdl(const Position& pos);

// The root moves that keep the best value the tables give, ranked by DTZ
// (which also makes progress towards the win) or, without DTZ files, by WDL.
struct RootRanking {
  std::vector<Move> best_moves;  // in the move generator's order
  Wdl value = Wdl::kDraw;        // of the position, by the best move
  bool by_dtz = false;
};
// nullopt when the root cannot be probed. `has_repeated`: the position
// occurred before since the last capture or pawn move; `use_rule50`: whether
// the 50-move rule counts (a cursed win is then a draw).
std::optional<RootRanking> RankRootMoves(const Position& pos, bool has_repeated,
                                         bool use_rule50);

// The value counted by the 50-move rule or not: a cursed win is a draw with
// it, a win without.
Wdl WithRule50(Wdl wdl, bool use_rule50);

}  // namespace chess::syzygy

#endif  // ENGINE_SYZYGY_H_
