#include "engine/position.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/zobrist.h"

namespace chess {
namespace {

constexpr absl::string_view kPieceChars = "PNBRQK  pnbrqk";

// Castling rights that survive a move touching each square.
constexpr std::array<uint8_t, 64> MakeCastlingMasks() {
  std::array<uint8_t, 64> masks{};
  for (auto& m : masks) m = kAllCastling;
  masks[kE1] &= ~(kWhiteKingSide | kWhiteQueenSide);
  masks[kH1] &= ~kWhiteKingSide;
  masks[kA1] &= ~kWhiteQueenSide;
  masks[kE8] &= ~(kBlackKingSide | kBlackQueenSide);
  masks[kH8] &= ~kBlackKingSide;
  masks[kA8] &= ~kBlackQueenSide;
  return masks;
}
constexpr std::array<uint8_t, 64> kCastlingMasks = MakeCastlingMasks();

absl::Status FenError(absl::string_view fen, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid FEN \"", fen, "\": ", what));
}

}  // namespace

char PieceToChar(Piece p) { return p == kNoPiece ? '.' : kPieceChars[p]; }

std::string SquareName(Square s) {
  if (s < 0 || s >= 64) return "-";
  return {char('a' + FileOf(s)), char('1' + RankOf(s))};
}

Square ParseSquare(absl::string_view name) {
  if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' ||
      name[1] > '8') {
    return kNoSquare;
  }
  return MakeSquare(name[0] - 'a', name[1] - '1');
}

Position Position::Start(bool chess960) {
  return *FromFen(kStartFen, chess960);
}

absl::StatusOr<Position> Position::FromFen(absl::string_view fen,
                                           bool chess960) {
  std::vector<absl::string_view> fields =
      absl::StrSplit(fen, ' ', absl::SkipEmpty());
  if (fields.size() < 4 || fields.size() > 6) {
    return FenError(
        fen, absl::StrCat("expected 4 to 6 fields, found ", fields.size()));
  }
  Position pos;
  std::fill(std::begin(pos.board_), std::end(pos.board_), kNoPiece);

  std::vector<absl::string_view> ranks = absl::StrSplit(fields[0], '/');
  if (ranks.size() != 8) {
    return FenError(
        fen, absl::StrCat("board has ", ranks.size(), " ranks, expected 8"));
  }
  for (int i = 0; i < 8; ++i) {
    int rank = 7 - i, file = 0;
    for (char c : ranks[i]) {
      if (c >= '1' && c <= '8') {
        file += c - '0';
      } else {
        size_t index = kPieceChars.find(c);
        if (index == absl::string_view::npos || c == ' ') {
          return FenError(
              fen, absl::StrCat("bad piece letter '", std::string(1, c), "'"));
        }
        if (file < 8) pos.PutPiece(Piece(index), MakeSquare(file, rank));
        ++file;
      }
      if (file > 8) break;
    }
    if (file != 8) {
      return FenError(fen, absl::StrCat("rank ", rank + 1, " (\"", ranks[i],
                                        "\") does not have 8 squares"));
    }
  }

  if (fields[1] == "w") {
    pos.side_ = kWhite;
  } else if (fields[1] == "b") {
    pos.side_ = kBlack;
  } else {
    return FenError(fen, absl::StrCat("side to move must be 'w' or 'b', not \"",
                                      fields[1], "\""));
  }

  pos.chess960_ = chess960;
  if (absl::Status status = pos.ParseCastling(fields[2]); !status.ok()) {
    return FenError(fen, status.message());
  }

  Square ep = kNoSquare;
  if (fields[3] != "-") {
    ep = ParseSquare(fields[3]);
    if (ep == kNoSquare) {
      return FenError(
          fen, absl::StrCat("bad en-passant square \"", fields[3], "\""));
    }
  }

  // Far above any real game, far below where counting on would overflow.
  constexpr int kMaxMoveCounter = 1000000;
  if (fields.size() >= 5 &&
      (!absl::SimpleAtoi(fields[4], &pos.halfmove_clock_) ||
       pos.halfmove_clock_ < 0 || pos.halfmove_clock_ > kMaxMoveCounter)) {
    return FenError(fen, absl::StrCat("bad halfmove clock \"", fields[4],
                                      "\" (0 to ", kMaxMoveCounter, ")"));
  }
  if (fields.size() >= 6 &&
      (!absl::SimpleAtoi(fields[5], &pos.fullmove_number_) ||
       pos.fullmove_number_ < 1 || pos.fullmove_number_ > kMaxMoveCounter)) {
    return FenError(fen, absl::StrCat("bad fullmove number \"", fields[5],
                                      "\" (1 to ", kMaxMoveCounter, ")"));
  }

  if (absl::Status status = pos.Validate(); !status.ok()) {
    return FenError(fen, status.message());
  }

  if (ep != kNoSquare) {
    Color us = pos.side_;
    int ep_rank = us == kWhite ? 5 : 2;
    Square pushed = ep + (us == kWhite ? -8 : 8);
    Square origin = ep + (us == kWhite ? 8 : -8);
    if (RankOf(ep) != ep_rank || pos.board_[ep] != kNoPiece ||
        pos.board_[origin] != kNoPiece ||
        pos.board_[pushed] != MakePiece(~us, kPawn)) {
      return FenError(fen, absl::StrCat("en-passant square ", fields[3],
                                        " does not follow a double pawn push"));
    }
    if (pos.EnPassantCaptureIsLegal(ep)) pos.en_passant_ = ep;
  }
  pos.key_ = pos.ComputeKey();
  pos.checkers_ = pos.ComputeCheckers();
  return pos;
}

