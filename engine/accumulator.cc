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
  cache_.assign(net.king_buckets() ? 2 * size_t(net.views()) : 0, Cached{});
  for (Cached& cached : cache_)
    cached.sums.assign(size_t(net.hidden_size()), 0);
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
  const int pieces_on_board = std::popcount(pos.occupied());
  return pos.side_to_move() == kWhite
             ? net.PerspectiveOutput(white, black, pieces_on_board)
             : net.PerspectiveOutput(black, white, pieces_on_board);
}

[[gnu::always_inline]] inline void AccumulatorStack::UpdateSide(
    const Network& net, Color perspective, const InputView& view,
    const std::array<Bitboard, 12>* from, const int16_t* start,
    const std::array<Bitboard, 12>& pieces, int16_t* out) {
  static const std::array<Bitboard, 12> kEmpty{};
  const std::array<Bitboard, 12>& before = from ? *from : kEmpty;
  const int16_t* added[64];
  const int16_t* removed[64];
  int added_count = 0, removed_count = 0;
  for (int i = 0; i < 12; ++i) {
    const Piece piece = MakePiece(Color(i / 6), PieceType(i % 6));
    for (Bitboard b = pieces[i] & ~before[i]; b;) {
      added[added_count++] = net.row(
          ViewedInput(view, NetworkInput(perspective, piece, PopLowest(b))));
    }
    for (Bitboard b = before[i] & ~pieces[i]; b;) {
      removed[removed_count++] = net.row(
          ViewedInput(view, NetworkInput(perspective, piece, PopLowest(b))));
    }
  }
  AddRows(from ? start : net.hidden_biases(), added, added_count, removed,
          removed_count, net.hidden_size(), out);
}

void AccumulatorStack::Update(const Network& net, const Entry* base,
                              Entry& entry,
                              const std::array<Bitboard, 12>& pieces) {
  const int hidden = net.hidden_size();
  for (Color perspective : {kWhite, kBlack}) {
    const InputView view =
        net.king_buckets()
            ? net.ViewOf(perspective,
                         LowestSquare(pieces[perspective * 6 + kKing]))
            : InputView{};
    int16_t* out = entry.sums.data() + perspective * hidden;
    if (base && base->view[perspective] == view.key) {
      UpdateSide(net, perspective, view, &base->pieces,
                 base->sums.data() + perspective * hidden, pieces, out);
    } else if (!cache_.empty()) {
      // Another view than the ply before: from the refresh cache.
      Cached& cached = cache_[perspective * size_t(net.views()) + view.key];
      UpdateSide(net, perspective, view,
                 cached.valid ? &cached.pieces : nullptr, cached.sums.data(),
                 pieces, out);
      std::copy_n(out, hidden, cached.sums.data());
      cached.pieces = pieces;
      cached.valid = true;
    } else {
      UpdateSide(net, perspective, view, nullptr, nullptr, pieces, out);
    }
    entry.view[perspective] = view.key;
  }
  entry.pieces = pieces;
  entry.valid = true;
}

}  // namespace chess
