// The hidden sums of a PERSPECTIVE network (engine/network.h) for each ply of
// a search. A position's sums are made from the nearest ply's (its parent's,
// or the sibling searched before it) by the rows of the pieces that differ,
// or afresh when fewer pieces stand on the board than differ. What differs is
// found from the pieces' bitboards, not told by make/unmake: the sums are
// right whatever path the search took, and positions stay free of network
// state.
#ifndef ENGINE_ACCUMULATOR_H_
#define ENGINE_ACCUMULATOR_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/network.h"
#include "engine/position.h"

namespace chess {

class AccumulatorStack {
 public:
  // Room for plies 0 to max_ply with `net`'s sums; forgets every ply.
  void Reset(const Network& net, int max_ply);
  // `net`'s evaluation of `pos` (the network Reset was given) searched at
  // `ply`, the same as net.Evaluate(pos).
  int Evaluate(const Network& net, const Position& pos, int ply);

 private:
  struct Entry {
    bool valid = false;
    std::array<Bitboard, 12> pieces{};  // colour * 6 + type
    std::vector<int16_t> sums;          // [perspective colour][hidden]
  };
  void Update(const Network& net, const Entry* base, Entry& entry,
              const std::array<Bitboard, 12>& pieces);

  std::vector<Entry> entries_;
};

}  // namespace chess

#endif  // ENGINE_ACCUMULATOR_H_