absl::Status Position::Validate() const {
  for (Color c : {kWhite, kBlack}) {
    const char* name = c == kWhite ? "white" : "black";
    if (PopCount(pieces(c, kKing)) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " has ", PopCount(pieces(c, kKing)),
                       " kings, expected exactly 1"));
    }
    if (PopCount(pieces(c, kPawn)) > 8 || PopCount(pieces(c)) > 16) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " has too many pieces or pawns"));
    }
  }
  if (pieces(kPawn) & (kRank1 | kRank8)) {
    return absl::InvalidArgumentError(
        "a pawn stands on the first or last rank");
  }
  if (IsAttackedBy(side_, king_square(~side_))) {
    return absl::InvalidArgumentError("the side not to move is in check");
  }
  struct Needed {
    CastlingRight right;
    Piece king, rook;
    Square king_square, rook_square;
    char letter;
  };
  constexpr Needed kNeeded[] = {
      {kWhiteKingSide, MakePiece(kWhite, kKing), MakePiece(kWhite, kRook), kE1,
       kH1, 'K'},
      {kWhiteQueenSide, MakePiece(kWhite, kKing), MakePiece(kWhite, kRook), kE1,
       kA1, 'Q'},
      {kBlackKingSide, MakePiece(kBlack, kKing), MakePiece(kBlack, kRook), kE8,
       kH8, 'k'},
      {kBlackQueenSide, MakePiece(kBlack, kKing), MakePiece(kBlack, kRook), kE8,
       kA8, 'q'},
  };
  if (chess960_) return absl::OkStatus();  // ParseCastling found the rooks
  for (const Needed& n : kNeeded) {
    if ((castling_ & n.right) &&
        (board_[n.king_square] != n.king || board_[n.rook_square] != n.rook)) {
      return absl::InvalidArgumentError(
          absl::StrCat("castling right '", std::string(1, n.letter),
                       "' needs the king on ", SquareName(n.king_square),
                       " and a rook on ", SquareName(n.rook_square)));
    }
  }
  return absl::OkStatus();
}

