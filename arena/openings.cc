#include "arena/openings.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/files.h"
#include "common/random.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace chess {
namespace {

absl::Status LineError(absl::string_view name, int line,
                       absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(name, ":", line, ": ", what));
}

struct Token {
  std::string text;
  int line = 0;  // counted from the movetext's first line (0)
};

bool IsGameTermination(absl::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

// PGN movetext tokens, without comments, variations, NAGs and move numbers;
// game termination markers are kept. Returns false on an unterminated comment
// or variation.
bool MovetextTokens(absl::string_view text, std::vector<Token>* tokens) {
  std::string current;
  int line = 0, current_line = 0;
  auto flush = [&] {
    if (!current.empty()) tokens->push_back(Token{current, current_line});
    current.clear();
  };
  auto skip_to = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < text.size(); ++k)
      line += text[k] == '\n';
  };
  int variation_depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{') {
      flush();
      const size_t end = text.find('}', i);
      if (end == absl::string_view::npos) return false;
      skip_to(i, end);
      i = end;
    } else if (c == ';') {
      flush();
      const size_t end = text.find('\n', i);
      i = end == absl::string_view::npos ? text.size() : end - 1;
    } else if (c == '(') {
      flush();
      ++variation_depth;
    } else if (c == ')') {
      flush();
      if (--variation_depth < 0) return false;
    } else if (c == '\n') {
      flush();
      ++line;
    } else if (variation_depth > 0) {
      continue;
    } else if (absl::ascii_isspace(uint8_t(c))) {
      flush();
    } else {
      if (current.empty()) current_line = line;
      current += c;
    }
  }
  flush();
  if (variation_depth != 0) return false;
  std::vector<Token> moves;
  for (Token& token : *tokens) {
    absl::string_view t = token.text;
    if (absl::StartsWith(t, "$")) continue;
    // "12." or "12..." possibly glued to the move: "12.Nf3".
    size_t digits = 0;
    while (digits < t.size() && absl::ascii_isdigit(uint8_t(t[digits])))
      ++digits;
    if (digits > 0 && digits < t.size() && t[digits] == '.' &&
        !IsGameTermination(t)) {
      t.remove_prefix(digits);
      while (absl::ConsumePrefix(&t, ".")) {
      }
    }
    if (!t.empty()) moves.push_back(Token{std::string(t), token.line});
  }
  *tokens = std::move(moves);
  return true;
}

struct PgnGame {
  int first_line = 0;
  std::string fen;
  std::string movetext;
  int movetext_line = 0;
};

// The openings of one tag section's movetext: a game termination marker ends
// a game, and movetext after it (no tags of its own) is a game from the
// initial position.
absl::Status OpeningsFromPgn(const PgnGame& g, absl::string_view name,
                             int max_plies, bool chess960,
                             std::vector<Opening>* book) {
  Position start = Position::Start(chess960);
  if (!g.fen.empty()) {
    auto pos = Position::FromFen(g.fen, chess960);
    if (!pos.ok()) return LineError(name, g.first_line, pos.status().message());
    start = *pos;
  }
  std::vector<Token> tokens;
  if (!MovetextTokens(g.movetext, &tokens)) {
    return LineError(name, g.movetext_line,
                     "unterminated comment or variation");
  }
  Opening opening{start, {}};
  Position pos = start;
  bool open = true;  // the tag section's own game, even with no moves
  for (const Token& token : tokens) {
    if (IsGameTermination(token.text)) {
      if (open) book->push_back(std::move(opening));
      opening = Opening{Position::Start(), {}};
      pos = opening.start;
      open = false;
      continue;
    }
    open = true;
    if (max_plies > 0 && int(opening.moves.size()) >= max_plies) continue;
    auto move = ParseSan(pos, token.text);
    if (!move.ok()) {
      return LineError(
          name, g.movetext_line + token.line,
          absl::StrCat("move \"", token.text, "\": ", move.status().message()));
    }
    opening.moves.push_back(*move);
    pos.MakeMove(*move);
  }
  if (open) book->push_back(std::move(opening));
  return absl::OkStatus();
}

}  // namespace

uint64_t BookFingerprint(const std::vector<Opening>& openings) {
  std::string text;
  for (const Opening& o : openings) {
    absl::StrAppend(&text, o.start.ToFen());
    for (Move m : o.moves) absl::StrAppend(&text, " ", ToUci(m));
    text += '\n';
  }
  // FNV-1a, 64 bits: stable across compilers and standard libraries.
  uint64_t hash = 0xCBF29CE484222325ull;
  for (char c : text) hash = (hash ^ uint8_t(c)) * 0x100000001B3ull;
  return hash;
}

Game Opening::ToGame() const {
  Game game(start);
  for (Move m : moves) game.Play(m);
  return game;
}

namespace {

bool GameIsOver(const Game& game) {
  return LegalMoves(game.position()).empty() ||
         game.GetOutcome().result != GameResult::kOngoing;
}

}  // namespace

