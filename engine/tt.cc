#include "engine/tt.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace chess {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

}  // namespace

TranspositionTable::ZeroedPages::ZeroedPages(size_t bytes) {
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* mapping = ::mmap(nullptr, rounded + kHugePage, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return;
  mapping_ = mapping;
  const uintptr_t at = reinterpret_cast<uintptr_t>(mapping);
  start_ = reinterpret_cast<void*>((at + kHugePage - 1) & ~(kHugePage - 1));
  bytes_ = rounded;
  // A request: where the kernel has no transparent huge pages, small ones.
  ::madvise(start_, bytes_, MADV_HUGEPAGE);
}

TranspositionTable::ZeroedPages& TranspositionTable::ZeroedPages::operator=(
    ZeroedPages&& other) noexcept {
  std::swap(mapping_, other.mapping_);
  std::swap(start_, other.start_);
  std::swap(bytes_, other.bytes_);
  return *this;
}

TranspositionTable::ZeroedPages::~ZeroedPages() {
  if (mapping_) ::munmap(mapping_, bytes_ + kHugePage);
}

void TranspositionTable::ZeroedPages::Zero() {
  // Private anonymous pages given back read as zero again: a new game in a
  // 16 GiB table does not write all of it.
  if (bytes_ > 0 && ::madvise(start_, bytes_, MADV_DONTNEED) != 0)
    std::memset(start_, 0, bytes_);
}

size_t TranspositionTable::Resize(size_t megabytes) {
  static_assert(std::atomic<uint64_t>::is_always_lock_free &&
                sizeof(Slot) == 16 && sizeof(Bucket) == 64);
  memory_ = ZeroedPages();
  buckets_ = nullptr;
  size_ = 0;
  // Never more than half the machine's memory: as the search fills the
  // table, more would be paged out, or end the process.
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    megabytes =
        std::min<size_t>(megabytes, (size_t(pages) * size_t(page) >> 20) / 2);
  }
  for (megabytes_ = megabytes; megabytes_ > 0; megabytes_ /= 2) {
    const size_t count = megabytes_ * 1024 * 1024 / sizeof(Bucket);
    memory_ = ZeroedPages(count * sizeof(Bucket));
    if (memory_.get()) {
      buckets_ = static_cast<Bucket*>(memory_.get());
      size_ = count;
      break;
    }
  }
  generation_ = 0;
  return megabytes_;
}

void TranspositionTable::Clear() {
  memory_.Zero();
  generation_ = 0;
}

TranspositionTable::Slot& TranspositionTable::Victim(Bucket& bucket,
                                                     Key key) const {
  if (const Slot* own = Find(bucket, key)) return const_cast<Slot&>(*own);
  auto worth = [&](const Slot& slot) {
    const TTEntry e = Unpack(slot.data.load(std::memory_order_relaxed));
    if (e.bound == kBoundNone) return -(1 << 20);
    return int(e.depth) - 8 * uint8_t(generation_ - e.generation);
  };
  Slot* victim = &bucket.slots[0];
  int least = worth(*victim);
  for (size_t i = 1; i < kBucketSlots; ++i) {
    const int w = worth(bucket.slots[i]);
    if (w < least) least = w, victim = &bucket.slots[i];
  }
  return *victim;
}

void TranspositionTable::Store(Key key, Move move, int score, int depth,
                               Bound bound) {
  if (size_ == 0) return;
  Slot& slot = Victim(buckets_[Index(key)], key);
  const uint64_t old_data = slot.data.load(std::memory_order_relaxed);
  const bool same =
      (slot.check.load(std::memory_order_relaxed) ^ old_data) == key;
  if (same && move.is_none()) move = Move::FromBits(Unpack(old_data).move);
  TTEntry e;
  e.move = move.bits();
  e.score = int16_t(score);
  e.depth = int8_t(std::clamp(depth, -1, 127));
  e.bound = bound;
  e.generation = generation_;
  const uint64_t data = Pack(e);
  slot.data.store(data, std::memory_order_relaxed);
  slot.check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::Hashfull() const {
  const size_t sample = std::min<size_t>(1000, size_ * kBucketSlots);
  if (sample == 0) return 0;
  int used = 0;
  for (size_t i = 0; i < sample; ++i) {
    const Slot& slot = buckets_[i / kBucketSlots].slots[i % kBucketSlots];
    const TTEntry e = Unpack(slot.data.load(std::memory_order_relaxed));
    used += e.bound != kBoundNone && e.generation == generation_;
  }
  return int(used * 1000 / sample);
}

}  // namespace chess
