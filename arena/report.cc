#include "arena/report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "arena/report_script.h"
#include "arena/schedule.h"
#include "arena/standings.h"
#include "arena/time_control.h"
#include "common/files.h"
#include "common/html.h"
#include "common/parallel.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

constexpr int kProgressSamples = 300;
constexpr char kChunkDir[] = "report-games";

// The mover's side is White when the number of plies before it is even in a
// game whose opening position has White to move.
bool WhiteToMoveAt(const GameRecord& g, int ply) {
  const bool white_first = g.opening_fen().find(" b ") == std::string::npos;
  return (ply % 2 == 0) == white_first;
}

// Each move's time, depth and nodes into its mover's stretch of the game.
void AddPhases(const GameRecord& g, int white, int black,
               std::vector<std::vector<PhaseCell>>* phases) {
  // Plies from the book's start: the opening's own moves count.
  const int book_plies = g.opening_moves_size();
  const bool white_first = WhiteToMoveAt(g, 0);
  for (int ply = 0; ply < g.moves_size(); ++ply) {
    const MoveRecord& m = g.moves(ply);
    const int mover = (ply % 2 == 0) == white_first ? white : black;
    const int move_number = (book_plies + ply) / 2;
    PhaseCell& cell =
        (*phases)[mover][std::min(kPhaseCells - 1, move_number / kPhaseMoves)];
    ++cell.moves;
    cell.time_ms += double(m.time_ms());
    cell.depth += m.depth();
    cell.nodes += double(m.nodes());
  }
}

std::string Percent(double share) {
  return absl::StrFormat("%.1f%%", 100 * share);
}

std::string Cell(const std::string& id, const std::string& text,
                 const char* cls = nullptr) {
  return absl::StrCat("<td id=\"", id, "\"",
                      cls ? absl::StrCat(" class=\"", cls, "\"") : "", ">",
                      HtmlEscape(text), "</td>");
}

// The standings table: the figures of the text summary, the same formats,
// one id per cell (the browser test reads them back).
std::string StandingsTable(const MatchSummary& m) {
  std::string html =
      "<table id=\"standings\"><tr><th class=\"name\">Pairing</th>"
      "<th>Games</th><th>W</th><th>D</th><th>L</th><th>Score</th>"
      "<th>Elo (95%)</th><th>nElo (95%)</th><th>LOS</th>"
      "<th>Pentanomial [LL, LD, WL+DD, WD, WW]</th><th>SPRT</th></tr>\n";
  for (int i = 0; i < m.pairings_size(); ++i) {
    const PairingSummary& p = m.pairings(i);
    const std::string id = absl::StrCat("p", i, "-");
    absl::StrAppend(&html, "<tr>",
                    Cell(id + "players",
                         absl::StrCat(p.first(), " vs ", p.second()), "name"),
                    Cell(id + "games", absl::StrCat(p.games())),
                    Cell(id + "wins", absl::StrCat(p.wins())),
                    Cell(id + "draws", absl::StrCat(p.draws())),
                    Cell(id + "losses", absl::StrCat(p.losses())),
                    Cell(id + "score", Percent(p.score())));
    if (p.has_elo()) {
      absl::StrAppend(
          &html,
          Cell(id + "elo",
               absl::StrFormat("%+.1f ± %.1f", p.elo(), p.elo_error())),
          Cell(id + "nelo",
               absl::StrFormat("%+.1f ± %.1f", p.nelo(), p.nelo_error())),
          Cell(id + "los", Percent(p.los())));
    } else {
      absl::StrAppend(&html, Cell(id + "elo", "not measurable yet"),
                      Cell(id + "nelo", "-"), Cell(id + "los", "-"));
    }
    absl::StrAppend(
        &html,
        Cell(id + "penta",
             absl::StrCat("[", absl::StrJoin(p.pentanomial(), ", "), "]")),
        Cell(id + "sprt",
             p.has_llr()
                 ? absl::StrFormat("LLR %.2f (%.2f, %.2f) %s", p.llr(),
                                   p.llr_lower(), p.llr_upper(), p.sprt())
                 : "-"),
        "</tr>\n");
  }
  return html + "</table>\n";
}

