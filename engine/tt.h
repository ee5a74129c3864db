// Transposition table: buckets of four slots, a cache line each, indexed by
// Zobrist key. A position's own slot is rewritten; a new position takes the
// bucket's slot least worth keeping (empty, else the lowest depth less 8 plies
// per search since it was written).
#ifndef ENGINE_TT_H_
#define ENGINE_TT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "engine/types.h"

namespace chess {

enum Bound : uint8_t {
  kBoundNone = 0,
  kBoundUpper = 1,
  kBoundLower = 2,
  kBoundExact = 3
};

// What a probe reads of a slot.
struct TTEntry {
  Key key = 0;
  uint16_t move = 0;
  int16_t score = 0;
  int8_t depth = 0;
  uint8_t bound = kBoundNone;
  uint8_t generation = 0;
};

// Shared by every thread of a search without locks: each slot keeps its data
// in one 64-bit word and the key XOR that word in another, both written and
// read whole. A slot torn by two threads writing at once fails the key check
// and reads as empty (Hyatt's lockless hashing).
class TranspositionTable {
 public:
  // 0 MiB makes a table that stores nothing. At most half the machine's
  // memory, and memory that cannot be had gives a smaller table (halved until
  // it fits): returns the MiB in use.
  size_t Resize(size_t megabytes);
  size_t megabytes() const { return megabytes_; }
  void Clear();
  // Called at the start of each search (not by helper threads), so older
  // entries are replaced first.
  void NewSearch() { ++generation_; }

  // The entry for `key`, if there is one.
  std::optional<TTEntry> Probe(Key key) const {
    if (size_ == 0) return std::nullopt;
    const Slot* slot = Find(buckets_[Index(key)], key);
    if (!slot) return std::nullopt;
    TTEntry e = Unpack(slot->data.load(std::memory_order_relaxed));
    if (e.bound == kBoundNone) return std::nullopt;
    e.key = key;
    return e;
  }
  // Starts loading `key`'s bucket into the cache, for a probe soon after.
  void Prefetch(Key key) const {
    if (size_ > 0) __builtin_prefetch(&buckets_[Index(key)]);
  }
  void Store(Key key, Move move, int score, int depth, Bound bound);
  // Permille of sampled slots written in the current search (UCI "hashfull").
  int Hashfull() const;

 private:
  struct Slot {
    std::atomic<uint64_t> check;  // key ^ data
    std::atomic<uint64_t> data;   // a packed TTEntry without its key
  };
  static constexpr size_t kBucketSlots = 4;
  struct alignas(64) Bucket {
    Slot slots[kBucketSlots];
  };
  // The slot of `bucket` that holds `key`, or null.
  static const Slot* Find(const Bucket& bucket, Key key) {
    for (const Slot& slot : bucket.slots) {
      const uint64_t data = slot.data.load(std::memory_order_relaxed);
      if ((slot.check.load(std::memory_order_relaxed) ^ data) == key)
        return &slot;
    }
    return nullptr;
  }
  // Where a store of `key` goes in `bucket`: its own slot, else the least
  // worth keeping.
  Slot& Victim(Bucket& bucket, Key key) const;
  static uint64_t Pack(const TTEntry& e) {
    return uint64_t(e.move) | uint64_t(uint16_t(e.score)) << 16 |
           uint64_t(uint8_t(e.depth)) << 32 | uint64_t(e.bound) << 40 |
           uint64_t(e.generation) << 48;
  }
  static TTEntry Unpack(uint64_t data) {
    TTEntry e;
    e.move = uint16_t(data);
    e.score = int16_t(uint16_t(data >> 16));
    e.depth = int8_t(uint8_t(data >> 32));
    e.bound = uint8_t(data >> 40);
    e.generation = uint8_t(data >> 48);
    return e;
  }
  size_t Index(Key key) const {
    return size_t((unsigned __int128)key * size_ >> 64);
  }
  // Zeroed memory mapped from the kernel, starting on a 2 MiB boundary with
  // huge pages asked for: random probes of a large table then miss the TLB
  // far less often. Pages stay untouched, and cost nothing, until the search
  // writes them; an all-zero slot is empty (bound none).
  class ZeroedPages {
   public:
    ZeroedPages() = default;
    explicit ZeroedPages(size_t bytes);  // empty when it cannot be had
    ZeroedPages(ZeroedPages&& other) noexcept { *this = std::move(other); }
    ZeroedPages& operator=(ZeroedPages&& other) noexcept;
    ~ZeroedPages();
    void* get() const { return start_; }
    // Back to all zero; pages never written cost nothing.
    void Zero();

   private:
    void* mapping_ = nullptr;  // bytes_ and a huge page more
    void* start_ = nullptr;    // the first 2 MiB boundary in it
    size_t bytes_ = 0;
  };
  ZeroedPages memory_;
  Bucket* buckets_ = nullptr;  // in memory_
  size_t size_ = 0;            // buckets
  size_t megabytes_ = 0;
  uint8_t generation_ = 0;
};

// Mate scores are stored relative to the node, not the root, so that they stay
// right when the same position is reached at another ply.
inline constexpr int kMateScore = 32000;
inline constexpr int kMateBound = kMateScore - 1000;
inline constexpr int kInfinity = 32001;
// A win the tablebases prove, less the plies to reach it: above every
// evaluation, below every mate.
inline constexpr int kTbWinScore = kMateBound - 1000;
inline int ScoreToTT(int score, int ply) {
  return score >= kMateBound    ? score + ply
         : score <= -kMateBound ? score - ply
                                : score;
}
inline int ScoreFromTT(int score, int ply) {
  return score >= kMateBound    ? score - ply
         : score <= -kMateBound ? score + ply
                                : score;
}

}  // namespace chess

#endif  // ENGINE_TT_H_
