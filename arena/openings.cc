#include "arena/openings.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/config.h"
#include "engine/notation.h"

namespace chess {
namespace {

absl::Status LineError(absl::string_view name, int line,
                       absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(name, ":", line, ": ", what));
}

// PGN movetext tokens, without comments, variations, NAGs, move numbers and
// results. Returns false on an unterminated comment or variation.
bool MovetextTokens(absl::string_view text, std::vector<std::string>* tokens) {
  std::string current;
  auto flush = [&] {
    if (!current.empty()) tokens->push_back(current);
    current.clear();
  };
  int variation_depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{') {
      flush();
      const size_t end = text.find('}', i);
      if (end == absl::string_view::npos) return false;
      i = end;
    } else if (c == ';') {
      flush();
      const size_t end = text.find('\n', i);
      i = end == absl::string_view::npos ? text.size() : end;
    } else if (c == '(') {
      flush();
      ++variation_depth;
    } else if (c == ')') {
      flush();
      if (--variation_depth < 0) return false;
    } else if (variation_depth > 0) {
      continue;
    } else if (absl::ascii_isspace(uint8_t(c))) {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  if (variation_depth != 0) return false;
  std::vector<std::string> moves;
  for (std::string& token : *tokens) {
    absl::string_view t = token;
    if (absl::StartsWith(t, "$")) continue;
    if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") continue;
    // "12." or "12..." possibly glued to the move: "12.Nf3".
    size_t digits = 0;
    while (digits < t.size() && absl::ascii_isdigit(uint8_t(t[digits])))
      ++digits;
    if (digits > 0 && digits < t.size() && t[digits] == '.') {
      t.remove_prefix(digits);
      while (absl::ConsumePrefix(&t, ".")) {
      }
    }
    if (!t.empty()) moves.emplace_back(t);
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

absl::StatusOr<Opening> OpeningFromPgn(const PgnGame& g, absl::string_view name,
                                       int max_plies) {
  Opening opening;
  opening.start = Position::Start();
  if (!g.fen.empty()) {
    auto pos = Position::FromFen(g.fen);
    if (!pos.ok()) return LineError(name, g.first_line, pos.status().message());
    opening.start = *pos;
  }
  std::vector<std::string> tokens;
  if (!MovetextTokens(g.movetext, &tokens)) {
    return LineError(name, g.movetext_line,
                     "unterminated comment or variation");
  }
  Position pos = opening.start;
  for (const std::string& token : tokens) {
    if (max_plies > 0 && int(opening.moves.size()) >= max_plies) break;
    auto move = ParseSan(pos, token);
    if (!move.ok()) {
      return LineError(
          name, g.movetext_line,
          absl::StrCat("move \"", token, "\": ", move.status().message()));
    }
    opening.moves.push_back(*move);
    pos.MakeMove(*move);
  }
  return opening;
}

}  // namespace

Game Opening::ToGame() const {
  Game game(start);
  for (Move m : moves) game.Play(m);
  return game;
}

absl::StatusOr<std::vector<Opening>> ParseEpdBook(absl::string_view text,
                                                  absl::string_view name) {
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
    auto pos = Position::FromFen(absl::StrJoin(fen, " "));
    if (!pos.ok()) return LineError(name, line_number, pos.status().message());
    book.push_back(Opening{*pos, {}});
  }
  if (book.empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": no positions"));
  return book;
}

absl::StatusOr<std::vector<Opening>> ParsePgnBook(absl::string_view text,
                                                  absl::string_view name,
                                                  int max_plies) {
  std::vector<Opening> book;
  PgnGame game;
  bool in_game = false;
  auto finish = [&]() -> absl::Status {
    if (!in_game) return absl::OkStatus();
    auto opening = OpeningFromPgn(game, name, max_plies);
    if (!opening.ok()) return opening.status();
    book.push_back(*std::move(opening));
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
    if (stripped.empty()) continue;
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
                                              BookFormat format,
                                              int max_plies) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return format == BookFormat::kEpd ? ParseEpdBook(*text, path)
                                    : ParsePgnBook(*text, path, max_plies);
}

absl::StatusOr<std::vector<Opening>> LoadBook(const std::string& path,
                                              int max_plies) {
  absl::StatusOr<BookFormat> format = BookFormatFromPath(path);
  if (!format.ok()) return format.status();
  return LoadBook(path, *format, max_plies);
}

}  // namespace chess
