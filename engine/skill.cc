#include "engine/skill.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace chess {
namespace {

// The Elo measured on Stockfish 15.1's UCI_Elo scale at some levels: each
// level against Stockfish at a known UCI_Elo, games capped at 300,000 nodes a
// move (docs/engine.md has the games and intervals): levels 4.95, 6.79 and
// 8.13 in 80 to 97 games, the others in 20 to 50; level 20, full strength, from
// default's 300 games against UCI_Elo 2400 at 10+0.1 (2406, [2373, 2438]),
// taken as the range's top, 2400. Between the points, linear.
struct LevelElo {
  double level;
  double elo;
};
constexpr LevelElo kCalibration[] = {
    {1, 1165},  {4.95, 1535}, {6.79, 1634}, {8.13, 1820},
    {10, 1877}, {15, 1881},   {20, 2400},
};

}  // namespace

double LevelForElo(int elo) {
  const LevelElo* first = std::begin(kCalibration);
  const LevelElo* last = std::end(kCalibration) - 1;
  if (elo <= first->elo) return first->level;
  if (elo >= last->elo) return last->level;
  for (const LevelElo* p = first; p < last; ++p) {
    const LevelElo& a = p[0];
    const LevelElo& b = p[1];
    if (elo <= b.elo)
      return a.level + (b.level - a.level) * (elo - a.elo) / (b.elo - a.elo);
  }
  return kFullStrength;
}

double SkillLevel(const SearchParams& params) {
  return params.limit_strength() ? LevelForElo(params.elo())
                                 : double(params.skill_level());
}

size_t PickLine(const std::vector<int>& scores, double level, uint64_t random) {
  if (scores.empty()) return 0;
  // Stockfish's rule: each line's score plus a push, larger for lines further
  // below the best and, at random, larger the weaker the level. In its units
  // (Stockfish 15.1: 208 to the end-game pawn, 126 to the middle-game one),
  // so that a level means what it means there.
  constexpr double kUnitsPerCentipawn = 2.08;
  constexpr double kMiddleGamePawn = 126;
  const double top = scores.front() * kUnitsPerCentipawn;
  const double delta =
      std::min(top - scores.back() * kUnitsPerCentipawn, kMiddleGamePawn);
  const double weakness = 120 - 2 * level;
  size_t best = 0;
  double best_value = -1e18;
  for (size_t i = 0; i < scores.size(); ++i) {
    random = random * 6364136223846793005ULL + 1442695040888963407ULL;
    const double draw = double(random >> 33) / double(1ULL << 31);  // [0, 1)
    const double score = scores[i] * kUnitsPerCentipawn;
    const double push =
        (weakness * (top - score) + delta * std::floor(draw * weakness)) / 128;
    if (score + push > best_value) {
      best_value = score + push;
      best = i;
    }
  }
  return best;
}

}  // namespace chess
