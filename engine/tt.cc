#include "engine/tt.h"

#include <algorithm>

namespace chess {

void TranspositionTable::Resize(size_t megabytes) {
  entries_.assign(megabytes * 1024 * 1024 / sizeof(TTEntry), TTEntry{});
  entries_.shrink_to_fit();
}

void TranspositionTable::Clear() {
  std::fill(entries_.begin(), entries_.end(), TTEntry{});
  generation_ = 0;
}

void TranspositionTable::Store(Key key, Move move, int score, int depth,
                               Bound bound) {
  if (entries_.empty()) return;
  TTEntry& e = entries_[Index(key)];
  const bool same = e.key == key;
  if (!same && e.generation == generation_ && e.bound != kBoundNone &&
      e.depth > depth) {
    return;  // keep the deeper entry of this search
  }
  if (same && move.is_none()) move = Move::FromBits(e.move);
  e.key = key;
  e.move = move.bits();
  e.score = int16_t(score);
  e.depth = int8_t(std::clamp(depth, -1, 127));
  e.bound = bound;
  e.generation = generation_;
}

int TranspositionTable::Hashfull() const {
  const size_t sample = std::min<size_t>(1000, entries_.size());
  if (sample == 0) return 0;
  int used = 0;
  for (size_t i = 0; i < sample; ++i) {
    used += entries_[i].bound != kBoundNone &&
            entries_[i].generation == generation_;
  }
  return int(used * 1000 / sample);
}

}  // namespace chess
