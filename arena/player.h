// A player of arena games: our engine in process, or any UCI program as a child
// process. The arena referees; a player only proposes moves.
#ifndef ARENA_PLAYER_H_
#define ARENA_PLAYER_H_

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/match_config.pb.h"
#include "common/stopwatch.h"
#include "engine/game.h"
#include "engine/search.h"

namespace chess {

struct MoveReply {
  std::string move;  // as the player wrote it (UCI); the referee checks it
  bool has_score = false;
  int score_cp = 0;  // from the mover's side
  int mate = 0;      // moves to mate, signed; 0 = no mate score
  int depth = 0, seldepth = 0;
  uint64_t nodes = 0;
  // "info string" lines of this search (an engine's own complaints), for the
  // record when its move is rejected.
  std::string notes;
};

// Takes what an "info" line of a UCI engine tells into `reply`: score (of the
// best line only, under MultiPV), depth, seldepth, nodes.
void ParseUciInfo(absl::string_view line, MoveReply* reply);

class Player {
 public:
  virtual ~Player() = default;
  // Prepares for a new game (forgets the last one); restarts a player that
  // died. Unavailable: the player could not be started.
  virtual absl::Status NewGame() = 0;
  // The game's seed, given before NewGame(): in-process engines with evaluation
  // noise take their noise seed from it, so games differ from each other yet
  // replay exactly.
  virtual void SetGameSeed(uint64_t /*seed*/) {}
  // Asks for a move. `timeout_ms` > 0 bounds the wait. Errors: DeadlineExceeded
  // (no answer in time), Unavailable (the player died or wrote nothing usable).
  virtual absl::StatusOr<MoveReply> Go(const Game& game,
                                       const SearchLimits& limits,
                                       int64_t timeout_ms) = 0;
  // The last lines exchanged with the player, for the record when it
  // misbehaves.
  virtual std::string Transcript() const { return ""; }
};

// Our engine, searching in the calling thread.
class InProcessPlayer : public Player {
 public:
  explicit InProcessPlayer(const EngineConfig& config)
      : config_(config), engine_(config) {}
  absl::Status NewGame() override;
  void SetGameSeed(uint64_t seed) override;
  absl::StatusOr<MoveReply> Go(const Game& game, const SearchLimits& limits,
                               int64_t timeout_ms) override;

 private:
  EngineConfig config_;
  Engine engine_;
};

// An option a UCI engine advertises ("option name Move Overhead type spin
// default 10 min 0 max 5000").
struct UciOption {
  std::string name;
  std::string type;  // spin, check, combo, string, button
  std::string default_value;
  bool has_range = false;
  int64_t min = 0, max = 0;
};
// Parses one "option ..." line; nullopt-like error for anything else.
absl::StatusOr<UciOption> ParseUciOptionLine(absl::string_view line);

// Starts the engine, reads what it advertises before "uciok", stops it.
absl::StatusOr<std::vector<UciOption>> ProbeUciOptions(
    const ExternalEngine& engine);

// A UCI program started from an argv (no shell), spoken to through pipes with
// timeouts.
class UciProcessPlayer : public Player {
 public:
  explicit UciProcessPlayer(const ExternalEngine& config) : config_(config) {}
  ~UciProcessPlayer() override;
  absl::Status NewGame() override;
  absl::StatusOr<MoveReply> Go(const Game& game, const SearchLimits& limits,
                               int64_t timeout_ms) override;
  std::string Transcript() const override;
  // The "option ..." lines of the last start's "uci" answer.
  const std::vector<std::string>& advertised() const { return advertised_; }

 private:
  void Remember(absl::string_view direction, absl::string_view line);
  absl::Status Start();
  void Kill();
  absl::Status Send(const std::string& line);
  // The next line, waiting until `deadline_ms` (steady clock); DeadlineExceeded
  // or Unavailable (end of output) otherwise.
  absl::StatusOr<std::string> ReadLine(int64_t deadline_ms);
  // Reads what an engine that has ended left in its pipe, then closes it.
  void DrainEndedEngine();
  absl::Status WaitFor(const std::string& token, int64_t timeout_ms);
  std::string ExitDescription();
  // Whether the started process has ended (reaped; its description kept).
  bool Exited();

  ExternalEngine config_;
  pid_t pid_ = -1;
  pid_t pgid_ = -1;  // the process group it leads, outliving it
  std::string exit_description_;
  int to_engine_ = -1;
  int from_engine_ = -1;
  std::string buffer_;
  std::deque<std::string> transcript_;
  std::vector<std::string> advertised_;
};

}  // namespace chess

#endif  // ARENA_PLAYER_H_
