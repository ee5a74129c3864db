// PGN export of recorded games: Seven Tag Roster, FEN/SetUp for non-standard
// starts, TimeControl, Termination, PlyCount; SAN moves with "{score/depth
// time}" comments.
#ifndef ARENA_PGN_H_
#define ARENA_PGN_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "arena/match_log.pb.h"

namespace chess {

std::string GameToPgn(const GameRecord& game, const MatchHeader& header);
// The PGN of games that come a batch at a time in any order (a log read
// without holding it), in schedule order. Each batch's games are written on
// every core: SAN needs the legal moves at every ply.
class PgnBuilder {
 public:
  explicit PgnBuilder(const MatchHeader& header) : header_(header) {}
  void Add(absl::Span<const GameRecord* const> games);
  std::string Finish() &&;

 private:
  MatchHeader header_;
  std::vector<std::pair<int, std::string>> games_;  // schedule index, PGN
};

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
