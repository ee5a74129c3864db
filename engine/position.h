// A chess position: bitboards plus a mailbox, updated by copy-make.
#ifndef ENGINE_POSITION_H_
#define ENGINE_POSITION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/bitboard.h"
#include "engine/types.h"

namespace chess {

inline constexpr absl::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
 public:
  // Parses a FEN (4 to 6 fields; missing clocks default to "0 1"). Rejects
  // anything that is not a legal position with a message naming the problem.
  // The en-passant square is kept only when an en-passant capture is legal, so
  // equal positions have equal keys. With `chess960`, castling rights may be
  // Shredder-FEN rook files (HAha) or X-FEN (KQkq: the outermost rook, a file
  // letter for an inner one), and castling moves go king takes own rook.
  static absl::StatusOr<Position> FromFen(absl::string_view fen,
                                          bool chess960 = false);
  static Position Start(bool chess960 = false);
  // X-FEN castling rights for a Chess960 position (KQkq where the rook is the
  // outermost, its file letter otherwise).
  std::string ToFen() const;

  // Plays a legal move (as produced by the move generator). Not checked.
  void MakeMove(Move m);
  // Passes the turn; only for positions not in check.
  void MakeNullMove();

  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard occupied() const { return by_color_[kWhite] | by_color_[kBlack]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const {
    return by_color_[c] & by_type_[t];
  }
  Square king_square(Color c) const { return LowestSquare(pieces(c, kKing)); }
  int castling_rights() const { return castling_; }
  // Chess960 rules: castling moves are encoded king to own rook, and the
  // rooks of each right stand where castling_rook() says.
  bool chess960() const { return chess960_; }
  // The rook of a castling right (index 0..3: K, Q, k, q).
  Square castling_rook(int index) const { return castling_rooks_[index]; }
  Square en_passant_square() const { return en_passant_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }
  Key key() const { return key_; }

  // Pieces of both colours attacking `s` given `occupied`.
  Bitboard AttackersTo(Square s, Bitboard occupied) const;
  bool IsAttackedBy(Color attacker, Square s) const {
    return AttackersTo(s, occupied()) & pieces(attacker);
  }
  // Computed once per move (search and move generation ask several times).
  Bitboard Checkers() const { return checkers_; }
  bool InCheck() const { return Checkers() != 0; }
  // Whether a legal move checks the enemy king, without making it: as
  // MakeMove followed by InCheck, for less work.
  bool GivesCheck(Move m) const;
  // The key after a legal move, save for castling's rook, en passant's
  // captured pawn and changes of castling rights and of the en-passant square:
  // enough to prefetch the table's slot before the move is made.
  Key KeyAfter(Move m) const;
  // Where a castling move takes the king and its rook.
  struct CastlingSquares {
    Square king_to, rook_from, rook_to;
  };
  CastlingSquares CastlingSquaresOf(Move m) const;
  // The piece a move captures (kNoPieceType for none), including en passant.
  PieceType CapturedType(Move m) const;
  // The Zobrist key recomputed from nothing; equals key() in a consistent
  // position.
  Key ComputeKey() const;
  Bitboard ComputeCheckers() const;

 private:
  void PutPiece(Piece p, Square s);
  void RemovePiece(Square s);
  void MovePiece(Square from, Square to);
  bool EnPassantCaptureIsLegal(Square ep) const;
  absl::Status Validate() const;
  absl::Status ParseCastling(absl::string_view field);
  // Chess960: the rights left after a move from `from` to `to` by `moved`.
  uint8_t Castling960After(Square from, Square to, Piece moved) const;
  void MakeCastling960(Move m);
  void MakeMove960(Move m);
  // The common end of MakeMove: side to move, counters, en passant, checks.
  inline void FinishMove(Color us, Move m);
  inline void MakePieceMove(Move m, Color us);

  Bitboard by_type_[6] = {};
  Bitboard by_color_[2] = {};
  Piece board_[64];
  Color side_ = kWhite;
  uint8_t castling_ = 0;
  bool chess960_ = false;
  uint8_t castling_rooks_[4] = {kH1, kA1, kH8,
                                kA8};  // squares, small: copied per move
  Square en_passant_ = kNoSquare;
  int halfmove_clock_ = 0;
  int fullmove_number_ = 1;
  Key key_ = 0;
  Bitboard checkers_ = 0;
};

char PieceToChar(Piece p);
std::string SquareName(Square s);
// "e4" -> square, or kNoSquare.
Square ParseSquare(absl::string_view name);

}  // namespace chess

#endif  // ENGINE_POSITION_H_
