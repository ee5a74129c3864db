// The hidden sums of a PERSPECTIVE network (engine/network.h) for each ply of
// a search. A position's sums are made from the nearest ply's (its parent's,
// or the sibling searched before it) by the rows of the pieces that differ,
// or afresh when fewer pieces stand on the board than differ. What differs is
// found from the pieces' bitboards, not told by make/unmake: the sums are
// right whatever path the search took, and positions stay free of network
// state. With king buckets, a side whose king moved into another bucket (or
// across the middle, mirrored) cannot start from the ply before: its sums
// start from a refresh cache that keeps, for each side and each view, the
// last sums made in that view and their pieces (Stockfish's and bullet users'
// "finny table"), so that a king move costs the rows of the pieces that
// differ from when that view was last used.
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
    int view[2] = {0, 0};               // each side's InputView key
  };
  // Sums of one side in one view, and the pieces they are of.
  struct Cached {
    bool valid = false;
    std::array<Bitboard, 12> pieces{};
    std::vector<int16_t> sums;
  };
  void Update(const Network& net, const Entry* base, Entry& entry,
              const std::array<Bitboard, 12>& pieces);
  // `perspective`'s sums of `pieces` in `view` into `out`, from `from`'s
  // pieces and sums (none: the biases).
  void UpdateSide(const Network& net, Color perspective, const InputView& view,
                  const std::array<Bitboard, 12>* from, const int16_t* start,
                  const std::array<Bitboard, 12>& pieces, int16_t* out);

  std::vector<Entry> entries_;
  std::vector<Cached> cache_;  // [perspective][view key]
};

}  // namespace chess

#endif  // ENGINE_ACCUMULATOR_H_
