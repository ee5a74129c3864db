// A game: a start position plus moves, with the rules that need history
// (threefold repetition) and the end-of-game verdicts the arena relies on.
#ifndef ENGINE_GAME_H_
#define ENGINE_GAME_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"

namespace chess {

enum class GameResult { kOngoing, kWhiteWins, kBlackWins, kDraw };

enum class Termination {
  kNone,
  kCheckmate,
  kStalemate,
  kThreefoldRepetition,
  kFiftyMoveRule,
  kInsufficientMaterial,
};

struct Outcome {
  GameResult result = GameResult::kOngoing;
  Termination termination = Termination::kNone;
};

absl::string_view TerminationName(Termination t);

// True when no sequence of legal moves can end in mate: K v K, K+minor v K, and
// kings with bishops only, all on squares of one colour.
bool IsInsufficientMaterial(const Position& pos);

class Game {
 public:
  explicit Game(Position start = Position::Start());

  const Position& start() const { return start_; }
  const Position& position() const { return current_; }
  const std::vector<Move>& moves() const { return moves_; }
  // keys()[i]: the Zobrist key after i moves (keys()[0]: the start).
  const std::vector<Key>& keys() const { return keys_; }

  // `m` must be legal.
  void Play(Move m);
  absl::Status PlayUci(absl::string_view text);
  absl::Status PlaySan(absl::string_view text);

  // How often the current position has occurred, this time included.
  int RepetitionCount() const;
  Outcome GetOutcome() const;

 private:
  Position start_;
  Position current_;
  std::vector<Move> moves_;
  std::vector<Key> keys_;  // keys_[i]: the key after i moves
};

}  // namespace chess

#endif  // ENGINE_GAME_H_
