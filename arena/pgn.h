// PGN export of recorded games: Seven Tag Roster, FEN/SetUp for non-standard
// starts, TimeControl, Termination, PlyCount; SAN moves with "{score/depth
// time}" comments.
#ifndef ARENA_PGN_H_
#define ARENA_PGN_H_

#include <string>

#include "absl/strings/string_view.h"
#include "arena/match_log.pb.h"

namespace chess {

std::string GameToPgn(const GameRecord& game, const MatchHeader& header);
std::string ResultString(GameRecord::Result result);
// "10+0.1", "movetime 100 ms", "nodes 10000", "depth 8": for people, not for
// PGN.
std::string DescribeTimeControl(const TimeControl& tc);
// A tag value as the PGN standard wants it: quotes and backslashes escaped,
// line breaks and tabs as spaces, other control bytes dropped, and bytes that
// are not UTF-8 as '?'.
std::string PgnTagValue(absl::string_view value);

}  // namespace chess

#endif  // ARENA_PGN_H_
