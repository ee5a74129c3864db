#include "engine/game.h"

#include <algorithm>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace chess {

absl::string_view TerminationName(Termination t) {
  switch (t) {
    case Termination::kNone:
      return "none";
    case Termination::kCheckmate:
      return "checkmate";
    case Termination::kStalemate:
      return "stalemate";
    case Termination::kThreefoldRepetition:
      return "threefold repetition";
    case Termination::kFiftyMoveRule:
      return "fifty-move rule";
    case Termination::kInsufficientMaterial:
      return "insufficient material";
  }
  return "unknown";
}

bool IsInsufficientMaterial(const Position& pos) {
  if (pos.pieces(kPawn) | pos.pieces(kRook) | pos.pieces(kQueen)) return false;
  const Bitboard knights = pos.pieces(kKnight), bishops = pos.pieces(kBishop);
  if (PopCount(knights | bishops) <= 1) return true;
  if (knights) return false;
  return !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
}

Game::Game(Position start) : start_(start), current_(start) {
  keys_.push_back(start.key());
}

void Game::Play(Move m) {
  current_.MakeMove(m);
  moves_.push_back(m);
  keys_.push_back(current_.key());
}

absl::Status Game::PlayUci(absl::string_view text) {
  absl::StatusOr<Move> m = ParseUci(current_, text);
  if (!m.ok()) return m.status();
  Play(*m);
  return absl::OkStatus();
}

absl::Status Game::PlaySan(absl::string_view text) {
  absl::StatusOr<Move> m = ParseSan(current_, text);
  if (!m.ok()) return m.status();
  Play(*m);
  return absl::OkStatus();
}

int Game::RepetitionCount() const {
  const int last = int(keys_.size()) - 1;
  // Only positions since the last capture or pawn move can repeat; the clock
  // may count moves made before the game's start position, which keys_ does not
  // hold.
  const int earliest = std::max(0, last - current_.halfmove_clock());
  int count = 1;
  for (int i = last - 2; i >= earliest; i -= 2) {
    if (keys_[i] == keys_[last]) ++count;
  }
  return count;
}

Outcome Game::GetOutcome() const {
  if (LegalMoves(current_).empty()) {
    if (!current_.InCheck())
      return {GameResult::kDraw, Termination::kStalemate};
    return {current_.side_to_move() == kWhite ? GameResult::kBlackWins
                                              : GameResult::kWhiteWins,
            Termination::kCheckmate};
  }
  if (IsInsufficientMaterial(current_)) {
    return {GameResult::kDraw, Termination::kInsufficientMaterial};
  }
  if (current_.halfmove_clock() >= 100) {
    return {GameResult::kDraw, Termination::kFiftyMoveRule};
  }
  if (RepetitionCount() >= 3) {
    return {GameResult::kDraw, Termination::kThreefoldRepetition};
  }
  return {};
}

}  // namespace chess