Opening WithRandomPlies(const Opening& opening, int plies, uint64_t seed) {
  if (plies <= 0 || GameIsOver(opening.ToGame())) return opening;
  Opening line = opening;
  for (uint64_t attempt = 0; attempt < 1000; ++attempt) {
    line = opening;
    Game game = opening.ToGame();
    uint64_t draw = Mix64(seed + attempt * 0xD1B54A32D192ED03ull);
    bool ended = false;
    for (int ply = 0; ply < plies && !ended; ++ply) {
      const MoveList moves = LegalMoves(game.position());
      draw = Mix64(draw);
      const Move move = moves[draw % moves.size()];
      game.Play(move);
      ended = GameIsOver(game);
      if (!ended) line.moves.push_back(move);
    }
    if (!ended) return line;
  }
  return line;
}

absl::StatusOr<std::vector<Opening>> ParseEpdBook(absl::string_view text,
                                                  absl::string_view name,
                                                  bool chess960) {
  std::vector<Opening> book;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (fields.size() < 4)
      return LineError(name, line_number, "expected a FEN's first four fields");
    std::vector<absl::string_view> fen(fields.begin(), fields.begin() + 4);
    // Half-move clock and move number when present; opcodes ("bm ...;")
    // otherwise.
    int number;
    if (fields.size() >= 6 && absl::SimpleAtoi(fields[4], &number) &&
        absl::SimpleAtoi(fields[5], &number)) {
      fen.push_back(fields[4]);
      fen.push_back(fields[5]);
    }
    auto pos = Position::FromFen(absl::StrJoin(fen, " "), chess960);
    if (!pos.ok()) return LineError(name, line_number, pos.status().message());
    book.push_back(Opening{*pos, {}});
  }
  if (book.empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": no positions"));
  return book;
}

absl::StatusOr<std::vector<Opening>> ParsePgnBook(absl::string_view text,
                                                  absl::string_view name,
                                                  int max_plies,
                                                  bool chess960) {
  std::vector<Opening> book;
  PgnGame game;
  bool in_game = false;
  auto finish = [&]() -> absl::Status {
    if (!in_game) return absl::OkStatus();
    if (absl::Status s =
            OpeningsFromPgn(game, name, max_plies, chess960, &book);
        !s.ok()) {
      return s;
    }
    game = PgnGame();
    in_game = false;
    return absl::OkStatus();
  };
  int line_number = 0;
  bool in_movetext = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripTrailingAsciiWhitespace(line);
    absl::string_view stripped = absl::StripLeadingAsciiWhitespace(line);
    if (absl::StartsWith(stripped, "[") && !absl::StartsWith(stripped, "[%")) {
      if (in_movetext) {
        if (absl::Status s = finish(); !s.ok()) return s;
        in_movetext = false;
      }
      if (!in_game) game.first_line = line_number;
      in_game = true;
      if (absl::StartsWithIgnoreCase(stripped, "[FEN ")) {
        absl::string_view value = stripped.substr(5);
        if (!absl::ConsumePrefix(&value, "\"") ||
            !absl::ConsumeSuffix(&value, "\"]")) {
          return LineError(name, line_number, "malformed FEN tag");
        }
        game.fen = std::string(value);
      }
      continue;
    }
    if (stripped.empty()) {
      if (in_movetext) game.movetext += '\n';  // keeps line numbers right
      continue;
    }
    if (!in_game) game.first_line = line_number;
    if (!in_movetext) game.movetext_line = line_number;
    in_game = in_movetext = true;
    absl::StrAppend(&game.movetext, line, "\n");
  }
  if (absl::Status s = finish(); !s.ok()) return s;
  if (book.empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": no games"));
  return book;
}

absl::StatusOr<BookFormat> BookFormatFromPath(absl::string_view path) {
  if (absl::EndsWithIgnoreCase(path, ".epd")) return BookFormat::kEpd;
  if (absl::EndsWithIgnoreCase(path, ".pgn")) return BookFormat::kPgn;
  return absl::InvalidArgumentError(
      absl::StrCat(path,
                   ": cannot tell the book format from the name (.epd or "
                   ".pgn); set format"));
}

absl::StatusOr<std::vector<Opening>> LoadBook(const std::string& path,
                                              BookFormat format, int max_plies,
                                              bool chess960) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return format == BookFormat::kEpd
             ? ParseEpdBook(*text, path, chess960)
             : ParsePgnBook(*text, path, max_plies, chess960);
}

absl::StatusOr<std::vector<Opening>> LoadBook(const std::string& path,
                                              int max_plies, bool chess960) {
  absl::StatusOr<BookFormat> format = BookFormatFromPath(path);
  if (!format.ok()) return format.status();
  return LoadBook(path, *format, max_plies, chess960);
}

}  // namespace chess