// The players rated against the anchors, as in the text summary.
std::string RatingsTable(const MatchSummary& m) {
  if (m.ratings().empty()) return "";
  std::string html = absl::StrCat(
      "<h2>Ratings</h2>\n<table id=\"ratings\"><tr><th "
      "class=\"name\">Player</th><th>Rating</th><th>Games against "
      "anchors</th></tr>\n");
  for (int i = 0; i < m.ratings_size(); ++i) {
    const PlayerRating& r = m.ratings(i);
    const std::string id = absl::StrCat("r", i, "-");
    absl::StrAppend(&html, "<tr>", Cell(id + "player", r.player(), "name"),
                    Cell(id + "rating", RatingText(r)),
                    Cell(id + "games", absl::StrCat(r.games())), "</tr>\n");
  }
  return absl::StrCat(html,
                      "</table>\n<p class=\"muted\">Maximum likelihood; "
                      "anchors ",
                      HtmlEscape(AnchorsText(m)), "</p>\n");
}

// Rows and columns are players; a cell is the row player's score against the
// column player, over all their games.
std::string Crosstable(const MatchReportData& d) {
  const size_t n = d.players.size();
  std::vector<std::vector<double>> points(n, std::vector<double>(n));
  std::vector<std::vector<int>> games(n, std::vector<int>(n));
  for (const PairingSummary& p : d.summary.pairings()) {
    const auto a = std::find(d.players.begin(), d.players.end(), p.first());
    const auto b = std::find(d.players.begin(), d.players.end(), p.second());
    if (a == d.players.end() || b == d.players.end()) continue;
    const size_t i = a - d.players.begin(), j = b - d.players.begin();
    const double first_points = p.wins() + 0.5 * p.draws();
    points[i][j] += first_points;
    points[j][i] += p.games() - first_points;
    games[i][j] += p.games();
    games[j][i] += p.games();
  }
  std::string html = "<table id=\"crosstable\"><tr><th class=\"name\"></th>";
  for (const std::string& name : d.players)
    absl::StrAppend(&html, "<th>", HtmlEscape(name), "</th>");
  absl::StrAppend(&html, "<th>Total</th></tr>\n");
  for (size_t i = 0; i < n; ++i) {
    absl::StrAppend(&html, "<tr><th class=\"name\">", HtmlEscape(d.players[i]),
                    "</th>");
    double total = 0;
    int total_games = 0;
    for (size_t j = 0; j < n; ++j) {
      total += points[i][j];
      total_games += games[i][j];
      absl::StrAppend(&html, "<td>",
                      i == j ? "&mdash;"
                      : games[i][j] == 0
                          ? ""
                          : absl::StrFormat("%g/%d", points[i][j], games[i][j]),
                      "</td>");
    }
    absl::StrAppend(&html, "<td>", absl::StrFormat("%g/%d", total, total_games),
                    "</td></tr>\n");
  }
  return html + "</table>\n";
}

std::string TimeControlText(const PlayerConfig& p) {
  const TimeControl& tc = p.time_control();
  if (tc.has_base_ms()) return ClockText(tc);
  if (tc.has_movetime_ms()) return absl::StrCat(tc.movetime_ms(), " ms/move");
  if (tc.has_nodes()) return absl::StrCat(tc.nodes(), " nodes");
  if (tc.has_depth()) return absl::StrCat("depth ", tc.depth());
  return "-";
}

