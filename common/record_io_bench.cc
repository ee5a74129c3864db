// Benchmark, not a test: durable game records per second when T game threads
// finish games at once, (a) each writing and syncing under the match's lock,
// as the arena did, and (b) through SharedRecordWriter's group commit, which
// syncs outside the lock and lets one sync cover every record written while
// the previous one ran. Both in the same run, on the same disk; prints the
// ratio and the syncs per record.
//   bazel run //common:record_io_bench -- [RECORDS_PER_THREAD=300] [DIR=/tmp]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/record_io.h"
#include "common/stopwatch.h"

namespace {

// Records per second with `threads` writers; `write` makes one record durable.
template <typename WriteFn>
double RecordsPerSecond(int threads, int per_thread, WriteFn write) {
  const std::string payload(1700, 'g');  // a game record is about 1.7 KB
  chess::Stopwatch start;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (int i = 0; i < per_thread; ++i) {
        if (!write(payload)) std::abort();
      }
    });
  }
  for (std::thread& t : pool) t.join();
  const double seconds = start.Seconds();
  return threads * per_thread / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const int per_thread = argc > 1 ? std::atoi(argv[1]) : 300;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  const std::string path = dir + "/record_io_bench.log";
  std::printf("%7s %16s %16s %7s\n", "threads", "locked sync/s",
              "group commit/s", "ratio");
  for (int threads : {1, 2, 4, 8, 16}) {
    auto locked_writer = chess::RecordWriter::Create(path);
    if (!locked_writer.ok()) return 4;
    std::mutex match_lock;
    const double locked =
        RecordsPerSecond(threads, per_thread, [&](const std::string& payload) {
          std::lock_guard<std::mutex> lock(match_lock);
          return locked_writer->Write(payload).ok();
        });
    auto created = chess::RecordWriter::Create(path);
    if (!created.ok()) return 4;
    chess::SharedRecordWriter shared(*std::move(created));
    const double grouped = RecordsPerSecond(
        threads, per_thread,
        [&](const std::string& payload) { return shared.Write(payload).ok(); });
    std::printf("%7d %16.0f %16.0f %6.2fx\n", threads, locked, grouped,
                grouped / locked);
  }
  std::filesystem::remove(path);
  return 0;
}
