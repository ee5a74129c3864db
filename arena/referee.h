// Plays one game between two players and records it: the arena, not the
// engines, decides legality, the end of the game (rules and adjudication) and
// time forfeits.
#ifndef ARENA_REFEREE_H_
#define ARENA_REFEREE_H_

#include <string>

#include "arena/match_config.pb.h"
#include "arena/match_log.pb.h"
#include "arena/openings.h"
#include "arena/player.h"

namespace chess {

struct Seat {
  Player* player;
  std::string name;
  TimeControl time_control;
  // External players get timeouts; in-process ones cannot hang.
  bool external = false;
  int64_t move_timeout_ms = 0;
};

// Plays from `opening` to the end. `record` arrives with its schedule fields
// set; the players, moves, result and termination are filled in.
void PlayGame(const Opening& opening, Seat white, Seat black,
              const Adjudication& adjudication, GameRecord* record);

}  // namespace chess

#endif  // ARENA_REFEREE_H_