std::string Body(const MatchReportData& d, const MatchHeader& header) {
  const MatchSummary& m = d.summary;
  std::string html = absl::StrCat(
      "<h1 id=\"title\">",
      HtmlEscape(m.name().empty() ? "(unnamed)" : m.name()),
      "</h1>\n<p class=\"muted\"><span id=\"played\">", m.played_games(),
      "</span> of <span id=\"scheduled\">", m.scheduled_games(),
      "</span> games played &middot; engine revision ",
      HtmlEscape(header.engine_revision()), " &middot; started ",
      HtmlEscape(header.start_time()),
      "</p>\n<p><span class=\"verdict\" "
      "id=\"verdict\">",
      HtmlEscape(m.verdict()),
      "</span> <span class=\"muted\">exit code <span "
      "id=\"exit-code\">",
      m.exit_code(), "</span></span></p>\n");
  if (m.has_clock_scale_min()) {
    absl::StrAppend(&html, "<p class=\"muted\" id=\"clock-scale\">",
                    HtmlEscape(ClockScaleText(m)), "</p>\n");
  }
  for (const std::string& damage : m.damaged_records())
    absl::StrAppend(&html, "<p class=\"verdict\">DAMAGED: ", HtmlEscape(damage),
                    "</p>\n");
  absl::StrAppend(&html, "<h2>Standings</h2>\n", StandingsTable(m));
  absl::StrAppend(&html, "<p class=\"muted\">Players: ");
  for (int i = 0; i < header.config().players_size(); ++i) {
    const PlayerConfig& p = header.config().players(i);
    absl::StrAppend(&html, i ? "; " : "", "<b>", HtmlEscape(p.name()), "</b> (",
                    p.has_external() ? "UCI engine" : "built-in", ", ",
                    HtmlEscape(TimeControlText(p)), ")");
  }
  absl::StrAppend(&html, "</p>\n", RatingsTable(m));
  if (d.players.size() > 2)
    absl::StrAppend(&html, "<h2>Crosstable</h2>\n", Crosstable(d));
  // Filled by arena/report.js from window.REPORT.
  absl::StrAppend(
      &html,
      "<h2>As the games came in</h2><div id=\"progress\" "
      "class=\"grid\"></div>\n"
      "<h2>Pentanomial and terminations</h2><div id=\"bars\" "
      "class=\"grid\"></div>\n"
      "<h2>Through the game (per move, by move number)</h2><div id=\"phases\" "
      "class=\"grid\"></div>\n"
      "<h2>Games</h2><div id=\"games\"></div>\n"
      "<h2>Game viewer</h2><div id=\"viewer\"></div>\n");
  return html;
}

