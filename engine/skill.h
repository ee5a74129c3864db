// Limited strength (UCI Skill Level, UCI_LimitStrength, UCI_Elo). Skill
// levels weaken the way Stockfish does: a shallow search of several lines, and
// a move picked among them with a bias towards worse ones that grows as the
// level falls. The upper range of UCI_Elo, where a depth cap no longer binds
// at usual budgets, plays at full strength with a cap on the nodes of each
// move instead, which binds at any time control that allows that many nodes.
#ifndef ENGINE_SKILL_H_
#define ENGINE_SKILL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/engine_config.pb.h"

namespace chess {

inline constexpr double kFullStrength = 20;

// UCI_Elo's range (SearchParams.elo), on Stockfish 15.1's scale.
inline constexpr int kLowestElo = 1200;
inline constexpr int kHighestElo = 2400;

// How a search is weakened: a skill level below kFullStrength, or a node cap
// per move (0: none); never both.
struct Handicap {
  double level = kFullStrength;
  uint64_t nodes_per_move = 0;
};

// The handicap of `params`: skill_level, or with limit_strength the one whose
// measured Elo is `elo` on Stockfish 15.1's UCI_Elo scale (the calibration
// tables in skill.cc).
Handicap HandicapFor(const SearchParams& params);

// The level (fractional) at which the engine plays at `elo`, for the range
// that skill levels cover (up to kLowestNodeCapElo).
double LevelForElo(int elo);

// From this UCI_Elo up, limited strength is a node cap, not a level.
inline constexpr int kLowestNodeCapElo = 1850;

// The nodes a move at which full strength plays at `elo` (from
// kLowestNodeCapElo up; those of kLowestNodeCapElo below it); 0 above
// kHighestElo.
uint64_t NodesForElo(int elo);

// Of lines' scores, best first, the index a player of `level` picks; `random`
// is a uniform 64-bit draw.
size_t PickLine(const std::vector<int>& scores, double level, uint64_t random);

}  // namespace chess

#endif  // ENGINE_SKILL_H_
