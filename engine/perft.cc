#include "engine/perft.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"

namespace chess {

namespace {

// Perft that gives up (returning what it counted) once `*stop` is true; read
// at every node above the last ply, which is counted in bulk.
uint64_t StoppablePerft(const Position& pos, int depth,
                        const std::atomic<bool>& stop) {
  if (depth <= 0) return 1;
  if (depth == 1) return CountLegalMoves(pos);
  if (stop.load(std::memory_order_relaxed)) return 0;
  uint64_t nodes = 0;
  for (Move m : LegalMoves(pos)) {
    Position child = pos;
    child.MakeMove(m);
    nodes += StoppablePerft(child, depth - 1, stop);
  }
  return nodes;
}

}  // namespace

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return CountLegalMoves(pos);
  MoveList moves = LegalMoves(pos);
  uint64_t nodes = 0;
  for (Move m : moves) {
    Position child = pos;
    child.MakeMove(m);
    nodes += Perft(child, depth - 1);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> PerftDivide(
    const Position& pos, int depth, const std::atomic<bool>* stop) {
  std::vector<std::pair<Move, uint64_t>> result;
  for (Move m : LegalMoves(pos)) {
    Position child = pos;
    child.MakeMove(m);
    result.emplace_back(m, stop ? StoppablePerft(child, depth - 1, *stop)
                                : Perft(child, depth - 1));
  }
  return result;
}

absl::StatusOr<PerftCase> ParsePerftLine(absl::string_view line,
                                         bool chess960) {
  std::vector<absl::string_view> parts = absl::StrSplit(line, ';');
  PerftCase result;
  result.fen = std::string(absl::StripAsciiWhitespace(parts[0]));
  if (absl::StatusOr<Position> pos = Position::FromFen(result.fen, chess960);
      !pos.ok()) {
    return pos.status();
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    absl::string_view part = absl::StripAsciiWhitespace(parts[i]);
    std::vector<absl::string_view> words =
        absl::StrSplit(part, ' ', absl::SkipEmpty());
    int depth;
    uint64_t nodes;
    if (words.size() != 2 || words[0].size() < 2 || words[0][0] != 'D' ||
        !absl::SimpleAtoi(words[0].substr(1), &depth) || depth < 0 ||
        !absl::SimpleAtoi(words[1], &nodes)) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected \"D<depth> <nodes>\", found \"", part, "\""));
    }
    result.expected.emplace_back(depth, nodes);
  }
  if (result.expected.empty()) {
    return absl::InvalidArgumentError("no \";D<depth> <nodes>\" counts");
  }
  return result;
}

}  // namespace chess