// Two characters per move, one per square (a1 = 'A' ... h8 = '_'), and one
// of "+*~!" after a promotion to a queen, rook, bishop or knight: a 100,000-
// game match's moves stay a fraction of its log.
constexpr char kSquareCodes[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void AppendCompactMove(absl::string_view uci, std::string* out) {
  if (uci.size() < 4) return;  // the log reader replayed it: never here
  for (int k = 0; k < 4; k += 2) {
    const int file = uci[k] - 'a', rank = uci[k + 1] - '1';
    out->push_back(kSquareCodes[(rank & 7) * 8 + (file & 7)]);
  }
  if (uci.size() == 5) {
    const size_t piece = absl::string_view("qrbn").find(uci[4]);
    out->push_back(piece == absl::string_view::npos ? '+' : "+*~!"[piece]);
  }
}

// [opening FEN, "compact moves", [White-view scores]]: appended in place, as
// a 100,000-game report writes about a hundred million of these bytes.
void AppendGameMoves(const GameRecord& g, std::string* out) {
  absl::StrAppend(out, "[", JsonString(g.opening_fen()), ",\"");
  for (const MoveRecord& m : g.moves()) AppendCompactMove(m.uci(), out);
  out->append("\",[");
  const bool white_first = WhiteToMoveAt(g, 0);
  for (int ply = 0; ply < g.moves_size(); ++ply) {
    if (ply) out->push_back(',');
    const int s = WhiteViewScore(g.moves(ply), (ply % 2 == 0) == white_first);
    if (s == kNoScore) {
      out->append("null");
    } else {
      absl::StrAppend(out, s);
    }
  }
  out->append("]]");
}

// Chunk c: reportGames(c, [games c * per_chunk ...]).
std::vector<std::string> RenderChunks(const std::vector<std::string>& moves,
                                      int per_chunk) {
  const size_t chunks = (moves.size() + per_chunk - 1) / per_chunk;
  std::vector<std::string> texts(chunks);
  for (size_t c = 0; c < chunks; ++c) {
    const size_t first = c * per_chunk;
    const size_t end = std::min(moves.size(), first + per_chunk);
    size_t bytes = 32;
    for (size_t i = first; i < end; ++i) bytes += moves[i].size() + 1;
    std::string& text = texts[c];
    text.reserve(bytes);
    absl::StrAppend(&text, "reportGames(", c, ",[");
    for (size_t i = first; i < end; ++i) {
      if (i > first) text.push_back(',');
      text.append(moves[i]);
    }
    text.append("]);\n");
  }
  return texts;
}

std::string DataJson(const MatchReportData& d, const MatchHeader& header,
                     int chunks, bool inline_chunks,
                     const ReportOptions& options) {
  std::vector<std::string> names;
  for (const std::string& p : d.players) names.push_back(JsonString(p));
  std::string json =
      absl::StrCat("{\"players\":[", absl::StrJoin(names, ","), "],");
  absl::StrAppend(&json, "\"pairings\":[");
  for (size_t p = 0; p < d.pairings.size(); ++p) {
    const PairingSummary& s = d.summary.pairings(int(p));
    absl::StrAppend(&json, p ? "," : "", "{\"first\":", d.pairings[p].first,
                    ",\"second\":", d.pairings[p].second, ",\"penta\":[",
                    absl::StrJoin(s.pentanomial(), ","), "],\"wdl\":[",
                    s.wins(), ",", s.draws(), ",", s.losses(),
                    "],\"progress\":[");
    const std::vector<EloSample>& samples = d.progress[p];
    for (size_t i = 0; i < samples.size(); ++i) {
      const EloSample& e = samples[i];
      absl::StrAppend(&json, i ? "," : "", "[", e.games, ",",
                      e.measurable ? JsonNumber(e.elo) : "null", ",",
                      e.measurable ? JsonNumber(e.elo_error) : "null", ",",
                      JsonNumber(e.llr, 3), "]");
    }
    absl::StrAppend(&json, "]}");
  }
  absl::StrAppend(&json, "],");
  if (header.config().has_sprt() && header.shard_count() == 0 &&
      d.summary.pairings_size() > 0 && d.summary.pairings(0).has_llr()) {
    const SprtConfig& sprt = header.config().sprt();
    absl::StrAppend(
        &json, "\"sprt\":{\"elo0\":", JsonNumber(sprt.elo0()),
        ",\"elo1\":", JsonNumber(sprt.elo1()),
        ",\"lower\":", JsonNumber(d.summary.pairings(0).llr_lower(), 3),
        ",\"upper\":", JsonNumber(d.summary.pairings(0).llr_upper(), 3), "},");
  }
  std::vector<std::pair<std::string, int>> ends(
      d.summary.terminations().begin(), d.summary.terminations().end());
  // Most frequent first; ties by name, as a map's order is not fixed.
  std::sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  absl::StrAppend(&json, "\"terminations\":[");
  for (size_t i = 0; i < ends.size(); ++i)
    absl::StrAppend(&json, i ? "," : "", "[", JsonString(ends[i].first), ",",
                    ends[i].second, "]");
  absl::StrAppend(&json, "],\"phaseMoves\":", kPhaseMoves, ",\"phases\":[");
  for (size_t p = 0; p < d.phases.size(); ++p) {
    absl::StrAppend(&json, p ? "," : "", "[");
    for (int c = 0; c < kPhaseCells; ++c) {
      const PhaseCell& cell = d.phases[p][c];
      const double n = std::max(1, cell.moves);
      absl::StrAppend(&json, c ? "," : "", "[", cell.moves, ",",
                      JsonNumber(cell.time_ms / n, 1), ",",
                      JsonNumber(cell.depth / n, 2), ",",
                      JsonNumber(cell.nodes / n, 0), "]");
    }
    absl::StrAppend(&json, "]");
  }
  absl::StrAppend(&json, "],\"terminationNames\":[");
  for (int t = 0; t <= GameRecord::Termination_MAX; ++t) {
    absl::StrAppend(&json, t ? "," : "",
                    GameRecord::Termination_IsValid(t)
                        ? JsonString(GameRecord::Termination_Name(
                              GameRecord::Termination(t)))
                        : "\"\"");
  }
  // index, white, black, result, termination, plies, round, opening
  absl::StrAppend(&json, "],\"games\":[");
  for (size_t i = 0; i < d.games.size(); ++i) {
    const GameListing& g = d.games[i];
    absl::StrAppend(&json, i ? "," : "", g.index, ",", g.white, ",", g.black,
                    ",", g.result, ",", g.termination, ",", g.plies, ",",
                    g.round, ",", g.opening);
  }
  absl::StrAppend(&json, "],\"chunks\":{\"count\":", chunks,
                  ",\"size\":", options.games_per_chunk,
                  ",\"inline\":", inline_chunks ? "true" : "false",
                  ",\"dir\":", JsonString(kChunkDir), "}}");
  return json;
}

}  // namespace

int WhiteViewScore(const MoveRecord& move, bool white_moved) {
  int score;
  if (move.has_mate()) {
    score = move.mate() >= 0 ? 100000 + move.mate() : -100000 + move.mate();
  } else if (move.has_score_cp()) {
    score = move.score_cp();
  } else {
    return kNoScore;
  }
  return white_moved ? score : -score;
}

