// Transposition table: one entry per slot, indexed by Zobrist key,
// depth-preferred replacement within a search and always-replace for entries of
// older searches.
#ifndef ENGINE_TT_H_
#define ENGINE_TT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

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
  // 0 MiB makes a table that stores nothing.
  void Resize(size_t megabytes);
  void Clear();
  // Called at the start of each search, so older entries are replaced first.
  void NewSearch() { ++generation_; }

  // The entry for `key`, or nullptr.
  const TTEntry* Probe(Key key) const {
    if (entries_.empty()) return nullptr;
    const TTEntry& e = entries_[Index(key)];
    return e.key == key && e.bound != kBoundNone ? &e : nullptr;
  }
  void Store(Key key, Move move, int score, int depth, Bound bound);
  // Permille of sampled slots written in the current search (UCI "hashfull").
  int Hashfull() const;

 private:
  size_t Index(Key key) const {
    return size_t((unsigned __int128)key * entries_.size() >> 64);
  }
  std::vector<TTEntry> entries_;
  uint8_t generation_ = 0;
};

// Mate scores are stored relative to the node, not the root, so that they stay
// right when the same position is reached at another ply.
inline constexpr int kMateScore = 32000;
inline constexpr int kMateBound = kMateScore - 1000;
inline constexpr int kInfinity = 32001;
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
