#include "tuner/extract.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "arena/match.h"
#include "common/files.h"
#include "common/random.h"
#include "engine/config.h"
#include "engine/notation.h"
#include "engine/search.h"

namespace chess {
namespace {

void Drop(TrainingSet* set, const std::string& reason, int64_t n = 1) {
  (*set->mutable_dropped())[reason] += n;
}

bool ResultIsMeaningful(const GameRecord& g) {
  switch (g.termination()) {
    case GameRecord::TIME_FORFEIT:
    case GameRecord::ILLEGAL_MOVE:
    case GameRecord::ENGINE_CRASH:
    case GameRecord::ENGINE_TIMEOUT:
    case GameRecord::ENGINE_START_FAILURE:
      return false;  // the position did not decide these games
    default:
      return g.result() != GameRecord::UNFINISHED;
  }
}

float WhiteResult(GameRecord::Result r) {
  return r == GameRecord::WHITE_WINS   ? 1.0f
         : r == GameRecord::BLACK_WINS ? 0.0f
                                       : 0.5f;
}

// Parses "[1.0]", "[0.5]", "[0]", "[1-0]", "1-0", "\"1/2-1/2\";" etc.
bool ParseResultToken(absl::string_view t, float* result) {
  t = absl::StripAsciiWhitespace(t);
  absl::ConsumePrefix(&t, "[");
  absl::ConsumeSuffix(&t, "]");
  absl::ConsumeSuffix(&t, ";");
  absl::ConsumePrefix(&t, "\"");
  absl::ConsumeSuffix(&t, "\"");
  if (t == "1-0") return *result = 1, true;
  if (t == "0-1") return *result = 0, true;
  if (t == "1/2-1/2") return *result = 0.5f, true;
  double v;
  if (absl::SimpleAtod(t, &v) && (v == 0 || v == 0.5 || v == 1))
    return *result = float(v), true;
  return false;
}

}  // namespace

absl::Status ExtractFromLog(const std::string& log_path,
                            const ExtractOptions& options, TrainingSet* out) {
  absl::StatusOr<MatchLog> log = ReadMatchLog(log_path);
  if (!log.ok()) return log.status();
  out->add_sources(log_path);
  Engine engine(options.qsearch_config);
  std::mt19937_64 rng(options.seed);
  for (const GameRecord& g : log->games) {
    if (!ResultIsMeaningful(g)) {
      Drop(out, "game_without_meaningful_result", g.moves_size());
      continue;
    }
    Drop(out, "book_ply", g.opening_moves_size());
    absl::StatusOr<Position> start = Position::FromFen(g.opening_fen());
    if (!start.ok())
      return absl::DataLossError(absl::StrCat(log_path, ": game ", g.index(),
                                              ": ", start.status().message()));
    Position pos = *start;
    std::vector<TrainingPosition> kept;
    for (int i = 0; i < g.moves_size(); ++i) {
      const MoveRecord& m = g.moves(i);
      const Position before = pos;
      absl::StatusOr<Move> move = ParseUci(pos, m.uci());
      if (!move.ok())
        return absl::DataLossError(absl::StrCat(log_path, ": game ", g.index(),
                                                ": ", move.status().message()));
      pos.MakeMove(*move);
      if (i < options.skip_plies) {
        Drop(out, "early_ply");
        continue;
      }
      if (before.InCheck()) {
        Drop(out, "in_check");
        continue;
      }
      if (m.mate() != 0) {
        Drop(out, "mate_score");
        continue;
      }
      Position quiet = before;
      for (Move pv_move : engine.QuiescenceSearch(before).pv)
        quiet.MakeMove(pv_move);
      if (quiet.InCheck() || LegalMoves(quiet).empty()) {
        Drop(out, "not_quiet_after_qsearch");
        continue;
      }
      TrainingPosition tp;
      tp.set_fen(quiet.ToFen());
      tp.set_result(WhiteResult(g.result()));
      if (m.has_score_cp()) {
        tp.set_score_cp(before.side_to_move() == kWhite ? m.score_cp()
                                                        : -m.score_cp());
      }
      kept.push_back(std::move(tp));
    }
    if (options.max_per_game > 0 && int(kept.size()) > options.max_per_game) {
      SeededShuffle(kept, rng());
      Drop(out, "sampled_out", int64_t(kept.size()) - options.max_per_game);
      kept.resize(options.max_per_game);
    }
    for (TrainingPosition& tp : kept) *out->add_positions() = std::move(tp);
  }
  return absl::OkStatus();
}

absl::Status ReadTextDataset(const std::string& path, TrainingSet* out,
                             std::ostream* report) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  out->add_sources(path);
  ParseTextDataset(*text, path, out, report);
  return absl::OkStatus();
}

