#include "tuner/report.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/files.h"
#include "common/html.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "engine/eval_weights.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "tuner/report_script.h"
#include "tuner/tune.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPieces[6] = {"pawn", "knight", "bishop",
                                    "rook", "queen",  "king"};

std::string Row(const std::vector<std::string>& cells,
                const std::string& id_prefix = "",
                const std::vector<std::string>& ids = {}) {
  std::string html = "<tr>";
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string id = i < ids.size() && !ids[i].empty()
                               ? absl::StrCat(" id=\"", id_prefix, ids[i], "\"")
                               : "";
    absl::StrAppend(&html, i == 0 ? "<td class=\"name\"" : "<td", id, ">",
                    HtmlEscape(cells[i]), "</td>");
  }
  return html + "</tr>\n";
}

std::string Header(const std::vector<std::string>& cells) {
  std::string html = "<tr>";
  for (size_t i = 0; i < cells.size(); ++i)
    absl::StrAppend(&html, i == 0 ? "<th class=\"name\">" : "<th>",
                    HtmlEscape(cells[i]), "</th>");
  return html + "</tr>\n";
}

// The evaluation as the page's script reads it: values, tables (a8 first)
// and terms, middle game and end game.
std::string EvalJson(const EngineConfig& config) {
  absl::StatusOr<EvalWeights> w = EvalWeights::FromProto(config.eval());
  if (!w.ok()) return "null";
  auto both = [&](int feature) {
    return absl::StrCat("[", w->weight[kMg][feature], ",",
                        w->weight[kEg][feature], "]");
  };
  std::string json = "{\"values\":[";
  for (int p = 0; p < 6; ++p)
    absl::StrAppend(&json, p ? "," : "", both(kValueFeatures + p));
  absl::StrAppend(&json, "],\"pst\":[");
  for (int p = 0; p < 6; ++p) {
    std::vector<int> mg, eg;
    for (int i = 0; i < 64; ++i) {
      mg.push_back(w->weight[kMg][kPstFeatures + p * 64 + i]);
      eg.push_back(w->weight[kEg][kPstFeatures + p * 64 + i]);
    }
    absl::StrAppend(&json, p ? "," : "", "[[", absl::StrJoin(mg, ","), "],[",
                    absl::StrJoin(eg, ","), "]]");
  }
  absl::StrAppend(&json, "],\"terms\":[");
  for (int f = kTempoFeature; f < kNumFeatures; ++f)
    absl::StrAppend(&json, f > kTempoFeature ? "," : "", "[",
                    JsonString(EvalWeights::FeatureName(f)), ",",
                    w->weight[kMg][f], ",", w->weight[kEg][f], "]");
  return json + "]}";
}

// Piece values and terms before and after, rendered here (the page's
// numbers do not depend on its script); the heat maps are drawn by it.
std::string EvalSection(const EngineConfig& start, const EngineConfig& learned,
                        const std::string& start_label,
                        const std::string& learned_label) {
  absl::StatusOr<EvalWeights> a = EvalWeights::FromProto(start.eval());
  absl::StatusOr<EvalWeights> b = EvalWeights::FromProto(learned.eval());
  if (!a.ok() || !b.ok()) return "<p>(the evaluations cannot be compared)</p>";
  std::string html =
      absl::StrCat("<h2>Piece values</h2>\n<table id=\"values\">",
                   Header({"piece", absl::StrCat(start_label, " mg"),
                           absl::StrCat(learned_label, " mg"), "change",
                           absl::StrCat(start_label, " eg"),
                           absl::StrCat(learned_label, " eg"), "change"}));
  auto change = [](int before, int after) {
    return absl::StrFormat("%+d", after - before);
  };
  for (int p = 0; p < 5; ++p) {
    const int f = kValueFeatures + p;
    absl::StrAppend(
        &html,
        Row({kPieces[p], absl::StrCat(a->weight[kMg][f]),
             absl::StrCat(b->weight[kMg][f]),
             change(a->weight[kMg][f], b->weight[kMg][f]),
             absl::StrCat(a->weight[kEg][f]), absl::StrCat(b->weight[kEg][f]),
             change(a->weight[kEg][f], b->weight[kEg][f])},
            absl::StrCat("value-", kPieces[p], "-"),
            {"", "start-mg", "learned-mg", "", "start-eg", "learned-eg"}));
  }
  absl::StrAppend(&html, "</table>\n");
  std::string terms;
  for (int f = kTempoFeature; f < kNumFeatures; ++f) {
    if (a->weight[kMg][f] == b->weight[kMg][f] &&
        a->weight[kEg][f] == b->weight[kEg][f] && a->weight[kMg][f] == 0 &&
        a->weight[kEg][f] == 0)
      continue;
    absl::StrAppend(
        &terms,
        Row({EvalWeights::FeatureName(f), absl::StrCat(a->weight[kMg][f]),
             absl::StrCat(b->weight[kMg][f]),
             change(a->weight[kMg][f], b->weight[kMg][f]),
             absl::StrCat(a->weight[kEg][f]), absl::StrCat(b->weight[kEg][f]),
             change(a->weight[kEg][f], b->weight[kEg][f])}));
  }
  if (!terms.empty()) {
    absl::StrAppend(&html, "<h2>Evaluation terms</h2>\n<table id=\"terms\">",
                    Header({"term", absl::StrCat(start_label, " mg"),
                            absl::StrCat(learned_label, " mg"), "change",
                            absl::StrCat(start_label, " eg"),
                            absl::StrCat(learned_label, " eg"), "change"}),
                    terms, "</table>\n");
  }
  absl::StrAppend(&html,
                  "<h2>Piece-square tables</h2><div id=\"pst-controls\"></div>"
                  "<div id=\"pst\" class=\"grid\"></div>\n");
  return html;
}

