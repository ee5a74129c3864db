#ifndef COMMON_PARALLEL_H_
#define COMMON_PARALLEL_H_

#include <cstddef>

#include "absl/functional/function_ref.h"

namespace chess {

// The threads worth starting for CPU-bound work on this machine: every core,
// at least 1 and at most 64.
size_t CoreCount();

// Runs body(part, begin, end) on `parts` threads at once, one per equal
// contiguous slice [begin, end) of [0, n), part 0 on the calling thread, and
// returns when all are done. Slices are in order: part p precedes p + 1, so
// per-part results joined by part keep the order of [0, n).
void ForEachSlice(
    size_t n, size_t parts,
    absl::FunctionRef<void(size_t part, size_t begin, size_t end)> body);

// Runs body(i) for every i in [0, n) on up to `threads` threads, each taking
// the next index as it finishes one: for items of very unequal cost.
void ForEachIndex(size_t n, size_t threads,
                  absl::FunctionRef<void(size_t i)> body);

}  // namespace chess

#endif  // COMMON_PARALLEL_H_
