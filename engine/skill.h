// Limited strength (UCI Skill Level, UCI_LimitStrength, UCI_Elo), the way
// Stockfish weakens itself: a shallow search of several lines, and a move
// picked among them with a bias towards worse ones that grows as the level
// falls.
#ifndef ENGINE_SKILL_H_
#define ENGINE_SKILL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/engine_config.pb.h"

namespace chess {

inline constexpr double kFullStrength = 20;

// The level a search plays at, 0 to 20 (20: full strength): skill_level, or
// with limit_strength the level whose measured Elo is `elo`.
double SkillLevel(const SearchParams& params);

// The level (fractional) at which the engine plays at `elo` on Stockfish
// 15.1's UCI_Elo scale, from the calibration table in skill.cc.
double LevelForElo(int elo);

// Of lines' scores, best first, the index a player of `level` picks; `random`
// is a uniform 64-bit draw.
size_t PickLine(const std::vector<int>& scores, double level, uint64_t random);

}  // namespace chess

#endif  // ENGINE_SKILL_H_
