#include "arena/pgn.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "arena/time_control.h"
#include "common/parallel.h"
#include "engine/game.h"
#include "engine/movegen.h"
#include "engine/notation.h"

namespace chess {
namespace {

// Length of the valid UTF-8 sequence at the start of `s`, or 0.
size_t Utf8SequenceLength(absl::string_view s) {
  const uint8_t lead = uint8_t(s[0]);
  const size_t length = lead < 0x80                   ? 1
                        : lead >= 0xC2 && lead < 0xE0 ? 2
                        : lead >= 0xE0 && lead < 0xF0 ? 3
                        : lead >= 0xF0 && lead < 0xF5 ? 4
                                                      : 0;
  if (length == 0 || length > s.size()) return 0;
  for (size_t i = 1; i < length; ++i)
    if ((uint8_t(s[i]) & 0xC0) != 0x80) return 0;
  // Overlong three- and four-byte forms, surrogates, and beyond U+10FFFF.
  const uint8_t second = uint8_t(s.size() > 1 ? s[1] : 0);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90))
    return 0;
  return length;
}

}  // namespace

std::string PgnTagValue(absl::string_view s) {
  std::string out;
  while (!s.empty()) {
    const size_t length = Utf8SequenceLength(s);
    const char c = s[0];
    if (length == 0) {
      out += '?';  // not UTF-8: PGN readers would reject the file
    } else if (length > 1) {
      out.append(s.data(), length);
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';  // a line break would end the tag
    } else if (uint8_t(c) < 0x20 || c == 0x7F) {
      // control bytes (ESC, NUL, ...) are dropped
    } else if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
    s.remove_prefix(std::max<size_t>(length, 1));
  }
  return out;
}

namespace {

const char* PgnTermination(GameRecord::Termination t) {
  switch (t) {
    case GameRecord::ADJUDICATED_RESIGN:
    case GameRecord::ADJUDICATED_DRAW:
    case GameRecord::ADJUDICATED_TABLEBASE:
    case GameRecord::MAX_MOVES:
      return "adjudication";
    case GameRecord::TIME_FORFEIT:
      return "time forfeit";
    case GameRecord::ILLEGAL_MOVE:
      return "rules infraction";
    case GameRecord::ENGINE_CRASH:
    case GameRecord::ENGINE_TIMEOUT:
    case GameRecord::ENGINE_START_FAILURE:
      return "abandoned";
    case GameRecord::NONE:  // a game stopped before its end
      return "unterminated";
    default:
      return "normal";
  }
}

// `value` / `scale` with log10(`scale`) decimals, as "%.Nf" writes it (and
// "%+.Nf" with `plus`): the PGN of a large log has millions of these, and
// StrFormat was a tenth of its time.
std::string Decimal(int64_t value, int64_t scale, bool plus) {
  const uint64_t magnitude = value < 0 ? 0 - uint64_t(value) : uint64_t(value);
  std::string fraction = absl::StrCat(magnitude % uint64_t(scale) + scale);
  fraction[0] = '.';
  return absl::StrCat(value < 0 ? "-"
                      : plus    ? "+"
                                : "",
                      magnitude / uint64_t(scale), fraction);
}

std::string MoveComment(const MoveRecord& m) {
  const std::string score =
      m.mate() != 0
          ? absl::StrCat(m.mate() > 0 ? "+M" : "-M", std::abs(m.mate()))
          : Decimal(m.score_cp(), 100, true);
  return absl::StrCat("{", score, "/", m.depth(), " ",
                      Decimal(m.time_ms(), 1000, false), "s}");
}

// Appends movetext tokens, wrapping lines at 80 columns.
class Movetext {
 public:
  void Add(absl::string_view token) {
    if (!line_.empty() && line_.size() + 1 + token.size() > 79) Flush();
    if (!line_.empty()) line_ += ' ';
    absl::StrAppend(&line_, token);
  }
  std::string Finish() {
    Flush();
    return text_;
  }

 private:
  void Flush() {
    if (!line_.empty()) absl::StrAppend(&text_, line_, "\n");
    line_.clear();
  }
  std::string text_, line_;
};

}  // namespace

std::string ResultString(GameRecord::Result result) {
  switch (result) {
    case GameRecord::WHITE_WINS:
      return "1-0";
    case GameRecord::BLACK_WINS:
      return "0-1";
    case GameRecord::DRAW:
      return "1/2-1/2";
    default:
      return "*";
  }
}

