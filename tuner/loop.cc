#include "tuner/loop.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/openings.h"
#include "common/textproto.h"
#include "engine/config.h"
#include "tuner/extract.h"
#include "tuner/selfplay.h"
#include "tuner/tune.h"

namespace chess {
namespace {

namespace fs = std::filesystem;

}  // namespace

absl::StatusOr<LoopReport> RunLoop(const LoopConfig& config,
                                   const std::string& config_dir,
                                   const std::string& output_dir,
                                   std::ostream& log,
                                   const SlurmOptions& slurm) {
  const std::string start_path =
      ResolvePath(config_dir, config.start_config().empty()
                                  ? "../engines/simplified.textproto"
                                  : config.start_config());
  absl::StatusOr<EngineConfig> start = LoadEngineConfig(start_path);
  if (!start.ok()) return start.status();
  std::vector<Opening> openings;
  const std::string book =
      config.book().empty() ? "" : ResolvePath(config_dir, config.book());
  if (!book.empty()) {
    absl::StatusOr<std::vector<Opening>> loaded =
        LoadBook(book, /*max_plies=*/0);
    if (!loaded.ok()) return loaded.status();
    openings = *std::move(loaded);
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec)
    return absl::InternalError(absl::StrCat(output_dir, ": ", ec.message()));

  // The starting point beside the results, for `tuner report`'s before and
  // after.
  if (absl::Status s = WriteTextProto(
          *start, (fs::path(output_dir) / "start.textproto").string(),
          absl::StrCat("# The start of tuner loop \"", config.name(),
                       "\": ", start_path, "\n"));
      !s.ok()) {
    return s;
  }
  LoopReport report;
  *report.mutable_config() = config;
  EngineConfig best = *start;
  TrainingSet data;
  TrainingSetSink sink(&data);
  auto request_for = [&](const EngineConfig& a, const std::string& a_name,
                         const EngineConfig& b, const std::string& b_name,
                         int games, uint64_t seed, bool sprt,
                         const std::string& dir) {
    MatchRequest r;
    r.first = a;
    r.second = b;
    r.first_name = a_name;
    r.second_name = b_name;
    r.openings = &openings;
    r.book_path = book;
    r.slurm = slurm;
    r.games = games;
    r.nodes = config.selfplay_nodes();
    r.seed = seed;
    r.concurrency = config.concurrency();
    r.sprt = sprt;
    r.elo0 = config.sprt_elo0();
    r.elo1 = config.sprt_elo1();
    r.output_dir = (fs::path(output_dir) / dir).string();
    return r;
  };
  auto match = [&](auto&&... args) { return PlayMatch(request_for(args...)); };

  for (int g = 1; g <= config.generations(); ++g) {
    const std::string gen = absl::StrCat("gen", g);
    log << "generation " << g << ": self-play\n";
    EngineConfig noisy = best;
    noisy.mutable_search()->set_eval_noise_cp(config.selfplay_noise_cp());
    noisy.mutable_search()->set_eval_noise_seed(config.seed() + uint64_t(g));
    const MatchRequest selfplay_request =
        request_for(noisy, "best-a", noisy, "best-b", config.selfplay_games(),
                    config.seed() * 7919 + g, false, gen + "/selfplay");
    absl::StatusOr<MatchSummary> selfplay = PlayMatch(selfplay_request);
    if (!selfplay.ok()) return selfplay.status();

    ExtractOptions extract;
    extract.qsearch_config = best;
    extract.skip_plies = config.skip_book_plies();
    extract.max_per_game = config.max_positions_per_game();
    extract.seed = config.seed() + uint64_t(g);
    if (!config.accumulate_data()) data.Clear();
    if (absl::Status s =
            ExtractFromLog(PlayedLogPath(selfplay_request), extract, &sink);
        !s.ok()) {
      return s;
    }
    log << "generation " << g << ": tuning on " << data.positions_size()
        << " positions\n";
    absl::StatusOr<TunedConfig> tuned =
        TuneEvaluation(data, best, config.texel(), nullptr);
    if (!tuned.ok()) return tuned.status();
    EngineConfig candidate = tuned->config;
    candidate.set_name(absl::StrCat(
        config.name().empty() ? "tuned" : config.name(), "-gen", g));
    if (absl::Status s = WriteTextProto(
            candidate, (fs::path(output_dir) / (gen + ".textproto")).string(),
            absl::StrCat("# Generation ", g, " of tuner loop \"", config.name(),
                         "\"\n"));
        !s.ok()) {
      return s;
    }
    log << DescribeChanges(best.eval(), candidate.eval());

    log << "generation " << g << ": SPRT against the current best\n";
    absl::StatusOr<MatchSummary> vs_best =
        match(candidate, "candidate", best, "best", config.sprt_games(),
              config.seed() * 31 + g, true, gen + "/sprt");
    if (!vs_best.ok()) return vs_best.status();
    const PairingSummary& p = vs_best->pairings(0);
    const bool accepted =
        p.sprt_verdict() == SPRT_ACCEPT_H1 ||
        (p.sprt_verdict() == SPRT_CONTINUE && p.los() >= 0.95);

    GenerationRow* row = report.add_generations();
    row->set_generation(g);
    row->set_games(selfplay->played_games());
    row->set_positions(data.positions_size());
    row->set_start_loss(tuned->texel.start_loss);
    row->set_loss(tuned->texel.final_loss);
    row->set_k(tuned->texel.k);
    row->set_elo_vs_previous(p.elo());
    row->set_elo_vs_previous_error(p.elo_error());
    row->set_accepted(accepted);
    row->set_config(candidate.name());
    if (accepted) {
      best = candidate;
      absl::StatusOr<MatchSummary> vs_start =
          match(best, "best", *start, "start", config.sprt_games(),
                config.seed() * 97 + g, false, gen + "/vs_start");
      if (!vs_start.ok()) return vs_start.status();
      row->set_elo_vs_start(vs_start->pairings(0).elo());
      row->set_elo_vs_start_error(vs_start->pairings(0).elo_error());
      if (absl::Status s = WriteTextProto(
              best, (fs::path(output_dir) / "best.textproto").string(),
              "# The best config of the tuner loop so far\n");
          !s.ok()) {
        return s;
      }
    }
    log << FormatLoopReport(report);
    if (absl::Status s = WriteTextProto(
            report, (fs::path(output_dir) / "report.textproto").string(),
            "# tuner loop generation table\n");
        !s.ok()) {
      return s;
    }
  }
  return report;
}

std::string FormatLoopReport(const LoopReport& report) {
  std::string s = absl::StrFormat(
      "%-4s %7s %10s %9s %6s %18s %18s %s\n", "gen", "games", "positions",
      "loss", "K", "Elo vs previous", "Elo vs gen 0", "accepted");
  for (const GenerationRow& r : report.generations()) {
    const std::string vs_start =
        r.has_elo_vs_start()
            ? absl::StrFormat("%+7.1f +- %5.1f", r.elo_vs_start(),
                              r.elo_vs_start_error())
            : std::string("-");
    absl::StrAppendFormat(
        &s, "%-4d %7d %10d %9.5f %6.3f %18s %18s %s\n", r.generation(),
        r.games(), r.positions(), r.loss(), r.k(),
        absl::StrFormat("%+7.1f +- %5.1f", r.elo_vs_previous(),
                        r.elo_vs_previous_error()),
        vs_start, r.accepted() ? "yes" : "no");
  }
  return s;
}

}  // namespace chess
