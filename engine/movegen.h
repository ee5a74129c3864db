// Legal move generation. One templated generator feeds a "sink": a move list
// for search, or a counter that adds whole target sets by popcount for
// bulk-counting perft leaves.
#ifndef ENGINE_MOVEGEN_H_
#define ENGINE_MOVEGEN_H_

#include <cstddef>

#include "engine/bitboard.h"
#include "engine/position.h"
#include "engine/types.h"

namespace chess {

enum class GenMode {
  kAll,
  kNoisy,  // captures (including en passant) and promotions
};

class MoveList {
 public:
  // The storage is left uninitialised: zeroing 512 bytes per node cost 2-3 % of
  // search.
  MoveList() {}

  // Sink interface used by the generator.
  void AddPiece(Square from, Bitboard targets, Bitboard enemies) {
    for (Bitboard b = targets & enemies; b;)
      Add(Move(from, PopLowest(b), kCapture));
    for (Bitboard b = targets & ~enemies; b;)
      Add(Move(from, PopLowest(b), kQuiet));
  }
  void AddPawn(Bitboard targets, int delta, int flag) {
    while (targets) {
      Square to = PopLowest(targets);
      Add(Move(to - delta, to, flag));
    }
  }
  void AddPromotions(Bitboard targets, int delta, int base_flag) {
    while (targets) {
      Square to = PopLowest(targets);
      for (int p = 3; p >= 0; --p) Add(Move(to - delta, to, base_flag + p));
    }
  }
  void Add(Move m) { moves_[size_++] = m; }

  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](size_t i) const { return moves_[i]; }
  bool Contains(Move m) const;
  // The move from `from` to `to` promoting to `promotion` (kNoPieceType for
  // none), or Move::None().
  Move Find(Square from, Square to, PieceType promotion) const;

 private:
  union {
    Move moves_[256];  // 218 is the most legal moves of any known position
  };
  size_t size_ = 0;
};

class MoveCounter {
 public:
  void AddPiece(Square, Bitboard targets, Bitboard) {
    count_ += PopCount(targets);
  }
  void AddPawn(Bitboard targets, int, int) { count_ += PopCount(targets); }
  void AddPromotions(Bitboard targets, int, int) {
    count_ += 4 * PopCount(targets);
  }
  void Add(Move) { ++count_; }
  uint64_t count() const { return count_; }

 private:
  uint64_t count_ = 0;
};