std::string Page(const std::string& title, const std::string& body,
                 const std::string& json) {
  HtmlPage page;
  page.title = title;
  page.body = body;
  page.data_json = json;
  page.scripts.push_back(kTuningReportJs);
  return RenderHtmlPage(page);
}

// A config path as a texel record holds it (as typed where the tuner ran):
// absolute, from the current directory, or beside the record.
absl::StatusOr<EngineConfig> LoadRecordedConfig(const std::string& recorded,
                                                const std::string& record) {
  std::vector<std::string> candidates = {recorded};
  if (fs::path(recorded).is_relative())
    candidates.push_back((fs::path(record).parent_path() / recorded).string());
  std::error_code ec;
  for (const std::string& c : candidates)
    if (fs::exists(c, ec)) return LoadEngineConfig(c);
  return absl::NotFoundError(
      absl::StrCat(record, ": its config \"", recorded,
                   "\" is neither here nor beside the record"));
}

// What each generation's network was trained on and from (a network loop).
std::string NetworkSection(const LoopReport& report) {
  std::string section;
  for (const GenerationRow& r : report.generations()) {
    if (r.provenance().empty()) continue;
    absl::StrAppend(&section, "<h3>Generation ", r.generation(),
                    "</h3>\n<pre>");
    for (const std::string& line : r.provenance())
      absl::StrAppend(&section, HtmlEscape(line), "\n");
    absl::StrAppend(&section, "</pre>\n");
  }
  if (section.empty()) return section;
  return absl::StrCat("<h2 id=\"networks\">Networks</h2>\n", section);
}

}  // namespace

