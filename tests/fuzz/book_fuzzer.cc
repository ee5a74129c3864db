// Opening books, EPD and PGN: every opening read is a legal line.
#include <cstddef>
#include <cstdint>
#include <string>

#include "arena/openings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (bool pgn : {false, true}) {
    auto book = pgn ? chess::ParsePgnBook(text, "fuzz.pgn", 0)
                    : chess::ParseEpdBook(text, "fuzz.epd");
    if (!book.ok()) continue;
    for (const chess::Opening& opening : *book) (void)opening.ToGame();
    (void)chess::BookFingerprint(*book);
  }
  return 0;
}
