// perft: counts move-tree leaves of a position, or checks a whole EPD suite.
//   perft --fen="..." --depth=6 [--divide]
//   perft --epd=suite.epd [--max_depth=5]
// Exit codes: 0 all counts match, 1 a count differs, 2 bad input.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "common/stopwatch.h"
#include "engine/notation.h"
#include "engine/perft.h"

ABSL_FLAG(std::string, fen, std::string(chess::kStartFen), "position to count");
ABSL_FLAG(int, depth, 6, "depth in plies");
ABSL_FLAG(bool, divide, false, "print the count below each root move");
ABSL_FLAG(std::string, epd, "",
          "perft suite: lines of \"FEN ;D1 n ;D2 n ...\"");
ABSL_FLAG(int, max_depth, 99, "with --epd: skip counts deeper than this");
ABSL_FLAG(bool, chess960, false,
          "Chess960 rules: Shredder-FEN or X-FEN castling rights, castling as "
          "king takes own rook (--divide prints it so)");

namespace chess {
namespace {

int RunOne(const std::string& fen, int depth, bool divide) {
  absl::StatusOr<Position> pos =
      Position::FromFen(fen, absl::GetFlag(FLAGS_chess960));
  if (!pos.ok()) {
    absl::FPrintF(stderr, "perft: %s\n", pos.status().message());
    return 2;
  }
  if (depth < 0) {
    absl::FPrintF(stderr, "perft: --depth must be >= 0\n");
    return 2;
  }
  Stopwatch start;
  uint64_t nodes = 0;
  if (divide && depth > 0) {
    for (const auto& [move, count] : PerftDivide(*pos, depth)) {
      absl::PrintF("%s: %d\n", ToUci(move), count);
      nodes += count;
    }
    absl::PrintF("\n");
  } else {
    nodes = Perft(*pos, depth);
  }
  double seconds = start.Seconds();
  absl::PrintF("Nodes searched: %d\n", nodes);
  absl::PrintF("time %.3f s, %.1f Mnps\n", seconds,
               seconds > 0 ? nodes / seconds / 1e6 : 0.0);
  return 0;
}

int RunSuite(const std::string& path, int max_depth) {
  std::ifstream in(path);
  if (!in) {
    absl::FPrintF(stderr, "perft: cannot read %s\n", path);
    return 2;
  }
  Stopwatch start;
  int line_number = 0, positions = 0, checks = 0, failures = 0;
  uint64_t total_nodes = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++line_number;
    absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text[0] == '#') continue;
    const bool chess960 = absl::GetFlag(FLAGS_chess960);
    absl::StatusOr<PerftCase> test = ParsePerftLine(text, chess960);
    if (!test.ok()) {
      absl::FPrintF(stderr, "%s:%d: %s\n", path, line_number,
                    test.status().message());
      return 2;
    }
    Position pos = *Position::FromFen(test->fen, chess960);
    ++positions;
    for (const auto& [depth, expected] : test->expected) {
      if (depth > max_depth) continue;
      uint64_t nodes = Perft(pos, depth);
      total_nodes += nodes;
      ++checks;
      if (nodes != expected) {
        ++failures;
        absl::PrintF("FAIL %s:%d %s depth %d: expected %d, got %d\n", path,
                     line_number, test->fen, depth, expected, nodes);
      }
    }
  }
  double seconds = start.Seconds();
  absl::PrintF(
      "%d positions, %d counts checked, %d failed; %d nodes in %.2f s (%.1f "
      "Mnps)\n",
      positions, checks, failures, total_nodes, seconds,
      seconds > 0 ? total_nodes / seconds / 1e6 : 0.0);
  return failures ? 1 : 0;
}

}  // namespace
}  // namespace chess

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Counts leaf nodes of the legal move tree.\n"
      "  perft --fen=FEN --depth=N [--divide]\n"
      "  perft --epd=FILE [--max_depth=N]\n"
      "  either with --chess960");
  absl::ParseCommandLine(argc, argv);
  if (!absl::GetFlag(FLAGS_epd).empty()) {
    return chess::RunSuite(absl::GetFlag(FLAGS_epd),
                           absl::GetFlag(FLAGS_max_depth));
  }
  return chess::RunOne(absl::GetFlag(FLAGS_fen), absl::GetFlag(FLAGS_depth),
                       absl::GetFlag(FLAGS_divide));
}
