#include "engine/time_budget.h"

#include <algorithm>

namespace chess {

TimeBudget BudgetForMove(const GameClock& clock, int64_t move_overhead_ms,
                         const TimePolicy& policy) {
  const int64_t left = std::min(clock.time_left_ms, kMaxClockMs);
  const int64_t available = std::max<int64_t>(1, left - move_overhead_ms);
  const int moves_to_go = clock.moves_to_go > 0
                              ? std::min(clock.moves_to_go, 40)
                              : std::max(1, policy.sudden_death_moves_to_go);
  const int64_t increment =
      std::clamp<int64_t>(clock.increment_ms, 0, kMaxClockMs);
  const int64_t share =
      available / moves_to_go +
      increment * std::clamp(policy.increment_percent, 0, 100) / 100;
  TimeBudget budget;
  budget.hard_ms = std::max<int64_t>(1, std::min(available / 3, share * 4));
  budget.soft_ms = std::max<int64_t>(
      1, std::min(share * std::clamp(policy.soft_percent, 1, 100) / 100,
                  budget.hard_ms));
  return budget;
}

int64_t NodeShareSoftLimit(const TimeBudget& budget, double best_move_share) {
  const double share = std::clamp(best_move_share, 0.0, 1.0);
  const auto scaled = int64_t(double(budget.soft_ms) * (1.5 - share) * 1.35);
  return std::clamp<int64_t>(scaled, 1, std::max<int64_t>(1, budget.hard_ms));
}

}  // namespace chess
