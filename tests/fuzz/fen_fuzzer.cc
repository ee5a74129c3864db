// FEN parsing: any text gives a position or an error; a position prints back
// to a FEN that parses to the same position, and every legal move can be made.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<chess::Position> pos = chess::Position::FromFen(text);
  if (!pos.ok()) return 0;
  const std::string fen = pos->ToFen();
  absl::StatusOr<chess::Position> again = chess::Position::FromFen(fen);
  if (!again.ok() || again->ToFen() != fen || again->key() != pos->key())
    __builtin_trap();
  for (chess::Move m : chess::LegalMoves(*pos)) {
    chess::Position next = *pos;
    (void)chess::ToSan(*pos, m);
    next.MakeMove(m);
    (void)chess::LegalMoves(next);
  }
  return 0;
}
