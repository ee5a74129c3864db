// The files of a SyzygyPath, checked before Fathom sees them: Fathom trusts
// every byte of a table (a damaged one aborts, faults or spins inside it) and
// opens whatever carries a table's name (a FIFO blocks it), so only regular
// files of a table's name, size and magic number reach it.
#ifndef ENGINE_SYZYGY_FILES_H_
#define ENGINE_SYZYGY_FILES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace chess::syzygy {

// The directories of `paths`, separated by ':' (as Stockfish's SyzygyPath),
// each once, in their order; NotFound "\"DIR\" is not a directory" for the
// first one that is not.
absl::StatusOr<std::vector<std::string>> Directories(absl::string_view paths);

// A table file that passed the checks.
struct TableFile {
  std::string path;  // as found
  std::string name;  // e.g. "KQvKR.rtbw"
  bool dtz = false;  // .rtbz (distance to zeroing); else .rtbw (win/draw/loss)
  int pieces = 0;    // kings included
};

// What the directories hold: the tables to load (the first of each name, in
// the directories' order, as Fathom would take it) and, for each file of a
// table's name left out, why ("\"PATH\" skipped: REASON").
struct TableScan {
  std::vector<TableFile> tables;
  std::vector<std::string> skipped;
};
TableScan ScanDirectories(const std::vector<std::string>& directories);

// The material of a table's name ("KQvKR"): its piece count, or 0 when the
// name is not one of a table Fathom can load.
int TablePieces(absl::string_view stem);

// Whether the file at `path` can be a table of its suffix: a regular file
// (opened without blocking, so a FIFO never blocks), of a Syzygy table's size
// (16 more than a multiple of 64, at least 80 bytes) and magic number.
absl::Status CheckTableFile(const std::string& path, bool dtz);

}  // namespace chess::syzygy

#endif  // ENGINE_SYZYGY_FILES_H_