std::string Position::ToFen() const {
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = board_[MakeSquare(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += PieceToChar(p);
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += side_ == kWhite ? " w " : " b ";
  if (!castling_) fen += '-';
  for (int i = 0; i < 4; ++i) {
    if (!(castling_ & (1 << i))) continue;
    const Square rook = castling_rooks_[i];
    const Color c = i < 2 ? kWhite : kBlack;
    // X-FEN: the file letter only where another rook stands further out.
    const Bitboard beyond =
        (i % 2 == 0 ? SquaresAbove(rook) : SquaresBelow(rook)) &
        RankBB(RankOf(rook)) & pieces(c, kRook);
    if (!chess960_ || !beyond) {
      fen += "KQkq"[i];
    } else {
      fen += char((c == kWhite ? 'A' : 'a') + FileOf(rook));
    }
  }
  absl::StrAppend(&fen, " ", SquareName(en_passant_), " ", halfmove_clock_, " ",
                  fullmove_number_);
  return fen;
}

void Position::PutPiece(Piece p, Square s) {
  board_[s] = p;
  by_type_[TypeOf(p)] |= SquareBB(s);
  by_color_[ColorOf(p)] |= SquareBB(s);
  key_ ^= kZobrist.piece_square[p][s];
}

void Position::RemovePiece(Square s) {
  Piece p = board_[s];
  by_type_[TypeOf(p)] ^= SquareBB(s);
  by_color_[ColorOf(p)] ^= SquareBB(s);
  board_[s] = kNoPiece;
  key_ ^= kZobrist.piece_square[p][s];
}

void Position::MovePiece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard from_to = SquareBB(from) | SquareBB(to);
  by_type_[TypeOf(p)] ^= from_to;
  by_color_[ColorOf(p)] ^= from_to;
  board_[from] = kNoPiece;
  board_[to] = p;
  key_ ^= kZobrist.piece_square[p][from] ^ kZobrist.piece_square[p][to];
}

// The piece to its square, what it captures off the board, a promotion made:
// all of a move but castling's rook.
__attribute__((always_inline)) inline void Position::MakePieceMove(Move m,
                                                                   Color us) {
  const Square from = m.from(), to = m.to();
  if (m.flag() == kEnPassant) {
    RemovePiece(to + (us == kWhite ? -8 : 8));
  } else if (m.is_capture()) {
    RemovePiece(to);
  }
  MovePiece(from, to);
  if (m.is_promotion()) {
    RemovePiece(to);
    PutPiece(MakePiece(us, m.promotion_type()), to);
  }
}

__attribute__((always_inline)) inline void Position::FinishMove(Color us,
                                                                Move m) {
  const Square from = m.from(), to = m.to();

  side_ = ~us;
  key_ ^= kZobrist.black_to_move;
  if (us == kBlack) ++fullmove_number_;

  if (m.flag() == kDoublePush) {
    Square ep = (from + to) / 2;
    if ((PawnAttacks(us, ep) & pieces(side_, kPawn)) &&
        EnPassantCaptureIsLegal(ep)) {
      en_passant_ = ep;
      key_ ^= kZobrist.en_passant_file[FileOf(ep)];
    }
  }
  checkers_ = ComputeCheckers();
}

void Position::MakeMove(Move m) {
  if (chess960_) [[unlikely]] {
    MakeMove960(m);
    return;
  }
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const int flag = m.flag();
  const bool is_pawn = TypeOf(board_[from]) == kPawn;

  key_ ^= kZobrist.castling[castling_];
  if (en_passant_ != kNoSquare) {
    key_ ^= kZobrist.en_passant_file[FileOf(en_passant_)];
    en_passant_ = kNoSquare;
  }
  ++halfmove_clock_;
  if (is_pawn || m.is_capture()) halfmove_clock_ = 0;

  MakePieceMove(m, us);
  if (flag == kKingCastle) {
    MovePiece(to + 1, to - 1);
  } else if (flag == kQueenCastle) {
    MovePiece(to - 2, to + 1);
  }
  castling_ &= kCastlingMasks[from] & kCastlingMasks[to];
  key_ ^= kZobrist.castling[castling_];
  FinishMove(us, m);
}

// Chess960 rules: castling rights by the rooks' squares, castling as king
// takes own rook (the king and rook may land on each other's squares).
void Position::MakeMove960(Move m) {
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  key_ ^= kZobrist.castling[castling_];
  if (en_passant_ != kNoSquare) {
    key_ ^= kZobrist.en_passant_file[FileOf(en_passant_)];
    en_passant_ = kNoSquare;
  }
  ++halfmove_clock_;
  if (TypeOf(board_[from]) == kPawn || m.is_capture()) halfmove_clock_ = 0;
  castling_ = Castling960After(from, to, board_[from]);
  if (m.is_castle()) {
    MakeCastling960(m);
  } else {
    MakePieceMove(m, us);
  }
  key_ ^= kZobrist.castling[castling_];
  FinishMove(us, m);
}

Key Position::KeyAfter(Move m) const {
  const Square from = m.from(), to = m.to();
  const Piece moved = board_[from];
  const Piece arrived =
      m.is_promotion() ? MakePiece(side_, m.promotion_type()) : moved;
  Key key = key_ ^ kZobrist.black_to_move ^ kZobrist.piece_square[moved][from] ^
            kZobrist.piece_square[arrived][to];
  if (board_[to] != kNoPiece) key ^= kZobrist.piece_square[board_[to]][to];
  return key;
}

bool Position::GivesCheck(Move m) const {
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Square king = king_square(~us);
  const PieceType moved =
      m.is_promotion() ? m.promotion_type() : TypeOf(board_[from]);
  if (moved == kKnight && (KnightAttacks(to) & SquareBit(king))) return true;
  if (moved == kPawn && (PawnAttacks(us, to) & SquareBit(king))) return true;
  // Direct checks by sliders and every discovered check: our sliders after
  // the move, against the king, through the squares occupied after it.
  Bitboard occupied = (this->occupied() & ~SquareBit(from)) | SquareBit(to);
  Bitboard diagonal =
      (pieces(us, kBishop) | pieces(us, kQueen)) & ~SquareBit(from);
  Bitboard straight =
      (pieces(us, kRook) | pieces(us, kQueen)) & ~SquareBit(from);
  if (moved == kBishop || moved == kQueen) diagonal |= SquareBit(to);
  if (moved == kRook || moved == kQueen) straight |= SquareBit(to);
  if (m.flag() == kEnPassant) {
    occupied &= ~SquareBit(to + (us == kWhite ? -8 : 8));
  } else if (m.is_castle()) {
    const CastlingSquares c = CastlingSquaresOf(m);
    occupied = (this->occupied() & ~SquareBit(from) & ~SquareBit(c.rook_from)) |
               SquareBit(c.king_to) | SquareBit(c.rook_to);
    straight = (straight & ~SquareBit(c.rook_from)) | SquareBit(c.rook_to);
  }
  return (BishopAttacks(king, occupied) & diagonal) ||
         (RookAttacks(king, occupied) & straight);
}

void Position::MakeNullMove() {
  if (en_passant_ != kNoSquare) {
    key_ ^= kZobrist.en_passant_file[FileOf(en_passant_)];
    en_passant_ = kNoSquare;
  }
  ++halfmove_clock_;
  if (side_ == kBlack) ++fullmove_number_;
  side_ = ~side_;
  key_ ^= kZobrist.black_to_move;
  checkers_ = 0;  // only made when not in check, and passing gives no check
}

bool Position::EnPassantCaptureIsLegal(Square ep) const {
  const Color us = side_, them = ~side_;
  const Square captured = ep + (us == kWhite ? -8 : 8);
  const Square king = king_square(us);
  Bitboard capturers = PawnAttacks(them, ep) & pieces(us, kPawn);
  while (capturers) {
    Square from = PopLowest(capturers);
    Bitboard occ =
        (occupied() ^ SquareBB(from) ^ SquareBB(captured)) | SquareBB(ep);
    Bitboard attackers =
        AttackersTo(king, occ) & pieces(them) & ~SquareBB(captured);
    if (!attackers) return true;
  }
  return false;
}

Bitboard Position::AttackersTo(Square s, Bitboard occ) const {
  return (PawnAttacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (PawnAttacks(kWhite, s) & pieces(kBlack, kPawn)) |
         (KnightAttacks(s) & pieces(kKnight)) |
         (KingAttacks(s) & pieces(kKing)) |
         (RookAttacks(s, occ) & (pieces(kRook) | pieces(kQueen))) |
         (BishopAttacks(s, occ) & (pieces(kBishop) | pieces(kQueen)));
}

Bitboard Position::ComputeCheckers() const {
  // Only the enemy's pieces, and no king: cheaper than AttackersTo on every
  // move.
  const Color them = ~side_;
  const Square king = king_square(side_);
  const Bitboard occ = occupied();
  const Bitboard queens = pieces(them, kQueen);
  return (PawnAttacks(side_, king) & pieces(them, kPawn)) |
         (KnightAttacks(king) & pieces(them, kKnight)) |
         (RookAttacks(king, occ) & (pieces(them, kRook) | queens)) |
         (BishopAttacks(king, occ) & (pieces(them, kBishop) | queens));
}

PieceType Position::CapturedType(Move m) const {
  if (m.flag() == kEnPassant) return kPawn;
  if (!m.is_capture()) return kNoPieceType;
  return TypeOf(board_[m.to()]);
}

Position::CastlingSquares Position::CastlingSquaresOf(Move m) const {
  const Square from = m.from(), to = m.to();
  const bool king_side = m.flag() == kKingCastle;
  if (!chess960_) {
    return {to, king_side ? to + 1 : to - 2, king_side ? to - 1 : to + 1};
  }
  const int rank = RankOf(from);
  return {MakeSquare(king_side ? 6 : 2, rank), to,
          MakeSquare(king_side ? 5 : 3, rank)};
}

absl::Status Position::ParseCastling(absl::string_view field) {
  if (field == "-") return absl::OkStatus();
  for (char c : field) {
    const Color color = absl::ascii_isupper(c) ? kWhite : kBlack;
    const char lower = absl::ascii_tolower(c);
    const int rank = color == kWhite ? 0 : 7;
    const Bitboard rooks = pieces(color, kRook) & RankBB(rank);
    const Bitboard king = pieces(color, kKing);
    const bool king_home = king & RankBB(rank);
    const Square king_square = king ? LowestSquare(king) : kNoSquare;
    Square rook = kNoSquare;
    bool king_side;
    if (lower == 'k' || lower == 'q') {
      king_side = lower == 'k';
      if (!chess960_) {
        rook = MakeSquare(king_side ? 7 : 0, rank);
      } else if (king_home) {
        // X-FEN: the outermost rook on that side of the king.
        const Bitboard side = rooks & (king_side ? SquaresAbove(king_square)
                                                 : SquaresBelow(king_square));
        if (side) rook = king_side ? HighestSquare(side) : LowestSquare(side);
      }
    } else if (lower >= 'a' && lower <= 'h') {
      if (!chess960_) {
        return absl::InvalidArgumentError(absl::StrCat(
            "castling letter '", std::string(1, c),
            "' (Shredder-FEN) needs Chess960 (UCI_Chess960, variant "
            "fischerandom)"));
      }
      rook = MakeSquare(lower - 'a', rank);
      king_side = king_home && FileOf(rook) > FileOf(king_square);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("bad castling letter '", std::string(1, c), "'"));
    }
    if (chess960_ &&
        (!king_home || rook == kNoSquare || !(rooks & SquareBB(rook)) ||
         FileOf(king_square) == 0 || FileOf(king_square) == 7)) {
      return absl::InvalidArgumentError(
          absl::StrCat("castling right '", std::string(1, c),
                       "' needs the king on its first rank between rooks and "
                       "a rook on that side"));
    }
    const int index = (color == kWhite ? 0 : 2) + (king_side ? 0 : 1);
    if (castling_ & (1 << index)) {
      return absl::InvalidArgumentError(
          absl::StrCat("castling letter '", std::string(1, c), "' repeated"));
    }
    castling_ |= 1 << index;
    castling_rooks_[index] = uint8_t(rook);
  }
  return absl::OkStatus();
}

uint8_t Position::Castling960After(Square from, Square to, Piece moved) const {
  uint8_t rights = castling_;
  if (!rights) return rights;
  if (TypeOf(moved) == kKing) {
    rights &= ColorOf(moved) == kWhite ? ~(kWhiteKingSide | kWhiteQueenSide)
                                       : ~(kBlackKingSide | kBlackQueenSide);
  }
  for (int i = 0; i < 4; ++i) {
    if (castling_rooks_[i] == from || castling_rooks_[i] == to)
      rights &= ~(1 << i);
  }
  return rights;
}

void Position::MakeCastling960(Move m) {
  const CastlingSquares c = CastlingSquaresOf(m);
  const Piece king = board_[m.from()], rook = board_[c.rook_from];
  RemovePiece(m.from());
  RemovePiece(c.rook_from);
  PutPiece(king, c.king_to);
  PutPiece(rook, c.rook_to);
}

Key Position::ComputeKey() const {
  Key key = 0;
  for (Square s = 0; s < 64; ++s) {
    if (board_[s] != kNoPiece) key ^= kZobrist.piece_square[board_[s]][s];
  }
  key ^= kZobrist.castling[castling_];
  if (en_passant_ != kNoSquare) {
    key ^= kZobrist.en_passant_file[FileOf(en_passant_)];
  }
  if (side_ == kBlack) key ^= kZobrist.black_to_move;
  return key;
}

}  // namespace chess
