// Transposition table: one entry per slot, indexed by Zobrist key,
// depth-preferred replacement within a search and always-replace for entries of
// older searches.
#ifndef ENGINE_TT_H_
#define ENGINE_TT_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "engine/types.h"

namespace chess {

enum Bound : uint8_t {
  kBoundNone = 0,
  kBoundUpper = 1,
  kBoundLower = 2,
  kBoundExact = 3
};

struct TTEntry {
  Key key = 0;
  uint16_t move = 0;
  int16_t score = 0;
  int8_t depth = 0;
  uint8_t bound = kBoundNone;
  uint8_t generation = 0;
};

class TranspositionTable {
 public:
  // 0 MiB makes a table that stores nothing. At most half the machine's
  // memory, and memory that cannot be had gives a smaller table (halved until
  // it fits): returns the MiB in use.
  size_t Resize(size_t megabytes);
  size_t megabytes() const { return megabytes_; }
  void Clear();
  // Called at the start of each search, so older entries are replaced first.
  void NewSearch() { ++generation_; }

  // The entry for `key`, or nullptr.
  const TTEntry* Probe(Key key) const {
    if (size_ == 0) return nullptr;
    const TTEntry& e = entries_[Index(key)];
    return e.key == key && e.bound != kBoundNone ? &e : nullptr;
  }
  // Starts loading `key`'s slot into the cache, for a probe soon after.
  void Prefetch(Key key) const {
    if (size_ > 0) __builtin_prefetch(&entries_[Index(key)]);
  }
  void Store(Key key, Move move, int score, int depth, Bound bound);
  // Permille of sampled slots written in the current search (UCI "hashfull").
  int Hashfull() const;

 private:
  size_t Index(Key key) const {
    return size_t((unsigned __int128)key * size_ >> 64);
  }
  struct Free {
    void operator()(TTEntry* p) const { std::free(p); }
  };
  // calloc: a large table's pages stay untouched (and cost nothing) until the
  // search writes them; an all-zero entry is empty.
  std::unique_ptr<TTEntry[], Free> entries_;
  size_t size_ = 0;
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
