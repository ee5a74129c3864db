#include "engine/notation.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/movegen.h"

namespace chess {
namespace {

constexpr absl::string_view kSanPieceLetters = "PNBRQK";

PieceType SanPieceType(char c) {
  size_t i = kSanPieceLetters.find(c);
  return i == absl::string_view::npos ? kNoPieceType : PieceType(i);
}

}  // namespace

std::string ToUci(Move m) {
  if (m.is_none()) return "0000";
  std::string text = SquareName(m.from()) + SquareName(m.to());
  if (m.is_promotion()) text += "nbrq"[m.promotion_type() - kKnight];
  return text;
}

namespace {

// The squares and promotion of a UCI move ("e7e8q"), or false.
bool SplitUci(absl::string_view text, Square* from, Square* to,
              PieceType* promotion) {
  if (text.size() != 4 && text.size() != 5) return false;
  *from = ParseSquare(text.substr(0, 2));
  *to = ParseSquare(text.substr(2, 2));
  *promotion = text.size() == 5 ? SanPieceType(absl::ascii_toupper(text[4]))
                                : kNoPieceType;
  const bool valid_promotion =
      text.size() == 4 || (*promotion >= kKnight && *promotion <= kQueen &&
                           absl::ascii_islower(text[4]));
  return *from != kNoSquare && *to != kNoSquare && valid_promotion;
}

absl::Status NotLegal(const Position& pos, absl::string_view text) {
  return absl::InvalidArgumentError(
      absl::StrCat("\"", text, "\" is not a legal move in ", pos.ToFen()));
}

}  // namespace

absl::StatusOr<Move> ParseUci(const Position& pos, absl::string_view text) {
  Square from, to;
  PieceType promotion;
  if (SplitUci(text, &from, &to, &promotion)) {
    const Move m = FindLegalMove(pos, from, to, promotion);
    if (!m.is_none()) return m;
  }
  return NotLegal(pos, text);
}

std::string ToSan(const Position& pos, Move m) {
  std::string san;
  const PieceType type = TypeOf(pos.piece_on(m.from()));
  if (m.flag() == kKingCastle) {
    san = "O-O";
  } else if (m.flag() == kQueenCastle) {
    san = "O-O-O";
  } else if (type == kPawn) {
    if (m.is_capture()) san = {char('a' + FileOf(m.from())), 'x'};
    san += SquareName(m.to());
    if (m.is_promotion()) {
      san += '=';
      san += kSanPieceLetters[m.promotion_type()];
    }
  } else {
    san = kSanPieceLetters[type];
    // The other pieces of this kind that reach the square (attacks are
    // symmetric): usually none, so the legal moves need not be generated.
    Bitboard rivals = AttacksOf(type, m.to(), pos.occupied()) &
                      pos.pieces(pos.side_to_move(), type) &
                      ~SquareBB(m.from());
    bool ambiguous = false, same_file = false, same_rank = false;
    while (rivals) {
      const Square other = PopLowest(rivals);
      if (FindLegalMove(pos, other, m.to(), kNoPieceType).is_none()) continue;
      ambiguous = true;
      same_file |= FileOf(other) == FileOf(m.from());
      same_rank |= RankOf(other) == RankOf(m.from());
    }
    if (ambiguous) {
      if (!same_file) {
        san += char('a' + FileOf(m.from()));
      } else if (!same_rank) {
        san += char('1' + RankOf(m.from()));
      } else {
        san += SquareName(m.from());
      }
    }
    if (m.is_capture()) san += 'x';
    san += SquareName(m.to());
  }
  Position after = pos;
  after.MakeMove(m);
  if (after.InCheck()) san += LegalMoves(after).empty() ? '#' : '+';
  return san;
}

absl::StatusOr<Move> ParseSan(const Position& pos, absl::string_view text) {
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("SAN move \"", text, "\" ", why, " in ", pos.ToFen()));
  };
  absl::string_view s = text;
  s = absl::StripSuffix(s, "e.p.");
  while (!s.empty() && absl::StrContains("+#!? ", s.back())) s.remove_suffix(1);
  if (s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0") {
    int flag = s.size() == 3 ? kKingCastle : kQueenCastle;
    for (Move m : LegalMoves(pos)) {
      if (m.flag() == flag) return m;
    }
    return error("is not a legal castling move");
  }

  PieceType promotion = kNoPieceType;
  if (!s.empty() && SanPieceType(s.back()) != kNoPieceType) {
    promotion = SanPieceType(s.back());
    s.remove_suffix(1);
    s = absl::StripSuffix(s, "=");
    if (promotion == kPawn || promotion == kKing)
      return error("promotes to a bad piece");
  }
  if (s.size() < 2) return error("is too short");
  const Square to = ParseSquare(s.substr(s.size() - 2));
  if (to == kNoSquare) return error("has no destination square");
  s.remove_suffix(2);
  s = absl::StripSuffix(s, "x");
  s = absl::StripSuffix(s, ":");

  PieceType type = kPawn;
  if (!s.empty() && SanPieceType(s.front()) != kNoPieceType) {
    type = SanPieceType(s.front());
    s.remove_prefix(1);
  }
  int from_file = -1, from_rank = -1;
  for (char c : s) {
    if (c >= 'a' && c <= 'h') {
      from_file = c - 'a';
    } else if (c >= '1' && c <= '8') {
      from_rank = c - '1';
    } else {
      return error("has an unexpected character");
    }
  }

  Move found;
  int matches = 0;
  for (Move m : LegalMoves(pos)) {
    if (m.to() != to || TypeOf(pos.piece_on(m.from())) != type) continue;
    if (from_file >= 0 && FileOf(m.from()) != from_file) continue;
    if (from_rank >= 0 && RankOf(m.from()) != from_rank) continue;
    if (m.is_castle()) continue;
    if ((promotion == kNoPieceType) != !m.is_promotion()) continue;
    if (m.is_promotion() && m.promotion_type() != promotion) continue;
    found = m;
    ++matches;
  }
  if (matches == 0) return error("is not legal");
  if (matches > 1) return error("is ambiguous");
  return found;
}

}  // namespace chess
