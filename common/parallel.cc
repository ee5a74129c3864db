#include "common/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace chess {

size_t CoreCount() {
  return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 64);
}

void ForEachSlice(
    size_t n, size_t parts,
    absl::FunctionRef<void(size_t part, size_t begin, size_t end)> body) {
  parts = std::max<size_t>(parts, 1);
  auto run = [&](size_t part) {
    body(part, n * part / parts, n * (part + 1) / parts);
  };
  std::vector<std::thread> workers;
  workers.reserve(parts - 1);
  for (size_t part = 1; part < parts; ++part) workers.emplace_back(run, part);
  run(0);
  for (std::thread& worker : workers) worker.join();
}

void ForEachIndex(size_t n, size_t threads,
                  absl::FunctionRef<void(size_t i)> body) {
  const size_t workers = std::clamp<size_t>(threads, 1, std::max<size_t>(n, 1));
  std::atomic<size_t> next{0};
  ForEachSlice(workers, workers, [&](size_t, size_t, size_t) {
    for (size_t i; (i = next.fetch_add(1)) < n;) body(i);
  });
}

}  // namespace chess
