#include "engine/time_budget.h"

#include <cstdint>

#include "engine/engine_config.pb.h"
#include "gtest/gtest.h"

namespace chess {
namespace {

// The tests below read TimePolicy's defaults as the engine's: they must stay
// SearchParams' own.
TEST(TimeBudgetTest, PolicyDefaultsAreSearchParamsDefaults) {
  const SearchParams params;
  const TimePolicy policy;
  EXPECT_EQ(policy.sudden_death_moves_to_go, params.time_moves_to_go());
  EXPECT_EQ(policy.increment_percent, params.time_increment_percent());
  EXPECT_EQ(policy.soft_percent, params.time_soft_percent());
}

// 10+0.1 at the start, 10 ms overhead: the share is 9,990 / 20 + 75 = 574 ms.
TEST(TimeBudgetTest, SuddenDeathSharesTheClockOverTheMovesToGo) {
  const TimeBudget b = BudgetForMove(
      {.time_left_ms = 10000, .increment_ms = 100},
      /*move_overhead_ms=*/10, TimePolicy{.sudden_death_moves_to_go = 20});
  EXPECT_EQ(b.soft_ms, 574 * 6 / 10);
  EXPECT_EQ(b.hard_ms, 574 * 4);  // less than a third of the clock
  const TimeBudget thirty =
      BudgetForMove({.time_left_ms = 10000, .increment_ms = 100}, 10, {});
  EXPECT_EQ(thirty.soft_ms, (9990 / 30 + 75) * 6 / 10);
  EXPECT_LT(thirty.soft_ms, b.soft_ms);
}

// The GUI's moves-to-go wins over the sudden-death setting, up to 40.
TEST(TimeBudgetTest, MovesToGoFromTheClock) {
  const TimeBudget b =
      BudgetForMove({.time_left_ms = 60000, .moves_to_go = 10}, 0, {});
  EXPECT_EQ(b.soft_ms, 6000 * 6 / 10);
  EXPECT_EQ(b.hard_ms, 20000);
  const TimeBudget far =
      BudgetForMove({.time_left_ms = 60000, .moves_to_go = 200}, 0, {});
  EXPECT_EQ(far.soft_ms, 60000 / 40 * 6 / 10);
  EXPECT_EQ(far.hard_ms, 60000 / 40 * 4);
}

// Nearly flagged, or a GUI's "infinite" clock: at least 1 ms, no overflow.
TEST(TimeBudgetTest, ExtremeClocks) {
  const TimeBudget flagged = BudgetForMove({.time_left_ms = 5}, 10, {});
  EXPECT_EQ(flagged.soft_ms, 1);
  EXPECT_EQ(flagged.hard_ms, 1);
  const TimeBudget huge = BudgetForMove(
      {.time_left_ms = INT64_MAX, .increment_ms = INT64_MAX}, 10, {});
  EXPECT_GT(huge.soft_ms, 0);
  EXPECT_LE(huge.soft_ms, huge.hard_ms);
  const TimeBudget no_moves =
      BudgetForMove({.time_left_ms = 3000}, 0, {.sudden_death_moves_to_go = 0});
  EXPECT_EQ(no_moves.hard_ms, 1000) << "a third at most";
}

// The whole increment and a later soft limit spend more of the clock; the
// hard limit still keeps a third of it and four shares.
TEST(TimeBudgetTest, PolicySpendsMoreOfTheIncrementAndTheShare) {
  const GameClock clock{.time_left_ms = 10000, .increment_ms = 100};
  const TimeBudget spent =
      BudgetForMove(clock, 10, {.increment_percent = 100, .soft_percent = 70});
  EXPECT_EQ(spent.soft_ms, (9990 / 30 + 100) * 70 / 100);
  EXPECT_EQ(spent.hard_ms, (9990 / 30 + 100) * 4);
  EXPECT_GT(spent.soft_ms, BudgetForMove(clock, 10, {}).soft_ms);
  const TimeBudget low =
      BudgetForMove({.time_left_ms = 600, .increment_ms = 100}, 10,
                    {.increment_percent = 100});
  EXPECT_EQ(low.hard_ms, 590 / 3);
  const TimeBudget odd =
      BudgetForMove(clock, 10, {.increment_percent = 1000, .soft_percent = -5});
  EXPECT_EQ(odd.soft_ms, (9990 / 30 + 100) / 100)
      << "percentages are clamped to [1, 100]";
}

TEST(TimeBudgetTest, NodeShareMovesTheSoftLimit) {
  const TimeBudget budget{.soft_ms = 1000, .hard_ms = 1800};
  EXPECT_EQ(NodeShareSoftLimit(budget, 1.0), 675);  // settled: sooner
  EXPECT_EQ(NodeShareSoftLimit(budget, 0.5), 1350);
  EXPECT_EQ(NodeShareSoftLimit(budget, 0.0), 1800);  // within the hard limit
  EXPECT_EQ(NodeShareSoftLimit(budget, -3.0), 1800);
  EXPECT_EQ(NodeShareSoftLimit(budget, 7.0), 675);
  EXPECT_EQ(NodeShareSoftLimit(TimeBudget{.soft_ms = 1, .hard_ms = 1}, 1.0), 1);
}

}  // namespace
}  // namespace chess
