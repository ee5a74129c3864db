// FEN parsing, standard and Chess960 (the first byte chooses): any text gives
// a position or an error; a position prints back to a FEN that parses to the
// same position, every legal move can be made (its key equal to one computed
// afresh), and FindLegalMove (the log replay's one-move check) agrees with the
// generator on every move of the pieces of the side to move.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool chess960 = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<chess::Position> pos =
      chess::Position::FromFen(text, chess960);
  if (!pos.ok()) return 0;
  const std::string fen = pos->ToFen();
  absl::StatusOr<chess::Position> again =
      chess::Position::FromFen(fen, chess960);
  if (!again.ok() || again->ToFen() != fen || again->key() != pos->key())
    __builtin_trap();
  const chess::MoveList legal = chess::LegalMoves(*pos);
  for (chess::Square from = 0; from < 64; ++from) {
    const chess::Piece piece = pos->piece_on(from);
    if (piece == chess::kNoPiece ||
        chess::ColorOf(piece) != pos->side_to_move())
      continue;
    for (chess::Square to = 0; to < 64; ++to) {
      for (int p = chess::kKnight; p <= chess::kNoPieceType; ++p) {
        if (p == chess::kKing) continue;
        const chess::PieceType promotion = chess::PieceType(p);
        chess::Move expected = chess::Move::None();
        for (chess::Move m : legal) {
          if (m.from() == from && m.to() == to &&
              (m.is_promotion() ? m.promotion_type() : chess::kNoPieceType) ==
                  promotion)
            expected = m;
        }
        if (chess::FindLegalMove(*pos, from, to, promotion) != expected)
          __builtin_trap();
      }
    }
  }
  for (chess::Move m : legal) {
    chess::Position next = *pos;
    (void)chess::ToSan(*pos, m);
    next.MakeMove(m);
    if (next.key() != next.ComputeKey()) __builtin_trap();
    (void)chess::LegalMoves(next);
  }
  return 0;
}