namespace internal {

// Whether the side not to move (kUs's opponent) attacks `s` with `occupied` as
// the board, its rooks and queens, bishops and queens given.
template <Color kUs>
inline bool AttackedBy(const Position& pos, Square s, Bitboard occupied,
                       Bitboard rook_queens, Bitboard bishop_queens) {
  constexpr Color kThem = ~kUs;
  return (PawnAttacks(kUs, s) & pos.pieces(kThem, kPawn)) ||
         (KnightAttacks(s) & pos.pieces(kThem, kKnight)) ||
         (KingAttacks(s) & pos.pieces(kThem, kKing)) ||
         (RookAttacks(s, occupied) & rook_queens) ||
         (BishopAttacks(s, occupied) & bishop_queens);
}

// Chess960 castling (encoded king takes own rook): the squares between king
// and rook and their destinations empty but for the two, and no square the
// king crosses or lands on attacked once both have left.
template <Color kUs, class Sink>
void GenerateCastling960(const Position& pos, Sink& sink) {
  constexpr Color kThem = ~kUs;
  const Square king_from = pos.king_square(kUs);
  for (int side = 0; side < 2; ++side) {
    const int index = (kUs == kWhite ? 0 : 2) + side;
    if (!(pos.castling_rights() & (1 << index))) continue;
    const Move m(king_from, pos.castling_rook(index),
                 side == 0 ? kKingCastle : kQueenCastle);
    const Position::CastlingSquares c = pos.CastlingSquaresOf(m);
    const Bitboard movers = SquareBB(king_from) | SquareBB(c.rook_from);
    const Bitboard must_be_empty =
        (Between(king_from, c.king_to) | SquareBB(c.king_to) |
         Between(c.rook_from, c.rook_to) | SquareBB(c.rook_to)) &
        ~movers;
    const Bitboard occupied = pos.occupied() ^ movers;
    if (occupied & must_be_empty) continue;
    const Bitboard rook_queens =
        pos.pieces(kThem, kRook) | pos.pieces(kThem, kQueen);
    const Bitboard bishop_queens =
        pos.pieces(kThem, kBishop) | pos.pieces(kThem, kQueen);
    bool safe = true;
    for (Bitboard path = Between(king_from, c.king_to) | SquareBB(c.king_to);
         path && safe;) {
      const Square s = PopLowest(path);
      safe = !AttackedBy<kUs>(pos, s, occupied, rook_queens, bishop_queens);
    }
    if (safe) sink.Add(m);
  }
}

template <Color kUs, GenMode kMode, class Sink>
void GenerateLegal(const Position& pos, Sink& sink) {
  constexpr Color kThem = ~kUs;
  constexpr int kUp = kUs == kWhite ? 8 : -8;
  constexpr int kUpLeft = kUs == kWhite ? 7 : -9;
  constexpr int kUpRight = kUs == kWhite ? 9 : -7;
  constexpr Bitboard kPromotionRank = kUs == kWhite ? kRank7 : kRank2;
  constexpr Bitboard kDoublePushRank = kUs == kWhite ? kRank3 : kRank6;

  const Bitboard us = pos.pieces(kUs), them = pos.pieces(kThem);
  const Bitboard occupied = us | them;
  const Square king = pos.king_square(kUs);
  const Bitboard their_rook_queens =
      pos.pieces(kThem, kRook) | pos.pieces(kThem, kQueen);
  const Bitboard their_bishop_queens =
      pos.pieces(kThem, kBishop) | pos.pieces(kThem, kQueen);

  const Bitboard checkers = pos.Checkers();

  // King moves: a target is safe if no enemy attacks it once our king has left
  // its square.
  const Bitboard king_targets_mask = kMode == GenMode::kAll ? ~us : them;
  Bitboard king_targets = KingAttacks(king) & king_targets_mask;
  if (king_targets) {
    const Bitboard occ_without_king = occupied ^ SquareBB(king);
    Bitboard safe = 0;
    while (king_targets) {
      Square to = PopLowest(king_targets);
      if (AttackedBy<kUs>(pos, to, occ_without_king, their_rook_queens,
                          their_bishop_queens)) {
        continue;
      }
      safe |= SquareBB(to);
    }
    sink.AddPiece(king, safe, them);
  }
  if (MoreThanOne(checkers)) return;

  // Squares a non-king move must land on: anywhere, or blocking/capturing the
  // checker.
  const Bitboard check_mask =
      checkers ? Between(king, LowestSquare(checkers)) | checkers
               : ~Bitboard{0};
  const Bitboard target_mask =
      check_mask & (kMode == GenMode::kAll ? ~us : them);

  // Pinned pieces: ours, alone between our king and an enemy slider.
  Bitboard pinned = 0;
  Bitboard snipers = (RookAttacks(king, them) & their_rook_queens) |
                     (BishopAttacks(king, them) & their_bishop_queens);
  while (snipers) {
    Bitboard blockers = Between(king, PopLowest(snipers)) & occupied;
    if (!MoreThanOne(blockers)) pinned |= blockers & us;
  }

  // Pawns.
  const Bitboard pawns = pos.pieces(kUs, kPawn);
  const Bitboard empty = ~occupied;
  {
    const Bitboard free_pawns = pawns & ~pinned;
    const Bitboard lower = free_pawns & ~kPromotionRank;
    const Bitboard promoting = free_pawns & kPromotionRank;
    if constexpr (kMode == GenMode::kAll) {
      Bitboard single = Shift<kUp>(lower) & empty;
      Bitboard dbl = Shift<kUp>(single & kDoublePushRank) & empty & check_mask;
      sink.AddPawn(single & check_mask, kUp, kQuiet);
      sink.AddPawn(dbl, 2 * kUp, kDoublePush);
    }
    sink.AddPawn(Shift<kUpLeft>(lower) & them & check_mask, kUpLeft, kCapture);
    sink.AddPawn(Shift<kUpRight>(lower) & them & check_mask, kUpRight,
                 kCapture);
    if (promoting) {
      sink.AddPromotions(Shift<kUp>(promoting) & empty & check_mask, kUp,
                         kPromotion);
      sink.AddPromotions(Shift<kUpLeft>(promoting) & them & check_mask, kUpLeft,
                         kPromotionCapture);
      sink.AddPromotions(Shift<kUpRight>(promoting) & them & check_mask,
                         kUpRight, kPromotionCapture);
    }
    // Pinned pawns move only along their pin line.
    for (Bitboard b = pawns & pinned; b;) {
      Square from = PopLowest(b);
      const Bitboard pin_line = Line(king, from);
      const Bitboard from_bb = SquareBB(from);
      Bitboard push = Shift<kUp>(from_bb) & empty;
      Bitboard dbl = Shift<kUp>(push & kDoublePushRank) & empty;
      Bitboard captures = PawnAttacks(kUs, from) & them;
      push &= pin_line & check_mask;
      dbl &= pin_line & check_mask;
      captures &= pin_line & check_mask;
      if (from_bb & kPromotionRank) {
        sink.AddPromotions(push, kUp, kPromotion);
        for (Bitboard c = captures; c;) {
          Square to = PopLowest(c);
          sink.AddPromotions(SquareBB(to), to - from, kPromotionCapture);
        }
      } else {
        if constexpr (kMode == GenMode::kAll) {
          sink.AddPawn(push, kUp, kQuiet);
          sink.AddPawn(dbl, 2 * kUp, kDoublePush);
        }
        for (Bitboard c = captures; c;) {
          Square to = PopLowest(c);
          sink.AddPawn(SquareBB(to), to - from, kCapture);
        }
      }
    }
    // En passant: rare, so check it exactly by trying it on the occupancy.
    const Square ep = pos.en_passant_square();
    if (ep != kNoSquare) {
      const Square captured = ep - kUp;
      for (Bitboard b = PawnAttacks(kThem, ep) & pawns; b;) {
        Square from = PopLowest(b);
        Bitboard occ =
            (occupied ^ SquareBB(from) ^ SquareBB(captured)) | SquareBB(ep);
        Bitboard attackers =
            (RookAttacks(king, occ) & their_rook_queens) |
            (BishopAttacks(king, occ) & their_bishop_queens) |
            (checkers & ~SquareBB(captured) &
             (pos.pieces(kThem, kPawn) | pos.pieces(kThem, kKnight)));
        if (!attackers) sink.Add(Move(from, ep, kEnPassant));
      }
    }
  }

  // Knights (a pinned knight never moves), then sliders.
  for (Bitboard b = pos.pieces(kUs, kKnight) & ~pinned; b;) {
    Square from = PopLowest(b);
    sink.AddPiece(from, KnightAttacks(from) & target_mask, them);
  }
  const Bitboard queens = pos.pieces(kUs, kQueen);
  for (Bitboard b = pos.pieces(kUs, kBishop) | queens; b;) {
    Square from = PopLowest(b);
    Bitboard targets = BishopAttacks(from, occupied) & target_mask;
    if (pinned & SquareBB(from)) targets &= Line(king, from);
    if (queens & SquareBB(from)) {
      Bitboard rook_targets = RookAttacks(from, occupied) & target_mask;
      if (pinned & SquareBB(from)) rook_targets &= Line(king, from);
      targets |= rook_targets;
    }
    sink.AddPiece(from, targets, them);
  }
  for (Bitboard b = pos.pieces(kUs, kRook); b;) {
    Square from = PopLowest(b);
    Bitboard targets = RookAttacks(from, occupied) & target_mask;
    if (pinned & SquareBB(from)) targets &= Line(king, from);
    sink.AddPiece(from, targets, them);
  }

  // Castling: never out of, through or into check.
  if constexpr (kMode == GenMode::kAll) {
    if (checkers) return;
    constexpr int kKingSide = kUs == kWhite ? kWhiteKingSide : kBlackKingSide;
    constexpr int kQueenSide =
        kUs == kWhite ? kWhiteQueenSide : kBlackQueenSide;
    constexpr Square kKingFrom = kUs == kWhite ? kE1 : kE8;
    const int rights = pos.castling_rights();
    auto attacked = [&](Square s) {
      return AttackedBy<kUs>(pos, s, occupied, their_rook_queens,
                             their_bishop_queens);
    };
    if (pos.chess960()) [[unlikely]] {
      GenerateCastling960<kUs>(pos, sink);
      return;
    }
    if ((rights & kKingSide) &&
        !(occupied & (SquareBB(kKingFrom + 1) | SquareBB(kKingFrom + 2))) &&
        !attacked(kKingFrom + 1) && !attacked(kKingFrom + 2)) {
      sink.Add(Move(kKingFrom, kKingFrom + 2, kKingCastle));
    }
    if ((rights & kQueenSide) &&
        !(occupied & (SquareBB(kKingFrom - 1) | SquareBB(kKingFrom - 2) |
                      SquareBB(kKingFrom - 3))) &&
        !attacked(kKingFrom - 1) && !attacked(kKingFrom - 2)) {
      sink.Add(Move(kKingFrom, kKingFrom - 2, kQueenCastle));
    }
  }
}

}  // namespace internal

template <GenMode kMode = GenMode::kAll, class Sink>
void GenerateLegal(const Position& pos, Sink& sink) {
  if (pos.side_to_move() == kWhite) {
    internal::GenerateLegal<kWhite, kMode>(pos, sink);
  } else {
    internal::GenerateLegal<kBlack, kMode>(pos, sink);
  }
}

inline MoveList LegalMoves(const Position& pos) {
  MoveList list;
  GenerateLegal(pos, list);
  return list;
}

// The legal move from `from` to `to` (promoting to `promotion`, or
// kNoPieceType), exactly as the generator makes it, or Move::None(). Checks
// the one move instead of generating all: replaying a 100,000-game log asks
// this fifteen million times.
Move FindLegalMove(const Position& pos, Square from, Square to,
                   PieceType promotion);

inline uint64_t CountLegalMoves(const Position& pos) {
  MoveCounter counter;
  GenerateLegal(pos, counter);
  return counter.count();
}

}  // namespace chess

#endif  // ENGINE_MOVEGEN_H_