MatchReportBuilder::MatchReportBuilder(const MatchHeader& header)
    : standings_(StandingsConfig(header)) {
  const MatchConfig& config = header.config();
  for (const PlayerConfig& p : config.players()) {
    data_.player_index[p.name()] = int(data_.players.size());
    data_.players.push_back(p.name());
  }
  data_.pairings = Pairings(config);
  data_.progress.resize(data_.pairings.size());
  data_.phases.assign(data_.players.size(),
                      std::vector<PhaseCell>(kPhaseCells));
}

void MatchReportBuilder::SampleProgress(
    std::vector<std::vector<EloSample>>* progress) const {
  for (size_t p = 0; p < progress->size(); ++p) {
    const PairingSummary s = standings_.Summary(int(p));
    std::vector<EloSample>& samples = (*progress)[p];
    if (s.games() == 0 ||
        (!samples.empty() && samples.back().games == s.games()))
      continue;
    samples.push_back(
        EloSample{s.games(), s.has_elo(), s.elo(), s.elo_error(), s.llr()});
  }
}

void MatchReportBuilder::ThinProgress() {
  bool full = false;
  for (const auto& samples : data_.progress)
    full |= samples.size() >= 2 * size_t(kProgressSamples);
  if (!full) return;
  for (auto& samples : data_.progress) {
    // Samples 1, 3, 5...: those at multiples of the doubled spacing.
    size_t kept = 0;
    for (size_t i = 1; i < samples.size(); i += 2) samples[kept++] = samples[i];
    samples.resize(kept);
  }
  sample_every_ *= 2;
}

void MatchReportBuilder::Add(absl::Span<const GameRecord* const> games) {
  auto index = [&](const std::string& name) {
    const auto found = data_.player_index.find(name);
    return found == data_.player_index.end() ? -1 : found->second;
  };
  const size_t first = data_.games.size();
  for (const GameRecord* g : games) {
    const int white = index(g->white()), black = index(g->black());
    data_.games.push_back(GameListing{
        g->index(), white, black, int(g->result()), int(g->termination()),
        g->moves_size(), g->round(), g->opening_index()});
    standings_.Add(*g);
    if (++added_ % sample_every_ == 0) {
      SampleProgress(&data_.progress);
      ThinProgress();
    }
  }
  // Going through every move (the viewer's moves, the sums per stretch of
  // the game) is most of the work: on every core, each with its own sums.
  data_.moves.resize(data_.games.size());
  const size_t threads = games.size() < 64 ? 1 : CoreCount();
  std::vector<std::vector<std::vector<PhaseCell>>> phases(
      threads, std::vector<std::vector<PhaseCell>>(
                   data_.players.size(), std::vector<PhaseCell>(kPhaseCells)));
  ForEachSlice(games.size(), threads, [&](size_t t, size_t begin, size_t end) {
    // Rendered here, then copied once at its size: a string grown by
    // appending would allocate several times and keep unused room.
    std::string rendered;
    for (size_t i = begin; i < end; ++i) {
      GameListing& listing = data_.games[first + i];
      rendered.clear();
      AppendGameMoves(*games[i], &rendered);
      data_.moves[first + i] = rendered;
      if (listing.white >= 0 && listing.black >= 0)
        AddPhases(*games[i], listing.white, listing.black, &phases[t]);
    }
  });
  for (const auto& part : phases) {
    for (size_t p = 0; p < part.size(); ++p) {
      for (int c = 0; c < kPhaseCells; ++c) {
        PhaseCell& cell = data_.phases[p][c];
        cell.moves += part[p][c].moves;
        cell.time_ms += part[p][c].time_ms;
        cell.depth += part[p][c].depth;
        cell.nodes += part[p][c].nodes;
      }
    }
  }
  for (size_t i = first; i < data_.games.size(); ++i) {
    data_.games[i].white = std::max(data_.games[i].white, 0);
    data_.games[i].black = std::max(data_.games[i].black, 0);
  }
}

namespace {

// The data's last touches: the summary, and the games and their moves by
// schedule index (the order of the game list and the move chunks).
void Complete(const MatchSummary& summary, MatchReportData* data) {
  data->summary = summary;
  // A summary of other pairings (foreign input) must not index past ours.
  data->pairings.resize(
      std::min<size_t>(data->pairings.size(), size_t(summary.pairings_size())));
  std::vector<size_t> order(data->games.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return data->games[a].index < data->games[b].index;
  });
  std::vector<GameListing> games(order.size());
  std::vector<std::string> moves(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    games[i] = data->games[order[i]];
    moves[i] = std::move(data->moves[order[i]]);
  }
  data->games = std::move(games);
  data->moves = std::move(moves);
}

}  // namespace