std::string LoopReportHtml(const LoopReport& report, const EngineConfig& start,
                           const EngineConfig& best) {
  const std::string name =
      report.config().name().empty() ? "(unnamed)" : report.config().name();
  const LoopConfig& config = report.config();
  const std::string data =
      config.has_network()
          ? absl::StrCat("own data from ", config.datagen().games(),
                         " games per generation at ",
                         config.datagen().soft_nodes(),
                         " soft nodes, a network trained on it")
          : absl::StrCat("self-play ", config.selfplay_games(),
                         " games per generation at ", config.selfplay_nodes(),
                         " nodes");
  std::string body = absl::StrCat(
      "<h1 id=\"title\">Tuner loop ", HtmlEscape(name), "</h1>\n",
      "<p class=\"muted\">", report.generations_size(), " of ",
      config.generations(), " generations; ", HtmlEscape(data),
      "; acceptance SPRT [", config.sprt_elo0(), ", ", config.sprt_elo1(),
      "]</p>\n<h2>Generations</h2>\n<table id=\"generations\">",
      Header({"generation", "games", "positions", "loss before", "loss after",
              "K", "Elo vs previous", "Elo vs start", "accepted"}));
  std::string json = "{\"kind\":\"loop\",\"generations\":[";
  for (int i = 0; i < report.generations_size(); ++i) {
    const GenerationRow& r = report.generations(i);
    absl::StrAppend(
        &body,
        Row({absl::StrCat(r.generation()), absl::StrCat(r.games()),
             absl::StrCat(r.positions()),
             r.has_start_loss() ? absl::StrFormat("%.5f", r.start_loss()) : "-",
             absl::StrFormat("%.5f", r.loss()), absl::StrFormat("%.3f", r.k()),
             r.has_elo_vs_previous()
                 ? absl::StrFormat("%+.1f ± %.1f", r.elo_vs_previous(),
                                   r.elo_vs_previous_error())
                 : "one-sided",
             r.has_elo_vs_start()
                 ? absl::StrFormat("%+.1f ± %.1f", r.elo_vs_start(),
                                   r.elo_vs_start_error())
                 : "-",
             r.accepted() ? "yes" : "no"},
            absl::StrCat("gen", r.generation(), "-"),
            {"", "games", "positions", "", "loss", "k", "elo-previous",
             "elo-start", "accepted"}));
    absl::StrAppend(
        &json, i ? "," : "", "{\"g\":", r.generation(),
        ",\"loss\":", JsonNumber(r.loss(), 6), ",\"startLoss\":",
        r.has_start_loss() ? JsonNumber(r.start_loss(), 6) : "null",
        ",\"k\":", JsonNumber(r.k(), 4), ",\"elo\":",
        r.has_elo_vs_previous() ? JsonNumber(r.elo_vs_previous(), 1) : "null",
        ",\"err\":",
        r.has_elo_vs_previous() ? JsonNumber(r.elo_vs_previous_error(), 1)
                                : "null",
        ",\"eloStart\":",
        r.has_elo_vs_start() ? JsonNumber(r.elo_vs_start(), 1) : "null",
        ",\"errStart\":",
        r.has_elo_vs_start() ? JsonNumber(r.elo_vs_start_error(), 1) : "null",
        ",\"accepted\":", r.accepted() ? "true" : "false", "}");
  }
  absl::StrAppend(&body, "</table>\n<div id=\"charts\" class=\"grid\"></div>\n",
                  NetworkSection(report),
                  EvalSection(start, best, "start", "best"));
  absl::StrAppend(&json, "],\"start\":", EvalJson(start),
                  ",\"learned\":", EvalJson(best),
                  ",\"labels\":[\"start\",\"best\"]}");
  return Page(absl::StrCat("Tuner loop ", name), body, json);
}

std::string TexelReportHtml(const TuningRun& run, const EngineConfig& start,
                            const EngineConfig& learned) {
  std::string body = absl::StrCat(
      "<h1 id=\"title\">Texel tuning ", HtmlEscape(run.output_config()),
      "</h1>\n<p class=\"muted\">", HtmlEscape(run.date()), " from ",
      HtmlEscape(run.start_config()), " on ",
      HtmlEscape(absl::StrJoin(run.datasets(), ", ")),
      "</p>\n<table id=\"run\">",
      Header(
          {"positions", "K", "loss before", "loss after", "epochs", "seconds"}),
      Row({absl::StrCat(run.positions()), absl::StrFormat("%.4f", run.k()),
           absl::StrFormat("%.6f", run.start_loss()),
           absl::StrFormat("%.6f", run.final_loss()),
           absl::StrCat(run.epoch_loss_size()),
           absl::StrFormat("%.1f", run.seconds())},
          "run-", {"positions", "k", "start-loss", "final-loss", "epochs", ""}),
      "</table>\n<div id=\"charts\" class=\"grid\"></div>\n",
      EvalSection(start, learned, "start", "learned"));
  std::vector<std::string> losses, fit;
  for (double l : run.epoch_loss()) losses.push_back(JsonNumber(l, 7));
  for (const KFitPoint& p : run.k_fit())
    fit.push_back(absl::StrCat("[", JsonNumber(p.k(), 4), ",",
                               JsonNumber(p.loss(), 7), "]"));
  const std::string json = absl::StrCat(
      "{\"kind\":\"texel\",\"k\":", JsonNumber(run.k(), 4), ",\"epochLoss\":[",
      absl::StrJoin(losses, ","), "],\"kFit\":[", absl::StrJoin(fit, ","),
      "],\"start\":", EvalJson(start), ",\"learned\":", EvalJson(learned),
      ",\"labels\":[\"start\",\"learned\"]}");
  return Page("Texel tuning", body, json);
}

