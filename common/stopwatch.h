// The one clock for measuring elapsed time (benchmarks, progress, timeouts):
// steady, so that a change of the wall clock never makes time run backwards.
#ifndef COMMON_STOPWATCH_H_
#define COMMON_STOPWATCH_H_

#include <chrono>
#include <cstdint>

namespace chess {

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  Stopwatch() : start_(Clock::now()) {}
  void Restart() { start_ = Clock::now(); }
  Clock::duration Elapsed() const { return Clock::now() - start_; }
  double Seconds() const {
    return std::chrono::duration<double>(Elapsed()).count();
  }
  int64_t Microseconds() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Elapsed())
        .count();
  }
  int64_t Milliseconds() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Elapsed())
        .count();
  }

 private:
  Clock::time_point start_;
};

// Milliseconds on the steady clock since an arbitrary fixed point: for
// deadlines shared between threads as plain integers.
inline int64_t SteadyNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             Stopwatch::Clock::now().time_since_epoch())
      .count();
}

}  // namespace chess

#endif  // COMMON_STOPWATCH_H_