std::string DescribeTimeControl(const TimeControl& tc) {
  if (tc.base_ms() > 0 || tc.increment_ms() > 0) return ClockText(tc);
  if (tc.movetime_ms() > 0)
    return absl::StrCat("movetime ", tc.movetime_ms(), " ms");
  if (tc.soft_nodes() > 0)
    return absl::StrCat("nodes ", tc.soft_nodes(), " (soft), ", tc.nodes(),
                        " (hard)");
  if (tc.nodes() > 0) return absl::StrCat("nodes ", tc.nodes());
  if (tc.depth() > 0) return absl::StrCat("depth ", tc.depth());
  return "none";
}

std::string GameToPgn(const GameRecord& game, const MatchHeader& header) {
  const MatchConfig& config = header.config();
  std::string date = "????.??.??";
  if (game.end_time().size() >= 10) {
    date = absl::StrCat(game.end_time().substr(0, 4), ".",
                        game.end_time().substr(5, 2), ".",
                        game.end_time().substr(8, 2));
  }
  const std::string result = ResultString(game.result());
  std::string pgn;
  auto tag = [&](absl::string_view name, absl::string_view value) {
    absl::StrAppend(&pgn, "[", name, " \"", PgnTagValue(value), "\"]\n");
  };
  tag("Event", config.name().empty() ? "arena match" : config.name());
  tag("Site", "chess-harness arena");
  tag("Date", date);
  tag("Round", absl::StrCat(game.round() + 1, ".", game.index() + 1));
  tag("White", game.white());
  tag("Black", game.black());
  tag("Result", result);
  auto start = Position::FromFen(game.book_fen(), game.chess960());
  const Position start_pos =
      start.ok() ? *start : Position::Start(game.chess960());
  // A Chess960 game names its variant and always its start (castling
  // depends on where the rooks stand).
  if (game.chess960()) tag("Variant", "Chess960");
  if (game.chess960() || start_pos.ToFen() != Position::Start().ToFen()) {
    tag("SetUp", "1");
    tag("FEN", start_pos.ToFen());
  }
  tag("PlyCount", absl::StrCat(game.opening_moves_size() + game.moves_size()));
  const TimeControl* tc = &config.time_control();
  for (const PlayerConfig& p : config.players()) {
    if (p.name() == game.white() && p.has_time_control())
      tc = &p.time_control();
  }
  tag("TimeControl", ClockText(*tc));
  // The clocks above times this, for the machine that played the game
  // (MatchConfig.clock_reference_nps).
  if (game.has_clock_scale())
    tag("ClockScale", absl::StrFormat("%.3f", game.clock_scale()));
  tag("Termination", PgnTermination(game.termination()));
  if (!game.reason().empty()) tag("TerminationDetails", game.reason());
  pgn += "\n";

  Movetext text;
  Position pos = start_pos;
  auto add_move = [&](absl::string_view uci, const std::string& comment) {
    auto move = ParseUci(pos, uci);
    if (!move.ok()) return false;  // a log's records are checked: cannot happen
    if (pos.side_to_move() == kWhite) {
      text.Add(absl::StrCat(pos.fullmove_number(), "."));
    }
    text.Add(ToSan(pos, *move));
    if (!comment.empty()) text.Add(comment);
    pos.MakeMove(*move);
    return true;
  };
  bool ok = true;
  if (pos.side_to_move() == kBlack &&
      (game.opening_moves_size() + game.moves_size()) > 0) {
    text.Add(absl::StrCat(pos.fullmove_number(), "..."));
  }
  for (const std::string& uci : game.opening_moves()) {
    if (!(ok = add_move(uci, "{book}"))) break;
  }
  for (int i = 0; ok && i < game.moves_size(); ++i) {
    ok = add_move(game.moves(i).uci(), MoveComment(game.moves(i)));
  }
  text.Add(result);
  return absl::StrCat(pgn, text.Finish(), "\n");
}

void PgnBuilder::Add(absl::Span<const GameRecord* const> games) {
  const size_t first = games_.size();
  games_.resize(first + games.size());
  const size_t threads = games.size() < 64 ? 1 : CoreCount();
  ForEachSlice(games.size(), threads, [&](size_t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      games_[first + i] = {games[i]->index(), GameToPgn(*games[i], header_)};
      games_[first + i].second.push_back('\n');
    }
  });
}

std::string PgnBuilder::Finish() && {
  std::stable_sort(
      games_.begin(), games_.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t bytes = 0;
  for (const auto& g : games_) bytes += g.second.size();
  std::string pgn;
  pgn.reserve(bytes);
  for (auto& g : games_) {
    pgn.append(g.second);
    std::string().swap(g.second);  // the join never holds the PGN twice
  }
  return pgn;
}

}  // namespace chess