std::string SpsaReportHtml(const SpsaState& state) {
  const SpsaConfig& c = state.config();
  std::string body = absl::StrCat(
      "<h1 id=\"title\">SPSA ", HtmlEscape(c.engine_config()), "</h1>\n",
      "<p class=\"muted\">", state.history_size(), " of ", c.iterations(),
      " iterations of ", c.pairs_per_iteration(), " game pairs at ", c.nodes(),
      " nodes</p>\n<table id=\"parameters\">",
      Header({"parameter", "min", "max", "start", "now", "change"}));
  std::string json = "{\"kind\":\"spsa\",\"parameters\":[";
  for (int i = 0; i < c.parameters_size(); ++i) {
    const SpsaParameter& p = c.parameters(i);
    const double now = i < state.theta_size() ? state.theta(i) : 0;
    const bool known = i < state.start_theta_size();
    const double start = known ? state.start_theta(i) : 0;
    absl::StrAppend(
        &body,
        Row({p.name(), absl::StrFormat("%g", p.min()),
             absl::StrFormat("%g", p.max()),
             known ? absl::StrFormat("%.2f", start) : "-",
             absl::StrFormat("%.2f", now),
             known ? absl::StrFormat("%+.2f", now - start) : "-"},
            absl::StrCat("param", i, "-"), {"name", "", "", "start", "now"}));
    std::vector<std::string> path;
    if (known) path.push_back(absl::StrCat("[0,", JsonNumber(start, 3), "]"));
    for (const SpsaIteration& it : state.history())
      if (i < it.theta_size())
        path.push_back(
            absl::StrCat("[", it.k(), ",", JsonNumber(it.theta(i), 3), "]"));
    absl::StrAppend(&json, i ? "," : "", "{\"name\":", JsonString(p.name()),
                    ",\"min\":", JsonNumber(p.min(), 3),
                    ",\"max\":", JsonNumber(p.max(), 3), ",\"theta\":[",
                    absl::StrJoin(path, ","), "]}");
  }
  std::vector<std::string> results;
  int total = 0;
  for (const SpsaIteration& it : state.history()) {
    total += it.plus_points_x2();
    results.push_back(absl::StrCat("[", it.k(), ",", total / 2.0, "]"));
  }
  absl::StrAppend(&body,
                  "</table>\n<div id=\"charts\" class=\"grid\"></div>\n");
  absl::StrAppend(&json, "],\"cumulative\":[", absl::StrJoin(results, ","),
                  "]}");
  return Page(absl::StrCat("SPSA ", c.engine_config()), body, json);
}

absl::StatusOr<TuningReport> MakeTuningReport(const std::string& path) {
  std::error_code ec;
  TuningReport out;
  if (fs::is_directory(path, ec)) {
    const fs::path dir(path);
    if (!fs::exists(dir / "report.textproto", ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat(path,
                       ": no report.textproto here: not an output directory of "
                       "tuner loop"));
    }
    absl::StatusOr<LoopReport> report =
        ReadTextProto<LoopReport>((dir / "report.textproto").string());
    if (!report.ok()) return report.status();
    absl::StatusOr<EngineConfig> start =
        LoadEngineConfig((dir / "start.textproto").string());
    if (!start.ok()) return start.status();
    absl::StatusOr<EngineConfig> best =
        fs::exists(dir / "best.textproto", ec)
            ? LoadEngineConfig((dir / "best.textproto").string())
            : start;  // no generation accepted yet
    if (!best.ok()) return best.status();
    out.kind = "loop";
    out.html = LoopReportHtml(*report, *start, *best);
    out.default_path = (dir / "report.html").string();
    return out;
  }
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  fs::path html_path = fs::path(path).replace_extension(".html");
  if (html_path == fs::path(path))  // an input named *.html: never itself
    html_path.replace_extension(".report.html");
  SpsaState spsa;
  TuningRun run;
  // Tried as each kind in turn: a parse error only means "not this kind".
  google::protobuf::TextFormat::Parser quiet;
  class Silent : public google::protobuf::io::ErrorCollector {
   public:
    void AddError(int, int, const std::string&) override {}
  } silent;
  quiet.RecordErrorsTo(&silent);
  if (quiet.ParseFromString(*text, &spsa) && spsa.has_config()) {
    out.kind = "spsa";
    out.html = SpsaReportHtml(spsa);
  } else if (quiet.ParseFromString(*text, &run) && run.has_output_config()) {
    absl::StatusOr<EngineConfig> start =
        LoadRecordedConfig(run.start_config(), path);
    if (!start.ok()) return start.status();
    absl::StatusOr<EngineConfig> learned =
        LoadRecordedConfig(run.output_config(), path);
    if (!learned.ok()) return learned.status();
    out.kind = "texel";
    out.html = TexelReportHtml(run, *start, *learned);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ": neither a tuner loop directory, a texel record (--record) nor an "
        "SPSA state (--state)"));
  }
  out.default_path = html_path.string();
  return out;
}

absl::Status CheckReportPath(const std::string& input, const std::string& out) {
  std::error_code ec;
  const bool same =
      fs::weakly_canonical(input, ec) == fs::weakly_canonical(out, ec) ||
      fs::equivalent(input, out, ec);
  if (same || fs::is_directory(out, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        out, same ? " is the report's own input" : " is a directory",
        ": name another --out"));
  }
  return absl::OkStatus();
}

}  // namespace chess
