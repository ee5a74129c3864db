#include "engine/skill.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace chess {
namespace {

// The Elo measured on Stockfish 15.1's UCI_Elo scale at some levels: each
// level against Stockfish at a known UCI_Elo, games capped at 300,000 nodes a
// move (docs/engine.md has the games and intervals). Between the points,
// linear. Levels above 10 are not used: with 4 lines the search reaches
// depth 13 in 300,000 nodes, so their depth caps hardly bind.
struct LevelElo {
  double level;
  double elo;
};
constexpr LevelElo kLevels[] = {
    {1, 1165}, {4.95, 1535}, {6.79, 1634}, {8.13, 1820}, {10, 1877},
};

// Full strength with a cap on each move's nodes, `default` measured the same
// way at 26,375 to 1,146,694 nodes: Elo = 1931 + 62.5 log2(nodes / 16,000),
// the maximum-likelihood line through those games (docs/engine.md,
// tests/strength/fit_node_caps.py).
constexpr double kNodeCapReferenceNodes = 16000;
constexpr double kNodeCapReferenceElo = 1931;
constexpr double kEloPerNodeDoubling = 62.5;

}  // namespace

double LevelForElo(int elo) {
  const LevelElo* first = std::begin(kLevels);
  const LevelElo* last = std::end(kLevels) - 1;
  if (elo <= first->elo) return first->level;
  if (elo >= last->elo) return last->level;
  for (const LevelElo* p = first; p < last; ++p) {
    const LevelElo& a = p[0];
    const LevelElo& b = p[1];
    if (elo <= b.elo)
      return a.level + (b.level - a.level) * (elo - a.elo) / (b.elo - a.elo);
  }
  return last->level;
}

uint64_t NodesForElo(int elo) {
  if (elo > kHighestElo) return 0;
  const double doublings =
      (std::max(elo, kLowestNodeCapElo) - kNodeCapReferenceElo) /
      kEloPerNodeDoubling;
  return uint64_t(std::llround(kNodeCapReferenceNodes * std::exp2(doublings)));
}

Handicap HandicapFor(const SearchParams& params) {
  Handicap handicap;
  if (!params.limit_strength()) {
    handicap.level = params.skill_level();
  } else if (params.elo() < kLowestNodeCapElo) {
    handicap.level = LevelForElo(params.elo());
  } else {
    handicap.nodes_per_move = NodesForElo(params.elo());
  }
  return handicap;
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