void ParseTextDataset(absl::string_view text, absl::string_view path,
                      TrainingSet* out, std::ostream* report) {
  int line_number = 0, reported = 0, malformed = 0;
  auto bad = [&](absl::string_view why) {
    ++malformed;
    Drop(out, "malformed_line");
    if (report && reported++ < 10)
      *report << path << ":" << line_number << ": " << why << "\n";
  };
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (fields.size() < 5) {
      bad("expected a FEN and a result");
      continue;
    }
    float result = -1;
    size_t fen_fields = 4;
    // "FEN [1.0]": the result is the last field. EPD: `c9 "1-0";` among the
    // opcodes.
    // A bare number ends a line as its result only after a FEN of 4 or 6
    // fields: in "... w KQkq - 0 1" the 1 is the move number.
    const bool bare_number =
        fields.back().find_first_not_of("0123456789.") ==
        absl::string_view::npos;
    const bool result_last = !bare_number || fields.size() == 5 ||
                             fields.size() == 7;
    if (result_last && ParseResultToken(fields.back(), &result)) {
      fen_fields = std::min<size_t>(fields.size() - 1, 6);
    } else {
      for (size_t i = 4; i + 1 < fields.size(); ++i) {
        if (fields[i] == "c9" && ParseResultToken(fields[i + 1], &result))
          break;
      }
      // A whole FEN before the opcodes: its clocks count.
      int n;
      if (fields.size() >= 8 && absl::SimpleAtoi(fields[4], &n) &&
          absl::SimpleAtoi(fields[5], &n))
        fen_fields = 6;
    }
    if (result < 0) {
      bad("no result ([1.0], [0.5], [0.0], or c9 \"1-0\";)");
      continue;
    }
    int n;
    if (fen_fields > 4 &&
        !(fen_fields == 6 && absl::SimpleAtoi(fields[4], &n) &&
          absl::SimpleAtoi(fields[5], &n))) {
      fen_fields = 4;
    }
    std::vector<std::string> fen(fields.begin(), fields.begin() + fen_fields);
    // EPD's clock and evaluation opcodes: "hmvc 3;", "fmvn 20;", "ce -35;".
    std::optional<int> ce;
    if (fen_fields == 4) {
      fen.push_back("0");
      fen.push_back("1");
      for (size_t i = 4; i + 1 < fields.size(); ++i) {
        absl::string_view value = fields[i + 1];
        if (!absl::ConsumeSuffix(&value, ";")) continue;
        int v;
        if (!absl::SimpleAtoi(value, &v)) continue;
        if (fields[i] == "hmvc") fen[4] = absl::StrCat(v);
        if (fields[i] == "fmvn") fen[5] = absl::StrCat(v);
        if (fields[i] == "ce") ce = v;
      }
    }
    absl::StatusOr<Position> pos = Position::FromFen(absl::StrJoin(fen, " "));
    if (!pos.ok()) {
      bad(pos.status().message());
      continue;
    }
    TrainingPosition* tp = out->add_positions();
    tp->set_fen(pos->ToFen());
    tp->set_result(result);
    if (ce) tp->set_score_cp(pos->side_to_move() == kWhite ? *ce : -*ce);
  }
  if (report && malformed > reported) {
    *report << path << ": " << malformed - reported
            << " more malformed lines\n";
  }
}

absl::StatusOr<DatasetFormat> ParseDatasetFormat(absl::string_view name) {
  if (name == "data" || name == "proto") return DatasetFormat::kProto;
  if (name == "epd") return DatasetFormat::kEpd;
  if (name == "fen") return DatasetFormat::kFen;
  return absl::InvalidArgumentError(absl::StrCat(
      "--format=", name, ": expected data (ours), epd or fen"));
}

DatasetFormat DatasetFormatOf(absl::string_view path) {
  if (absl::EndsWith(path, ".epd")) return DatasetFormat::kEpd;
  if (absl::EndsWith(path, ".fen")) return DatasetFormat::kFen;
  return DatasetFormat::kProto;
}

std::string FormatTextDataset(const TrainingSet& set, DatasetFormat format) {
  std::string text;
  for (const TrainingPosition& p : set.positions()) {
    if (format == DatasetFormat::kFen) {
      absl::StrAppendFormat(&text, "%s [%.1f]\n", p.fen(), p.result());
      continue;
    }
    const std::vector<absl::string_view> f = absl::StrSplit(p.fen(), ' ');
    if (f.size() != 6) continue;  // ToFen wrote it: never
    absl::StrAppend(&text, absl::StrJoin(f.begin(), f.begin() + 4, " "),
                    " hmvc ", f[4], "; fmvn ", f[5], ";");
    if (p.has_score_cp())
      absl::StrAppend(&text, " ce ", f[1] == "w" ? p.score_cp() : -p.score_cp(),
                      ";");
    absl::StrAppend(&text, " c9 \"",
                    p.result() == 1   ? "1-0"
                    : p.result() == 0 ? "0-1"
                                      : "1/2-1/2",
                    "\";\n");
  }
  return text;
}

absl::Status WriteTrainingSet(const TrainingSet& set, const std::string& path,
                              DatasetFormat format) {
  if (format != DatasetFormat::kProto)
    return WriteFileAtomically(path, FormatTextDataset(set, format));
  std::string data;
  if (!set.SerializeToString(&data))
    return absl::InternalError(absl::StrCat(path, ": cannot serialize"));
  return WriteFileAtomically(path, data);
}

absl::StatusOr<TrainingSet> ReadTrainingSet(const std::string& path) {
  if (DatasetFormatOf(path) != DatasetFormat::kProto) {
    TrainingSet set;
    if (absl::Status s = ReadTextDataset(path, &set, nullptr); !s.ok())
      return s;
    return set;
  }
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) return data.status();
  TrainingSet set;
  if (!set.ParseFromString(*data)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a training set (tuner extract output)"));
  }
  return set;
}

}  // namespace chess
