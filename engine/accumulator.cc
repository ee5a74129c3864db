#include "engine/accumulator.h"

#include <algorithm>
#include <bit>

namespace chess {
namespace {

std::array<Bitboard, 12> PiecesOf(const Position& pos) {
  std::array<Bitboard, 12> pieces;
  for (Color c : {kWhite, kBlack}) {
    for (int t = kPawn; t <= kKing; ++t)
      pieces[c * 6 + t] = pos.pieces(c, PieceType(t));
  }
  return pieces;
}

// How many rows make `to` from `from`: a piece that left or arrived is one.
int Differences(const std::array<Bitboard, 12>& from,
                const std::array<Bitboard, 12>& to) {
  int count = 0;
  for (int i = 0; i < 12; ++i) count += std::popcount(from[i] ^ to[i]);
  return count;
}

}  // namespace

void AccumulatorStack::Reset(const Network& net, int max_ply) {
  entries_.assign(size_t(max_ply) + 1, Entry{});
  for (Entry& entry : entries_)
    entry.sums.assign(2 * size_t(net.hidden_size()), 0);
}

int AccumulatorStack::Evaluate(const Network& net, const Position& pos,
                               int ply) {
  const std::array<Bitboard, 12> pieces = PiecesOf(pos);
  Entry& entry = entries_[std::min<size_t>(ply, entries_.size() - 1)];
  // Afresh costs a row per piece; from a ply, a row per difference.
  int best_cost = std::popcount(pos.occupied());
  const Entry* base = nullptr;
  for (const Entry* candidate :
       {&entry > entries_.data() ? &entry - 1 : nullptr, &entry}) {
    if (candidate == nullptr || !candidate->valid) continue;
    const int cost = Differences(candidate->pieces, pieces);
    if (cost < best_cost) {
      best_cost = cost;
      base = candidate;
    }
  }
  if (base != &entry || best_cost > 0) Update(net, base, entry, pieces);
  const int hidden = net.hidden_size();
  const int16_t* white = entry.sums.data();
  const int16_t* black = white + hidden;
  return pos.side_to_move() == kWhite ? net.PerspectiveOutput(white, black)
                                      : net.PerspectiveOutput(black, white);
}

void AccumulatorStack::Update(const Network& net, const Entry* base,
                              Entry& entry,
                              const std::array<Bitboard, 12>& pieces) {
  static const std::array<Bitboard, 12> kEmpty{};
  const std::array<Bitboard, 12>& from = base ? base->pieces : kEmpty;
  const int hidden = net.hidden_size();
  for (Color perspective : {kWhite, kBlack}) {
    const int16_t* added[64];
    const int16_t* removed[64];
    int added_count = 0, removed_count = 0;
    for (int i = 0; i < 12; ++i) {
      const Piece piece = MakePiece(Color(i / 6), PieceType(i % 6));
      for (Bitboard b = pieces[i] & ~from[i]; b;) {
        added[added_count++] =
            net.row(NetworkInput(perspective, piece, PopLowest(b)));
      }
      for (Bitboard b = from[i] & ~pieces[i]; b;) {
        removed[removed_count++] =
            net.row(NetworkInput(perspective, piece, PopLowest(b)));
      }
    }
    const int16_t* start =
        base ? base->sums.data() + perspective * hidden : net.hidden_biases();
    AddRows(start, added, added_count, removed, removed_count, hidden,
            entry.sums.data() + perspective * hidden);
  }
  entry.pieces = pieces;
  entry.valid = true;
}

}  // namespace chess
