// How a time control is written for people: PGN's TimeControl tag, reports
// and the match summary ("40/60+0.6", "10+0.1", "0.5" a move, "-").
#ifndef ARENA_TIME_CONTROL_H_
#define ARENA_TIME_CONTROL_H_

#include <string>

#include "arena/match_config.pb.h"

namespace chess {

// A clock as cutechess and fastchess write it: [MOVES/]BASE[+INC] in
// seconds; a fixed time a move in seconds; "-" for node or depth limits.
std::string ClockText(const TimeControl& tc);

}  // namespace chess

#endif  // ARENA_TIME_CONTROL_H_