MatchReportData MatchReportBuilder::Finish(const MatchSummary& summary) && {
  SampleProgress(&data_.progress);
  Complete(summary, &data_);
  return std::move(data_);
}

MatchReportData MatchReportBuilder::Snapshot(
    const MatchSummary& summary) const {
  MatchReportData data = data_;
  SampleProgress(&data.progress);
  Complete(summary, &data);
  return data;
}

MatchReportData BuildMatchReportData(const LogContents& log,
                                     const MatchSummary& summary) {
  MatchReportBuilder builder(log.header);
  std::vector<const GameRecord*> games;
  for (const GameRecord& g : log.games) games.push_back(&g);
  builder.Add(games);
  return std::move(builder).Finish(summary);
}

absl::StatusOr<ReportedLog> ReadGamesForReport(GameScan games,
                                               absl::string_view name) {
  std::optional<MatchReportBuilder> builder;
  absl::StatusOr<LogScan> scan =
      games([&](const LogScan& scan) { builder.emplace(scan.header); },
            [&](const LogScan&, absl::Span<const GameRecord* const> games) {
              builder->Add(games);
            });
  if (!scan.ok()) return scan.status();
  if (scan->empty())
    return absl::InvalidArgumentError(absl::StrCat(name, ": empty log"));
  const MatchSummary summary = SummarizeScan(*scan, builder->standings());
  return ReportedLog{std::move(scan->header),
                     std::move(*builder).Finish(summary)};
}

absl::StatusOr<ReportedLog> ReadLogForReport(const std::string& log_path) {
  return ReadGamesForReport(
      [&](StartScan start, TakeGames take) {
        return ScanLogFile(log_path, start, take);
      },
      log_path);
}

std::vector<ReportFile> RenderMatchReport(const MatchReportData& data,
                                          const MatchHeader& header,
                                          const ReportOptions& options) {
  const int per_chunk = std::max(1, options.games_per_chunk);
  std::vector<std::string> texts = RenderChunks(data.moves, per_chunk);
  const int chunks = int(texts.size());
  std::vector<ReportFile> chunk_files;
  size_t bytes = 0;
  for (int c = 0; c < chunks; ++c) {
    bytes += texts[c].size();
    chunk_files.push_back(
        {absl::StrCat(kChunkDir, "/chunk-", c, ".js"), std::move(texts[c])});
  }
  const bool inline_chunks = bytes <= options.inline_moves_bytes;
  HtmlPage page;
  page.title = absl::StrCat(
      data.summary.name().empty() ? "(unnamed)" : data.summary.name(),
      " - arena report");
  page.body = Body(data, header);
  page.data_json = DataJson(data, header, chunks, inline_chunks, options);
  page.scripts.push_back(kMatchReportJs);
  if (inline_chunks)
    for (ReportFile& f : chunk_files)
      page.scripts.push_back(std::move(f.contents));
  std::vector<ReportFile> files = {{"report.html", RenderHtmlPage(page)}};
  if (!inline_chunks)
    for (ReportFile& f : chunk_files) files.push_back(std::move(f));
  return files;
}

absl::Status WriteMatchReport(const LogContents& log,
                              const MatchSummary& summary,
                              const std::string& dir,
                              const ReportOptions& options) {
  return WriteMatchReport(BuildMatchReportData(log, summary), log.header, dir,
                          options);
}

absl::Status WriteMatchReport(const MatchReportData& data,
                              const MatchHeader& header, const std::string& dir,
                              const ReportOptions& options) {
  std::vector<ReportFile> files = RenderMatchReport(data, header, options);
  const fs::path chunk_dir = fs::path(dir) / kChunkDir;
  std::error_code ec;
  fs::remove_all(chunk_dir, ec);
  if (files.size() > 1) {
    fs::create_directories(chunk_dir, ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat(chunk_dir.string(), ": ", ec.message()));
    }
  }
  // The chunks before the page that loads them.
  for (size_t i = files.size(); i-- > 0;) {
    if (absl::Status s = WriteFileAtomically(
            (fs::path(dir) / files[i].path).string(), files[i].contents);
        !s.ok())
      return s;
  }
  return absl::OkStatus();
}

}  // namespace chess
