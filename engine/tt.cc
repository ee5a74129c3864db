#include "engine/tt.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace chess {

size_t TranspositionTable::Resize(size_t megabytes) {
  static_assert(std::atomic<uint64_t>::is_always_lock_free &&
                sizeof(Slot) == 16);
  slots_.reset();
  size_ = 0;
  // Never more than half the machine's memory: as the search fills the
  // table, more would be paged out, or end the process.
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) {
    megabytes =
        std::min<size_t>(megabytes, (size_t(pages) * size_t(page) >> 20) / 2);
  }
  for (megabytes_ = megabytes; megabytes_ > 0; megabytes_ /= 2) {
    const size_t count = megabytes_ * 1024 * 1024 / sizeof(Slot);
    slots_.reset(static_cast<Slot*>(std::calloc(count, sizeof(Slot))));
    if (slots_) {
      size_ = count;
      break;
    }
  }
  generation_ = 0;
  return megabytes_;
}

void TranspositionTable::Clear() {
  // Fresh zero pages rather than writing over a large table: a new game in a
  // 16 GiB table would otherwise touch all of it.
  constexpr size_t kReallocateAbove = size_t(64) << 20;
  if (size_ * sizeof(Slot) > kReallocateAbove) {
    const size_t count = size_;
    slots_.reset();
    slots_.reset(static_cast<Slot*>(std::calloc(count, sizeof(Slot))));
    if (!slots_) Resize(megabytes_);
  } else if (size_ > 0) {
    std::memset(static_cast<void*>(slots_.get()), 0, size_ * sizeof(Slot));
  }
  generation_ = 0;
}

void TranspositionTable::Store(Key key, Move move, int score, int depth,
                               Bound bound) {
  if (size_ == 0) return;
  Slot& slot = slots_[Index(key)];
  const uint64_t old_data = slot.data.load(std::memory_order_relaxed);
  const TTEntry old = Unpack(old_data);
  const bool same =
      (slot.check.load(std::memory_order_relaxed) ^ old_data) == key;
  if (!same && old.generation == generation_ && old.bound != kBoundNone &&
      old.depth > depth) {
    return;  // keep the deeper entry of this search
  }
  if (same && move.is_none()) move = Move::FromBits(old.move);
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
  const size_t sample = std::min<size_t>(1000, size_);
  if (sample == 0) return 0;
  int used = 0;
  for (size_t i = 0; i < sample; ++i) {
    const TTEntry e = Unpack(slots_[i].data.load(std::memory_order_relaxed));
    used += e.bound != kBoundNone && e.generation == generation_;
  }
  return int(used * 1000 / sample);
}

}  // namespace chess
