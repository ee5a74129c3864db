// How long one search may run under a chess clock: the budget of a move from
// the time left, the increment and the moves to go.
#ifndef ENGINE_TIME_BUDGET_H_
#define ENGINE_TIME_BUDGET_H_

#include <cstdint>

namespace chess {

// The mover's clock as the GUI gave it ("go wtime ... winc ... movestogo").
struct GameClock {
  int64_t time_left_ms = 0;
  int64_t increment_ms = 0;
  int moves_to_go = 0;  // 0: sudden death (with or without increment)
};

// A clock of a million hours is as good as infinite: clocks are clamped to
// it, which keeps the arithmetic on them far from overflow.
inline constexpr int64_t kMaxClockMs = int64_t(1) << 42;

struct TimeBudget {
  int64_t soft_ms = 0;  // no iteration starts after this
  int64_t hard_ms = 0;  // the search stops here
};

// How a sudden-death clock is shared out: SearchParams' time_moves_to_go,
// time_increment_percent and time_soft_percent.
struct TimePolicy {
  int sudden_death_moves_to_go = 30;
  int increment_percent = 75;  // of the increment, added to each share
  int soft_percent = 60;       // of the share, after which no iteration starts
};

// A move's share is the time left (less `move_overhead_ms`, the reserve for
// talking to the GUI) over the moves to go, at most 40, or over the policy's
// `sudden_death_moves_to_go` when the clock gives none, plus its
// `increment_percent` of the increment. An iteration starts only before
// `soft_percent` of the share; none runs past four shares or a third of the
// time left. Both limits are at least 1 ms, and clocks up to a million hours
// (a GUI's "infinite") do not overflow.
TimeBudget BudgetForMove(const GameClock& clock, int64_t move_overhead_ms,
                         const TimePolicy& policy);

// The soft limit once the best move so far took `best_move_share` (0 to 1)
// of the search's nodes (SearchParams' time_node_fraction): (1.5 - share) *
// 1.35 of `budget.soft_ms`, at least 1 ms and at most `budget.hard_ms`. A
// move the search has settled on stops sooner; a contested one gets more.
int64_t NodeShareSoftLimit(const TimeBudget& budget, double best_move_share);

}  // namespace chess

#endif  // ENGINE_TIME_BUDGET_H_
